package dev.kruisevertx.webhook.deletionprotection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deletion-protection webhooks as the API server reaches them: HTTPS, AdmissionReview in and out, registered by
 * {@link KruiseWebhooks#registerAll} with a lookup whose counts the test sets.
 */
class DeletionProtectionWebhooksHttpsTest {
    static final String ALWAYS = "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always";
    static final String CASCADING = "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading";

    Vertx vertx;
    WebhookServerVerticle server;
    WebClient client;
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    volatile int pods;
    volatile int claims;
    volatile int customResources;
    volatile RuntimeException podsFail;
    final List<DeletionProtectionLookup.CustomResourceType> askedTypes = new CopyOnWriteArrayList<>();
    final List<String> askedNamespaces = new CopyOnWriteArrayList<>();

    void start(String gates) throws Exception {
        vertx = Vertx.vertx();
        CertBundle certs = TestCerts.localhost();
        DeletionProtectionLookup lookup = new DeletionProtectionLookup() {
            @Override
            public Future<Integer> activePods(String namespace) {
                askedNamespaces.add(namespace);
                // Off the event loop, as the manager's lookup answers.
                return vertx.executeBlocking(() -> {
                    if (podsFail != null) {
                        throw podsFail;
                    }
                    return pods;
                });
            }

            @Override
            public Future<Integer> boundClaims(String namespace) {
                return vertx.executeBlocking(() -> claims);
            }

            @Override
            public Future<Integer> activeCustomResources(CustomResourceType type) {
                askedTypes.add(type);
                return vertx.executeBlocking(() -> customResources);
            }
        };
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(gates, Map.of()))
                .withDeletionProtection(lookup).withMeters(meters));
        server = new WebhookServerVerticle("localhost", 0, 3 << 20, registry, new ConversionRegistry(),
                new WebhookMetrics(new SimpleMeterRegistry()), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = WebClient.create(vertx, new WebClientOptions().setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))));
    }

    void startOn() throws Exception {
        start("ResourcesDeletionProtection=true,DeletionProtectionForCRDCascadingGate=true");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    HttpResponse<Buffer> post(String path, String operation, String group, String version, String kind,
                              String namespace, JsonNode old, boolean dryRun) throws Exception {
        ObjectNode req = Json.MAPPER.createObjectNode();
        req.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode r = req.putObject("request");
        r.put("uid", "uid-1").put("operation", operation).put("namespace", namespace)
                .put("name", old.path("metadata").path("name").asText("x")).put("dryRun", dryRun);
        r.putObject("kind").put("group", group).put("version", version).put("kind", kind);
        r.putObject("resource").put("group", group).put("version", version).put("resource", kind.toLowerCase() + "s");
        r.putObject("userInfo").put("username", "alice");
        if (operation.equals("DELETE")) {
            r.set("oldObject", old);
        } else {
            r.set("object", old);
        }
        return client.post(server.actualPort(), "localhost", path).sendBuffer(Buffer.buffer(req.toString()))
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    JsonNode delete(String path, String group, String version, String kind, String namespace, JsonNode old)
            throws Exception {
        HttpResponse<Buffer> response = post(path, "DELETE", group, version, kind, namespace, old, false);
        assertEquals(200, response.statusCode(), response.bodyAsString());
        return Json.MAPPER.readTree(response.bodyAsString()).path("response");
    }

    static ObjectNode object(String apiVersion, String kind, String namespace, String name, String label,
                             Integer replicas) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        if (label != null) {
            meta.putObject("labels").put("policy.kruise.io/delete-protection", label).put("app", name);
        }
        ObjectNode spec = o.putObject("spec");
        if (replicas != null) {
            spec.put("replicas", replicas);
        }
        return o;
    }

    static void assertDenied(JsonNode response, int code, String message) {
        assertFalse(response.path("allowed").asBoolean(), response.toString());
        assertEquals(code, response.path("status").path("code").asInt(), response.toString());
        assertEquals(message, response.path("status").path("message").asText(), response.toString());
    }

    static void assertAllowed(JsonNode response) {
        assertTrue(response.path("allowed").asBoolean(), response.toString());
    }

    double counted(String metric, String tag, String value) {
        Counter c = meters.find(metric).tag(tag, value).tag("username", "alice").counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void alwaysRefusesDeletingACloneSetOnBothSpellingsAndCountsTheUser() throws Exception {
        startOn();
        ObjectNode cs = object("apps.kruise.io/v1alpha1", "CloneSet", "default", "web", "Always", 0);
        for (String path : List.of("/validate-apps-kruise-io-cloneset", "/validate-apps-kruise-io-v1alpha1-cloneset")) {
            assertDenied(delete(path, "apps.kruise.io", "v1alpha1", "CloneSet", "default", cs), 403, ALWAYS);
        }
        assertEquals(2, counted(DeletionProtectionWebhooks.WORKLOAD_METRIC, "kind_namespace_name", "CloneSet_default_web"));
    }

    @Test
    void cascadingWorkloadsAreRefusedWhileTheyHaveReplicas() throws Exception {
        startOn();
        assertDenied(delete("/validate-apps-kruise-io-cloneset", "apps.kruise.io", "v1alpha1", "CloneSet", "default",
                object("apps.kruise.io/v1alpha1", "CloneSet", "default", "web", "Cascading", 3)), 403,
                CASCADING + " and replicas 3>0");
        assertAllowed(delete("/validate-apps-kruise-io-cloneset", "apps.kruise.io", "v1alpha1", "CloneSet", "default",
                object("apps.kruise.io/v1alpha1", "CloneSet", "default", "web", "Cascading", 0)));
        for (String version : List.of("v1alpha1", "v1beta1")) {
            assertDenied(delete("/validate-apps-kruise-io-statefulset", "apps.kruise.io", version, "StatefulSet", "ns1",
                    object("apps.kruise.io/" + version, "StatefulSet", "ns1", "db", "Cascading", 2)), 403,
                    CASCADING + " and replicas 2>0");
        }
        assertDenied(delete("/validate-apps-deployment", "apps", "v1", "Deployment", "ns1",
                object("apps/v1", "Deployment", "ns1", "d", "Cascading", 1)), 403, CASCADING + " and replicas 1>0");
        assertAllowed(delete("/validate-apps-replicaset", "apps", "v1", "ReplicaSet", "ns1",
                object("apps/v1", "ReplicaSet", "ns1", "rs", "Cascading", 0)));
        assertDenied(delete("/validate-apps-statefulset", "apps", "v1", "StatefulSet", "ns1",
                object("apps/v1", "StatefulSet", "ns1", "s", "Always", 0)), 403, ALWAYS);
        assertEquals(1, counted(DeletionProtectionWebhooks.WORKLOAD_METRIC, "kind_namespace_name", "Deployment_ns1_d"));
    }

    @Test
    void theCloneSetWebhookStillValidatesCreatesAndUpdates() throws Exception {
        startOn();
        ObjectNode bad = object("apps.kruise.io/v1alpha1", "CloneSet", "default", "web", "Always", 1);
        ((ObjectNode) bad.path("spec")).set("selector", Json.MAPPER.readTree("{\"matchLabels\":{\"app\":\"a\"}}"));
        ((ObjectNode) bad.path("spec")).set("template", Json.MAPPER.readTree(
                "{\"metadata\":{\"labels\":{\"app\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
        JsonNode response = Json.MAPPER.readTree(post("/validate-apps-kruise-io-cloneset", "CREATE", "apps.kruise.io",
                "v1alpha1", "CloneSet", "default", bad, false).bodyAsString()).path("response");
        assertEquals(422, response.path("status").path("code").asInt(), response.toString());
    }

    @Test
    void unitedDeploymentDeletesAreJudgedByKindAndItsOwnValidationStays() throws Exception {
        startOn();
        assertDenied(delete("/validate-apps-kruise-io-uniteddeployment", "apps.kruise.io", "v1alpha1", "UnitedDeployment",
                "ns1", object("apps.kruise.io/v1alpha1", "UnitedDeployment", "ns1", "ud", "Cascading", 4)), 403,
                CASCADING + " and replicas 4>0");
        assertDenied(delete("/validate-apps-kruise-io-v1alpha1-uniteddeployment", "apps.kruise.io", "v1alpha1",
                "UnitedDeployment", "ns1", object("apps.kruise.io/v1alpha1", "UnitedDeployment", "ns1", "ud", "Always", 0)),
                403, ALWAYS);
        // The UnitedDeployment webhook is wrapped, not replaced: its own CREATE validation still judges the object.
        JsonNode create = Json.MAPPER.readTree(post("/validate-apps-kruise-io-uniteddeployment", "CREATE",
                "apps.kruise.io", "v1alpha1", "UnitedDeployment", "ns1",
                object("apps.kruise.io/v1alpha1", "UnitedDeployment", "ns1", "ud", "Always", 4), false).bodyAsString());
        assertEquals(422, create.path("response").path("status").path("code").asInt(), create.toString());
        assertTrue(create.path("response").path("status").path("message").asText()
                .contains("spec.template: Required value"), create.toString());
    }

    @Test
    void cascadingNamespacesAreRefusedWhileActivePodsOrBoundClaimsExist() throws Exception {
        startOn();
        ObjectNode ns = object("v1", "Namespace", null, "team-a", "Cascading", null);
        pods = 2;
        claims = 5;
        assertDenied(delete("/validate-namespace", "", "v1", "Namespace", "", ns), 403, CASCADING + " and active pods 2>0");
        pods = 0;
        assertDenied(delete("/validate-namespace", "", "v1", "Namespace", "", ns), 403,
                CASCADING + " and \"Bound\" status pvc 5>0");
        claims = 0;
        assertAllowed(delete("/validate-namespace", "", "v1", "Namespace", "", ns));
        assertEquals(List.of("team-a", "team-a", "team-a"), askedNamespaces);
        assertEquals(2, counted(DeletionProtectionWebhooks.NAMESPACE_METRIC, "name", "team-a"));
        podsFail = new IllegalStateException("the API server is unreachable");
        assertDenied(delete("/validate-namespace", "", "v1", "Namespace", "", ns), 403,
                "forbidden by ResourcesProtectionDeletion for list pods error: the API server is unreachable");
    }

    @Test
    void aTerminatingNamespaceIsNotLookedUpAgain() throws Exception {
        startOn();
        ObjectNode ns = object("v1", "Namespace", null, "team-b", "Cascading", null);
        ((ObjectNode) ns.path("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z");
        pods = 3;
        assertAllowed(delete("/validate-namespace", "", "v1", "Namespace", "", ns));
        assertTrue(askedNamespaces.isEmpty());
    }

    @Test
    void cascadingCrdsAreRefusedWhileTheirObjectsExist() throws Exception {
        startOn();
        ObjectNode crd = (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"widgets.example.com","labels":{"policy.kruise.io/delete-protection":"Cascading"}},
                 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
                   "versions":[{"name":"v1alpha1","served":true,"storage":false},
                               {"name":"v1","served":true,"storage":true}]}}
                """);
        customResources = 6;
        assertDenied(delete("/validate-customresourcedefinition", "apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                "", crd), 403, CASCADING + " and active CRs 6>0");
        assertEquals(new DeletionProtectionLookup.CustomResourceType("example.com", "v1", "Widget", "widgets", true),
                askedTypes.get(0));
        assertEquals(1, counted(DeletionProtectionWebhooks.CRD_METRIC, "name", "widgets.example.com"));
        customResources = 0;
        assertAllowed(delete("/validate-customresourcedefinition", "apiextensions.k8s.io", "v1",
                "CustomResourceDefinition", "", crd));

        ObjectNode beta = (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"gadgets.example.com","labels":{"policy.kruise.io/delete-protection":"Cascading"}},
                 "spec":{"group":"example.com","version":"v2","scope":"Cluster","names":{"plural":"gadgets","kind":"Gadget"}}}
                """);
        customResources = 1;
        assertDenied(delete("/validate-customresourcedefinition", "apiextensions.k8s.io", "v1beta1",
                "CustomResourceDefinition", "", beta), 403, CASCADING + " and active CRs 1>0");
        assertEquals(new DeletionProtectionLookup.CustomResourceType("example.com", "v2", "Gadget", "gadgets", false),
                askedTypes.get(2));
    }

    @Test
    void withoutTheCrdGateCascadingCrdsAreRefusedAsOpenKruiseDoes() throws Exception {
        start("ResourcesDeletionProtection=true");
        ObjectNode crd = object("apiextensions.k8s.io/v1", "CustomResourceDefinition", null, "w.example.com",
                "Cascading", null);
        assertDenied(delete("/validate-customresourcedefinition", "apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                "", crd), 403, "feature-gate DeletionProtectionForCRDCascadingGate is not enabled");
        assertTrue(askedTypes.isEmpty());
    }

    @Test
    void servicesAndIngressesObeyAlwaysOnlyAndAreNotCounted() throws Exception {
        startOn();
        assertDenied(delete("/validate-service", "", "v1", "Service", "default",
                object("v1", "Service", "default", "svc", "Always", null)), 403, ALWAYS);
        assertDenied(delete("/validate-ingress", "networking.k8s.io", "v1", "Ingress", "default",
                object("networking.k8s.io/v1", "Ingress", "default", "ing", "Always", null)), 403, ALWAYS);
        JsonNode cascading = delete("/validate-service", "", "v1", "Service", "default",
                object("v1", "Service", "default", "svc", "Cascading", null));
        assertAllowed(cascading);
        assertEquals("policy.kruise.io/delete-protection=Cascading protects no Service: only Always does",
                cascading.path("warnings").get(0).asText());
        assertTrue(meters.getMeters().isEmpty(), "Services and Ingresses are not counted, as in OpenKruise");
    }

    @Test
    void withTheGateOffNothingIsProtectedAndServiceIngressPathsAreNotServed() throws Exception {
        start("ResourcesDeletionProtection=false");
        assertAllowed(delete("/validate-namespace", "", "v1", "Namespace", "",
                object("v1", "Namespace", null, "ns", "Always", null)));
        assertAllowed(delete("/validate-apps-kruise-io-cloneset", "apps.kruise.io", "v1alpha1", "CloneSet", "default",
                object("apps.kruise.io/v1alpha1", "CloneSet", "default", "web", "Always", 3)));
        assertEquals(404, post("/validate-service", "DELETE", "", "v1", "Service", "default",
                object("v1", "Service", "default", "svc", "Always", null), false).statusCode());
        assertEquals(404, post("/validate-ingress", "DELETE", "networking.k8s.io", "v1", "Ingress", "default",
                object("networking.k8s.io/v1", "Ingress", "default", "i", "Always", null), false).statusCode());
    }

    @Test
    void aDryRunDeleteGetsTheSameAnswer() throws Exception {
        startOn();
        JsonNode response = Json.MAPPER.readTree(post("/validate-apps-deployment", "DELETE", "apps", "v1", "Deployment",
                "default", object("apps/v1", "Deployment", "default", "d", "Always", 1), true).bodyAsString());
        assertDenied(response.path("response"), 403, ALWAYS);
    }

    @Test
    void hostileObjectsGetClearAnswers() throws Exception {
        startOn();
        ObjectNode labelsNotMap = object("apps/v1", "Deployment", "default", "d", null, 1);
        ((ObjectNode) labelsNotMap.path("metadata")).put("labels", "Always");
        assertDenied(delete("/validate-apps-deployment", "apps", "v1", "Deployment", "default", labelsNotMap), 400,
                "cannot judge the deletion of Deployment default/d: metadata.labels: must be a map of strings");

        ObjectNode labelNotString = object("apps/v1", "Deployment", "default", "d", null, 1);
        ((ObjectNode) labelNotString.path("metadata")).putObject("labels").putArray("policy.kruise.io/delete-protection");
        assertDenied(delete("/validate-apps-deployment", "apps", "v1", "Deployment", "default", labelNotString), 400,
                "cannot judge the deletion of Deployment default/d: metadata.labels[policy.kruise.io/delete-protection]: "
                        + "must be a string");

        ObjectNode replicasText = object("apps.kruise.io/v1alpha1", "CloneSet", "default", "web", "Cascading", null);
        ((ObjectNode) replicasText.path("spec")).put("replicas", "three");
        assertDenied(delete("/validate-apps-kruise-io-cloneset", "apps.kruise.io", "v1alpha1", "CloneSet", "default",
                replicasText), 400, "cannot judge the deletion of CloneSet default/web: spec.replicas: must be a 32-bit integer");

        ObjectNode crdWithoutVersion = object("apiextensions.k8s.io/v1", "CustomResourceDefinition", null, "w.example.com",
                "Cascading", null);
        ((ObjectNode) crdWithoutVersion.path("spec")).put("group", "example.com").putObject("names")
                .put("plural", "ws").put("kind", "W");
        assertDenied(delete("/validate-customresourcedefinition", "apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                "", crdWithoutVersion), 400, "cannot judge the deletion of CustomResourceDefinition w.example.com: "
                + "spec.versions: no storage version");

        JsonNode typo = delete("/validate-apps-kruise-io-cloneset", "apps.kruise.io", "v1alpha1", "CloneSet", "default",
                object("apps.kruise.io/v1alpha1", "CloneSet", "default", "web", "always", 3));
        assertAllowed(typo);
        assertEquals("policy.kruise.io/delete-protection=\"always\" protects nothing: the values are Always and "
                + "Cascading (case-sensitive)", typo.path("warnings").get(0).asText());

        // 2 MiB of annotations: only the labels and spec.replicas are read.
        ObjectNode huge = object("apps.kruise.io/v1alpha1", "CloneSet", "default", "big", "Always", 1);
        ((ObjectNode) huge.path("metadata")).putObject("annotations").put("blob", "x".repeat(2 << 20));
        assertDenied(delete("/validate-apps-kruise-io-cloneset", "apps.kruise.io", "v1alpha1", "CloneSet", "default",
                huge), 403, ALWAYS);
    }

    @Test
    void requestsWithoutTheOldObjectOrForOtherKindsAreAllowed() throws Exception {
        startOn();
        ObjectNode req = Json.MAPPER.createObjectNode();
        req.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        req.putObject("request").put("uid", "u").put("operation", "DELETE").put("name", "ns")
                .putObject("kind").put("group", "").put("version", "v1").put("kind", "Namespace");
        JsonNode response = Json.MAPPER.readTree(client.post(server.actualPort(), "localhost", "/validate-namespace")
                .sendBuffer(Buffer.buffer(req.toString())).toCompletionStage().toCompletableFuture()
                .get(60, TimeUnit.SECONDS).bodyAsString()).path("response");
        assertAllowed(response);
        assertAllowed(delete("/validate-apps-deployment", "apps", "v1", "DaemonSet", "default",
                object("apps/v1", "DaemonSet", "default", "ds", "Always", null)));
        assertNull(meters.find(DeletionProtectionWebhooks.WORKLOAD_METRIC).counter());
    }
}
