package dev.kruisevertx.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.ArrayList;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded API server calling a real HTTPS webhook server, as kube-apiserver calls the product's webhook. */
class WebhookAdmissionTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static Vertx webhookVertx;
    static HttpServer webhook;
    static int webhookPort;
    static String caBundle;
    static ClusterFixture fixture;
    static KubernetesClient client;
    static final List<JsonNode> reviews = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        TestCertificates certs = TestCertificates.selfSigned("webhook.kruise-system.svc", "localhost");
        caBundle = Base64.getEncoder().encodeToString(certs.certPem().getBytes(StandardCharsets.UTF_8));
        webhookVertx = Vertx.vertx();
        webhook = webhookVertx.createHttpServer(new HttpServerOptions().setSsl(true).setHost("127.0.0.1").setPort(0)
                        .setKeyCertOptions(new PemKeyCertOptions().addCertValue(Buffer.buffer(certs.certPem())).addKeyValue(Buffer.buffer(certs.keyPem()))))
                .requestHandler(req -> req.body().onSuccess(body -> {
                    JsonNode review;
                    try {
                        review = MAPPER.readTree(body.getBytes());
                    } catch (java.io.IOException e) {
                        req.response().setStatusCode(400).end();
                        return;
                    }
                    reviews.add(review);
                    ObjectNode out = MAPPER.createObjectNode();
                    out.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
                    ObjectNode response = out.putObject("response");
                    response.put("uid", review.path("request").path("uid").asText());
                    JsonNode object = review.path("request").path("object");
                    if (req.path().equals("/convert")) {
                        req.response().putHeader("Content-Type", "application/json").end(convert(review).toString());
                        return;
                    }
                    if (req.path().equals("/mutate-status")) {
                        response.put("allowed", true).put("patchType", "JSONPatch");
                        String patch = "[{\"op\":\"add\",\"path\":\"/status\",\"value\":{\"forged\":\"yes\"}}]";
                        response.put("patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
                    } else if (req.path().equals("/mutate")) {
                        response.put("allowed", true).put("patchType", "JSONPatch");
                        String patch = object.path("metadata").has("labels")
                                ? "[{\"op\":\"add\",\"path\":\"/metadata/labels/mutated\",\"value\":\"yes\"}]"
                                : "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"mutated\":\"yes\"}}]";
                        response.put("patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
                    } else if (review.path("request").path("operation").asText().equals("DELETE") && review.path("request")
                            .path("oldObject").path("metadata").path("labels").path("deny").asText("").equals("true")) {
                        response.put("allowed", false);
                        response.putObject("status").put("code", 403).put("message", "protected from deletion");
                    } else if (object.path("data").path("bad").asText("").equals("true")) {
                        response.put("allowed", false);
                        response.putObject("status").put("code", 403).put("message", "bad data is refused");
                    } else {
                        response.put("allowed", true);
                    }
                    req.response().putHeader("Content-Type", "application/json").end(out.toString());
                })).listen().await(20, TimeUnit.SECONDS);
        webhookPort = webhook.actualPort();
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0)
                .mapService("kruise-system/webhook", "127.0.0.1:" + webhookPort));
        client = fixture.client();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("hooked").addToLabels("webhook", "enabled").endMetadata().build()).create();
        ManifestApplier.apply(client, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: test-mutating}
                webhooks:
                - name: mpod.kruise-vertx.dev
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  clientConfig:
                    caBundle: %s
                    service: {namespace: kruise-system, name: webhook, path: /mutate, port: 443}
                  namespaceSelector:
                    matchLabels: {webhook: enabled}
                  rules:
                  - {apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: test-validating}
                webhooks:
                - name: vcm.kruise-vertx.dev
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  clientConfig:
                    caBundle: %s
                    url: https://127.0.0.1:%d/validate
                  objectSelector:
                    matchLabels: {check: "yes"}
                  rules:
                  - {apiGroups: [""], apiVersions: [v1], resources: [configmaps], operations: [CREATE, UPDATE, DELETE], scope: Namespaced}
                """.formatted(caBundle, caBundle, webhookPort));
    }

    /** v1 keeps {@code spec.size}, v2 calls it {@code spec.replicas}. */
    static ObjectNode convert(JsonNode review) {
        String desired = review.path("request").path("desiredAPIVersion").asText();
        ObjectNode out = MAPPER.createObjectNode();
        out.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode response = out.putObject("response");
        response.put("uid", review.path("request").path("uid").asText());
        var converted = response.putArray("convertedObjects");
        for (JsonNode o : review.path("request").path("objects")) {
            ObjectNode c = o.deepCopy();
            ObjectNode spec = (ObjectNode) c.path("spec");
            if (desired.endsWith("/v2") && spec.has("size")) {
                spec.set("replicas", spec.remove("size"));
            } else if (desired.endsWith("/v1") && spec.has("replicas")) {
                spec.set("size", spec.remove("replicas"));
            }
            c.put("apiVersion", desired);
            converted.add(c);
        }
        response.putObject("result").put("status", "Success");
        return out;
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
        webhookVertx.close().await(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void clear() {
        reviews.clear();
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName("failing").delete();
    }

    @Test
    void conversionWebhookTranslatesBetweenServedVersions() {
        ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: boxes.conv.kruise-vertx.dev}
                spec:
                  group: conv.kruise-vertx.dev
                  scope: Namespaced
                  names: {plural: boxes, singular: box, kind: Box}
                  conversion:
                    strategy: Webhook
                    webhook:
                      conversionReviewVersions: [v1]
                      clientConfig:
                        caBundle: %s
                        service: {namespace: kruise-system, name: webhook, path: /convert, port: 443}
                  versions:
                  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
                  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
                """.formatted(caBundle));
        var v1 = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder().withGroup("conv.kruise-vertx.dev")
                .withVersion("v1").withPlural("boxes").withKind("Box").withNamespaced(true).build();
        var v2 = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder().withGroup("conv.kruise-vertx.dev")
                .withVersion("v2").withPlural("boxes").withKind("Box").withNamespaced(true).build();
        client.genericKubernetesResources(v2).inNamespace("default").resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                .withApiVersion("conv.kruise-vertx.dev/v2").withKind("Box").withNewMetadata().withName("b1").withNamespace("default").endMetadata()
                .withAdditionalProperties(java.util.Map.of("spec", java.util.Map.of("replicas", 3))).build()).create();
        var storedView = client.genericKubernetesResources(v1).inNamespace("default").withName("b1").get();
        assertEquals(java.util.Map.of("size", 3), storedView.getAdditionalProperties().get("spec"));
        var v2View = client.genericKubernetesResources(v2).inNamespace("default").list().getItems().get(0);
        assertEquals(java.util.Map.of("replicas", 3), v2View.getAdditionalProperties().get("spec"));
        assertEquals(storedView.getMetadata().getUid(), v2View.getMetadata().getUid());
    }

    /**
     * As kube-apiserver, the status of a custom resource with the status subresource is reset after mutating
     * admission: a webhook's status patch on create or on a main-resource update is not stored; /status writes it.
     */
    @Test
    void aWebhookCannotWriteStatusThroughTheMainResource() {
        ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: gauges.status.kruise-vertx.dev}
                spec:
                  group: status.kruise-vertx.dev
                  scope: Namespaced
                  names: {plural: gauges, singular: gauge, kind: Gauge}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    subresources: {status: {}}
                    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: test-status-forger}
                webhooks:
                - name: forge.kruise-vertx.dev
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  clientConfig:
                    caBundle: %s
                    service: {namespace: kruise-system, name: webhook, path: /mutate-status, port: 443}
                  rules:
                  - {apiGroups: [status.kruise-vertx.dev], apiVersions: [v1], resources: [gauges], operations: [CREATE, UPDATE]}
                """.formatted(caBundle));
        var gauges = client.genericKubernetesResources(new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext
                .Builder().withGroup("status.kruise-vertx.dev").withVersion("v1").withPlural("gauges").withKind("Gauge")
                .withNamespaced(true).build()).inNamespace("default");
        var created = gauges.resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                .withApiVersion("status.kruise-vertx.dev/v1").withKind("Gauge").withNewMetadata().withName("g1")
                .withNamespace("default").endMetadata()
                .withAdditionalProperties(java.util.Map.of("spec", java.util.Map.of("size", 1))).build()).create();
        assertTrue(reviews.stream().anyMatch(r -> "Gauge".equals(r.path("request").path("kind").path("kind").asText())),
                "the webhook was asked");
        assertEquals(null, created.getAdditionalProperties().get("status"), "no status on create");
        created.getAdditionalProperties().put("status", java.util.Map.of("real", "1"));
        gauges.resource(created).updateStatus();
        var live = gauges.withName("g1").get();
        live.getAdditionalProperties().put("spec", java.util.Map.of("size", 2));
        var updated = gauges.resource(live).update();
        assertEquals(java.util.Map.of("size", 2), updated.getAdditionalProperties().get("spec"));
        assertEquals(java.util.Map.of("real", "1"), updated.getAdditionalProperties().get("status"),
                "a main-resource update keeps the stored status");
        assertEquals(java.util.Map.of("real", "1"), gauges.withName("g1").get().getAdditionalProperties().get("status"));
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName("test-status-forger").delete();
    }

    /** A custom resource's name is a DNS-1123 subdomain, as for built-in kinds (apiextensions-apiserver validates it). */
    @Test
    void aCustomResourceNameMustBeALowercaseSubdomain() {
        ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: tags.names.kruise-vertx.dev}
                spec:
                  group: names.kruise-vertx.dev
                  scope: Namespaced
                  names: {plural: tags, singular: tag, kind: Tag}
                  versions:
                  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
                """);
        var tags = client.genericKubernetesResources(new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext
                .Builder().withGroup("names.kruise-vertx.dev").withVersion("v1").withPlural("tags").withKind("Tag")
                .withNamespaced(true).build()).inNamespace("default");
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.fabric8.kubernetes.client.KubernetesClientException.class,
                () -> tags.resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                        .withApiVersion("names.kruise-vertx.dev/v1").withKind("Tag").withNewMetadata().withName("Upper")
                        .withNamespace("default").endMetadata().build()).create());
        assertEquals(422, e.getCode());
        assertTrue(e.getMessage().contains("metadata.name: Invalid value: \"Upper\": a lowercase RFC 1123 subdomain"),
                e.getMessage());
        tags.resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                .withApiVersion("names.kruise-vertx.dev/v1").withKind("Tag").withNewMetadata().withName("lower.case-1")
                .withNamespace("default").endMetadata().build()).create();
        assertEquals("lower.case-1", tags.withName("lower.case-1").get().getMetadata().getName());
    }

    static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i")
                .endContainer().endSpec().build();
    }

    @Test
    void mutatingWebhookPatchIsAppliedInSelectedNamespacesOnly() {
        Pod mutated = client.pods().inNamespace("hooked").resource(pod("m1")).create();
        assertEquals("yes", mutated.getMetadata().getLabels().get("mutated"));
        assertEquals(1, reviews.size());
        JsonNode req = reviews.get(0).path("request");
        assertEquals("CREATE", req.path("operation").asText());
        assertEquals("pods", req.path("resource").path("resource").asText());
        assertEquals("hooked", req.path("namespace").asText());
        Pod plain = client.pods().inNamespace("default").resource(pod("m2")).create();
        assertTrue(plain.getMetadata().getLabels() == null || !plain.getMetadata().getLabels().containsKey("mutated"));
        assertEquals(1, reviews.size(), "namespaceSelector excludes default");
    }

    @Test
    void validatingWebhookDeniesAndSeesOldObjectOnDelete() {
        KubernetesClientException denied = assertThrows(KubernetesClientException.class, () -> client.configMaps().inNamespace("default")
                .resource(new ConfigMapBuilder().withNewMetadata().withName("v-bad").addToLabels("check", "yes").endMetadata().addToData("bad", "true").build()).create());
        assertEquals(403, denied.getCode());
        assertTrue(denied.getMessage().contains("admission webhook \"vcm.kruise-vertx.dev\" denied the request: bad data is refused"), denied.getMessage());
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("v-unchecked").endMetadata()
                .addToData("bad", "true").build()).create();
        assertEquals(1, reviews.size(), "objectSelector excludes unlabelled objects");
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("v-ok").addToLabels("check", "yes").endMetadata().build()).create();
        client.configMaps().inNamespace("default").withName("v-ok").delete();
        JsonNode last = reviews.get(reviews.size() - 1).path("request");
        assertEquals("DELETE", last.path("operation").asText());
        assertEquals("v-ok", last.path("oldObject").path("metadata").path("name").asText());
    }

    /**
     * Deletion protection relies on kube-apiserver sending DELETE of namespaces, CRDs, Services, Ingresses and
     * Deployments to validating webhooks, with the old object, matched by objectSelector on the object's own labels (a
     * namespace's namespaceSelector is matched against the namespace itself).
     */
    @Test
    void deletesOfNamespacesCrdsAndBuiltInKindsReachValidatingWebhooks() {
        ManifestApplier.apply(client, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: test-delete-protection}
                webhooks:
                - name: vdelete.kruise-vertx.dev
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  failurePolicy: Ignore
                  clientConfig:
                    caBundle: %s
                    url: https://127.0.0.1:%d/validate
                  objectSelector:
                    matchExpressions: [{key: protect, operator: Exists}]
                  namespaceSelector:
                    matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]
                  rules:
                  - {apiGroups: [""], apiVersions: [v1], resources: [namespaces, services], operations: [DELETE]}
                  - {apiGroups: [apiextensions.k8s.io], apiVersions: [v1], resources: [customresourcedefinitions], operations: [DELETE]}
                  - {apiGroups: [networking.k8s.io], apiVersions: [v1], resources: [ingresses], operations: [DELETE]}
                  - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [DELETE]}
                """.formatted(caBundle, webhookPort));
        try {
            ManifestApplier.apply(client, """
                    apiVersion: v1
                    kind: Namespace
                    metadata: {name: guarded, labels: {protect: "yes", deny: "true"}}
                    ---
                    apiVersion: apiextensions.k8s.io/v1
                    kind: CustomResourceDefinition
                    metadata: {name: gizmos.example.com, labels: {protect: "yes", deny: "true"}}
                    spec:
                      group: example.com
                      scope: Namespaced
                      names: {plural: gizmos, singular: gizmo, kind: Gizmo, listKind: GizmoList}
                      versions:
                      - name: v1
                        served: true
                        storage: true
                        schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                    ---
                    apiVersion: v1
                    kind: Service
                    metadata: {name: guarded-svc, namespace: default, labels: {protect: "yes", deny: "true"}}
                    spec: {ports: [{port: 80}]}
                    ---
                    apiVersion: networking.k8s.io/v1
                    kind: Ingress
                    metadata: {name: guarded-ing, namespace: default, labels: {protect: "yes", deny: "true"}}
                    spec: {defaultBackend: {service: {name: guarded-svc, port: {number: 80}}}}
                    ---
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata: {name: guarded-deploy, namespace: default, labels: {protect: "yes", deny: "true"}}
                    spec:
                      replicas: 0
                      selector: {matchLabels: {app: g}}
                      template: {metadata: {labels: {app: g}}, spec: {containers: [{name: c, image: nginx}]}}
                    """);
            List<Runnable> deletes = List.of(
                    () -> client.namespaces().withName("guarded").delete(),
                    () -> client.apiextensions().v1().customResourceDefinitions().withName("gizmos.example.com").delete(),
                    () -> client.services().inNamespace("default").withName("guarded-svc").delete(),
                    () -> client.network().v1().ingresses().inNamespace("default").withName("guarded-ing").delete(),
                    () -> client.apps().deployments().inNamespace("default").withName("guarded-deploy").delete());
            for (Runnable delete : deletes) {
                KubernetesClientException denied = assertThrows(KubernetesClientException.class, delete::run);
                assertEquals(403, denied.getCode());
                assertTrue(denied.getMessage().contains("admission webhook \"vdelete.kruise-vertx.dev\" denied the "
                        + "request: protected from deletion"), denied.getMessage());
            }
            List<String> kinds = new ArrayList<>();
            for (JsonNode r : reviews) {
                assertEquals("DELETE", r.path("request").path("operation").asText());
                assertTrue(r.path("request").path("oldObject").path("metadata").path("labels").has("deny"), r.toString());
                kinds.add(r.path("request").path("kind").path("kind").asText());
            }
            assertEquals(List.of("Namespace", "CustomResourceDefinition", "Service", "Ingress", "Deployment"), kinds);
            assertNotNull(client.namespaces().withName("guarded").get());
            assertNotNull(client.apiextensions().v1().customResourceDefinitions().withName("gizmos.example.com").get());
            // Unlabelled objects are not sent; the label removed, the deletes go through.
            reviews.clear();
            client.namespaces().withName("guarded").edit(n -> {
                n.getMetadata().getLabels().remove("protect");
                return n;
            });
            client.namespaces().withName("guarded").delete();
            client.apiextensions().v1().customResourceDefinitions().withName("gizmos.example.com").edit(c -> {
                c.getMetadata().getLabels().remove("protect");
                return c;
            });
            client.apiextensions().v1().customResourceDefinitions().withName("gizmos.example.com").delete();
            assertTrue(reviews.isEmpty(), reviews.toString());
        } finally {
            client.admissionRegistration().v1().validatingWebhookConfigurations().withName("test-delete-protection").delete();
        }
    }

    @Test
    void failurePolicyDecidesWhenTheWebhookIsUnreachableOrUntrusted() throws Exception {
        String wrongCa = Base64.getEncoder().encodeToString(TestCertificates.selfSigned("other").certPem().getBytes(StandardCharsets.UTF_8));
        ManifestApplier.apply(client, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: failing}
                webhooks:
                - name: untrusted.kruise-vertx.dev
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  failurePolicy: Fail
                  timeoutSeconds: 5
                  clientConfig: {caBundle: %s, url: "https://127.0.0.1:%d/validate"}
                  objectSelector: {matchLabels: {policy: fail}}
                  rules: [{apiGroups: [""], apiVersions: [v1], resources: [secrets], operations: ["*"]}]
                - name: unreachable.kruise-vertx.dev
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  failurePolicy: Ignore
                  timeoutSeconds: 2
                  clientConfig: {caBundle: %s, url: "https://127.0.0.1:1/validate"}
                  rules: [{apiGroups: [""], apiVersions: [v1], resources: [secrets], operations: ["*"]}]
                """.formatted(wrongCa, webhookPort, caBundle));
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> client.secrets().inNamespace("default")
                .resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName("s1").addToLabels("policy", "fail").endMetadata().build()).create());
        assertEquals(500, e.getCode());
        assertTrue(e.getMessage().contains("failed calling webhook \"untrusted.kruise-vertx.dev\""), e.getMessage());
        assertNotNull(client.secrets().inNamespace("default")
                .resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName("s2").endMetadata().build()).create(),
                "the Ignore webhook is unreachable but does not block");
        assertTrue(reviews.isEmpty(), "the untrusted server never got the review");
    }
}
