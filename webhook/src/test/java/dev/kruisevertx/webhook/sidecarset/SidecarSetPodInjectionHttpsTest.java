package dev.kruisevertx.webhook.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.cache.WatchCacheOptions;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sidecarset.SidecarSetHash;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.zjsonpatch.JsonPatch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * SidecarSet injection on {@code /mutate-pod} as the API server reaches it (HTTPS, AdmissionReview in and out), with
 * the SidecarSets, namespaces and revisions served by the shared watch cache over fabric8's CRUD mock API server, as
 * the manager wires them. SidecarSets are defaulted through {@code /mutate-apps-kruise-io-sidecarset} before they
 * are stored, so they carry the hash annotations a real cluster gives them.
 */
class SidecarSetPodInjectionHttpsTest {
    static final String KRUISE_NS = "kruise-system";
    static final String BETA = "apps.kruise.io/v1beta1";

    static KubernetesMockServer server;
    static KubernetesClient kube;
    static WatchCache cache;
    static Vertx vertx;
    static WebhookServerVerticle webhook;
    static WebClient http;

    @BeforeAll
    static void setUp() throws Exception {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        server.expectCustomResource(new CustomResourceDefinitionContext.Builder().withGroup("apps.kruise.io")
                .withVersion("v1beta1").withKind("SidecarSet").withPlural("sidecarsets").withScope("Cluster").build());
        kube = KubeClients.forTest(server.createClient().getConfiguration());
        vertx = Vertx.vertx();
        cache = new WatchCache(kube, WatchCacheOptions.defaults().withMutationDetector(false));
        CachedSidecarSetLookup.registerIndexes(cache);
        CachedSidecarSetLookup lookup = new CachedSidecarSetLookup(cache, KRUISE_NS, () -> vertx.executeBlocking(() -> {
            ConfigMap cm = kube.configMaps().inNamespace(KRUISE_NS).withName("kruise-configuration").get();
            return Optional.ofNullable(cm == null || cm.getData() == null ? null
                    : cm.getData().get("SidecarSet_PatchPodMetadata_WhiteList"));
        }));
        for (var kind : CachedSidecarSetLookup.kinds()) {
            cache.start(kind).toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        for (String ns : List.of("prod", "dev")) {
            kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
                    .addToLabels("env", ns).addToLabels("kubernetes.io/metadata.name", ns).endMetadata().build()).create();
        }
        CertBundle certs = TestCerts.localhost();
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse("", Map.of()))
                .withSidecarSets(lookup));
        webhook = new WebhookServerVerticle("localhost", 0, 3 << 20, registry, new ConversionRegistry(),
                new WebhookMetrics(new SimpleMeterRegistry()), certs);
        vertx.deployVerticle(webhook).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        http = WebClient.create(vertx, new WebClientOptions().setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))));
    }

    @AfterAll
    static void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        cache.close();
        kube.close();
        server.destroy();
    }

    static JsonNode json(String s) throws Exception {
        return Json.MAPPER.readTree(s.replace('\'', '"'));
    }

    static JsonNode review(String path, String op, String namespace, String kind, String resource, JsonNode object,
                           JsonNode old) throws Exception {
        ObjectNode req = Json.MAPPER.createObjectNode();
        req.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode r = req.putObject("request");
        r.put("uid", "uid-1").put("operation", op).put("namespace", namespace);
        r.set("kind", json(kind));
        r.putObject("resource").put("resource", resource);
        r.set("object", object);
        if (old != null) {
            r.set("oldObject", old);
        }
        String body = http.post(webhook.actualPort(), "localhost", path).sendBuffer(Buffer.buffer(req.toString()))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).bodyAsString();
        return Json.MAPPER.readTree(body).path("response");
    }

    static JsonNode podReview(String op, String namespace, JsonNode pod, JsonNode old) throws Exception {
        return review("/mutate-pod", op, namespace, "{'group':'','version':'v1','kind':'Pod'}", "pods", pod, old);
    }

    /** The pod as admitted: the response must allow it; its patch applied. */
    static JsonNode admit(String namespace, JsonNode pod) throws Exception {
        JsonNode response = podReview("CREATE", namespace, pod, null);
        assertTrue(response.path("allowed").asBoolean(), response.toString());
        return response.has("patch") ? JsonPatch.apply(AdmissionReviews.decodePatch(response), pod) : pod;
    }

    static JsonNode pod(String labels, String extra) throws Exception {
        return json("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','labels':{" + labels + "}},"
                + "'spec':{'containers':[{'name':'main','image':'app:1','env':[{'name':'TZ','value':'UTC'}],"
                + "'volumeMounts':[{'name':'data','mountPath':'/data'}]}],'volumes':[{'name':'data','emptyDir':{}}]"
                + (extra.isEmpty() ? "" : "," + extra) + "}}");
    }

    /** Defaults the SidecarSet through the SidecarSet webhook over HTTPS, stores it, waits for the cache. */
    static SidecarSet store(String name, String spec) throws Exception {
        JsonNode set = json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'" + name
                + "'},'spec':" + spec + "}");
        JsonNode response = review("/mutate-apps-kruise-io-sidecarset", "CREATE", "",
                "{'group':'apps.kruise.io','version':'v1beta1','kind':'SidecarSet'}", "sidecarsets", set, null);
        JsonNode defaulted = JsonPatch.apply(AdmissionReviews.decodePatch(response), set);
        return storeRaw(defaulted);
    }

    /** Stores a SidecarSet as it is (what no validation would let through). */
    static SidecarSet storeRaw(JsonNode set) {
        SidecarSet model = Json.toModel((ObjectNode) set, SidecarSet.class);
        kube.resources(SidecarSet.class).resource(model).create();
        String name = model.getMetadata().getName();
        await("SidecarSet " + name + " in the cache", () -> cache.resource(SidecarSet.class).get(null, name) != null);
        return cache.resource(SidecarSet.class).get(null, name);
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted");
            }
        }
    }

    static ControllerRevision revision(String name, String owner, long number, String customVersion,
                                       String containersJson, String hash) throws Exception {
        ControllerRevisionBuilder b = new ControllerRevisionBuilder().withNewMetadata().withName(name)
                .withNamespace(KRUISE_NS).addToLabels("kruise.io/sidecarset-name", owner)
                .addToAnnotations(SidecarSetHash.HASH_ANNOTATION, hash).endMetadata().withRevision(number)
                .withData(Json.MAPPER.convertValue(json("{'spec':{'$patch':'replace','containers':" + containersJson
                        + "}}"), Map.class));
        if (customVersion != null) {
            b.editMetadata().addToLabels("apps.kruise.io/sidecarset-custom-version", customVersion).endMetadata();
        }
        ControllerRevision r = kube.apps().controllerRevisions().inNamespace(KRUISE_NS).resource(b.build()).create();
        await("revision " + name + " in the cache",
                () -> cache.resource(ControllerRevision.class).get(KRUISE_NS, name) != null);
        return r;
    }

    static List<String> names(JsonNode containers) {
        List<String> out = new ArrayList<>();
        containers.forEach(c -> out.add(c.path("name").asText()));
        return out;
    }

    static JsonNode container(JsonNode pod, String name) {
        for (String list : List.of("containers", "initContainers")) {
            for (JsonNode c : pod.path("spec").path(list)) {
                if (c.path("name").asText().equals(name)) {
                    return c;
                }
            }
        }
        throw new AssertionError("no container " + name + " in " + pod);
    }

    static String env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (e.path("name").asText().equals(name)) {
                return e.path("value").asText();
            }
        }
        return null;
    }

    static JsonNode annotationJson(JsonNode pod, String key) throws Exception {
        return Json.MAPPER.readTree(pod.path("metadata").path("annotations").path(key).asText());
    }

    @Test
    void aCreatedPodGetsContainersInitContainersVolumesEnvSecretsAndAnnotations() throws Exception {
        SidecarSet set = store("full", "{'selector':{'matchLabels':{'inject':'full'}},"
                + "'initContainers':[{'name':'init-b','image':'b:1'},{'name':'init-a','image':'a:1'}],"
                + "'containers':[{'name':'log','image':'log:1','shareVolumePolicy':{'type':'enabled'},"
                + "'volumeMounts':[{'name':'logs','mountPath':'/logs'}],"
                + "'transferEnv':[{'sourceContainerName':'main','envName':'TZ'}]},"
                + "{'name':'tail','image':'tail:1','podInjectPolicy':'AfterAppContainer'}],"
                + "'volumes':[{'name':'logs','emptyDir':{}}],'imagePullSecrets':[{'name':'registry'}]}");
        JsonNode out = admit("prod", pod("'inject':'full'", "'initContainers':[{'name':'own','image':'o:1'}]"));

        assertEquals(List.of("log", "main", "tail"), names(out.at("/spec/containers")));
        assertEquals(List.of("own", "init-a", "init-b"), names(out.at("/spec/initContainers")));
        JsonNode log = container(out, "log");
        assertEquals("true", env(log, "IS_INJECTED"));
        assertEquals("UTC", env(log, "TZ"));
        List<String> mountPaths = new ArrayList<>();
        log.path("volumeMounts").forEach(m -> mountPaths.add(m.path("mountPath").asText()));
        // Its own mount, then the app container's (shareVolumePolicy enabled).
        assertEquals(List.of("/logs", "/data"), mountPaths);
        assertTrue(names(out.at("/spec/volumes")).containsAll(List.of("data", "logs")));
        assertEquals("registry", out.at("/spec/imagePullSecrets/0/name").asText());
        assertEquals("full", out.at("/metadata/annotations").path("kruise.io/sidecarset-injected-list").asText());
        JsonNode hash = annotationJson(out, SidecarSetHash.HASH_ANNOTATION).path("full");
        assertEquals(set.getMetadata().getAnnotations().get(SidecarSetHash.HASH_ANNOTATION), hash.path("hash").asText());
        assertEquals(List.of("log", "tail"), List.of(hash.path("sidecarList").get(0).asText(),
                hash.path("sidecarList").get(1).asText()));
        assertEquals(set.getMetadata().getAnnotations().get(SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION),
                annotationJson(out, SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION).path("full").path("hash").asText());
    }

    @Test
    void namespaceSelectorsAndTheNamespaceIndexDecide() throws Exception {
        store("prod-only", "{'selector':{'matchLabels':{'inject':'ns'}},'namespaceSelector':{'matchLabels':"
                + "{'env':'prod'}},'containers':[{'name':'prod-agent','image':'a:1'}]}");
        // What a v1alpha1 spec.namespace converts to: indexed under the namespace's name only.
        store("dev-only", "{'selector':{'matchLabels':{'inject':'ns'}},'namespaceSelector':{'matchLabels':"
                + "{'kubernetes.io/metadata.name':'dev'}},'containers':[{'name':'dev-agent','image':'a:1'}]}");
        assertEquals(List.of("prod-agent", "main"), names(admit("prod", pod("'inject':'ns'", "")).at("/spec/containers")));
        assertEquals(List.of("dev-agent", "main"), names(admit("dev", pod("'inject':'ns'", "")).at("/spec/containers")));
        // A namespace the cache does not know matches no namespaceSelector.
        assertEquals(List.of("main"), names(admit("unknown", pod("'inject':'ns'", "")).at("/spec/containers")));
    }

    @Test
    void pausedInjectionAndNonMatchingSelectorsLeaveThePodAlone() throws Exception {
        store("paused", "{'selector':{'matchLabels':{'inject':'paused'}},'injectionStrategy':{'paused':true},"
                + "'containers':[{'name':'paused-agent','image':'a:1'}]}");
        JsonNode p = pod("'inject':'paused'", "");
        assertEquals(p, admit("prod", p));
        JsonNode other = pod("'inject':'nothing-selects-this'", "");
        assertEquals(other, admit("prod", other));
    }

    @Test
    void severalSidecarSetsOnOnePod() throws Exception {
        store("multi-b", "{'selector':{'matchLabels':{'inject':'multi'}},'containers':[{'name':'b-agent','image':'b:1'}]}");
        store("multi-a", "{'selector':{'matchLabels':{'inject':'multi'}},'containers':[{'name':'a-agent','image':'a:1'}]}");
        JsonNode out = admit("prod", pod("'inject':'multi'", ""));
        assertEquals(List.of("a-agent", "b-agent", "main"), names(out.at("/spec/containers")));
        assertEquals("multi-a,multi-b", out.at("/metadata/annotations").path("kruise.io/sidecarset-injected-list").asText());
        JsonNode hashes = annotationJson(out, SidecarSetHash.HASH_ANNOTATION);
        assertTrue(hashes.has("multi-a") && hashes.has("multi-b"), hashes.toString());
    }

    @Test
    void pinnedRevisionsAlwaysPartialAndCustomVersion() throws Exception {
        revision("pin-old", "pin", 1, null, "[{'name':'pinned','image':'old:1'}]", "oldhash");
        store("pin", "{'selector':{'matchLabels':{'inject':'pin'}},'containers':[{'name':'pinned','image':'new:2'}],"
                + "'injectionStrategy':{'revision':{'revisionName':'pin-old','policy':'Always'}}}");
        JsonNode out = admit("prod", pod("'inject':'pin'", ""));
        assertEquals("old:1", container(out, "pinned").path("image").asText());
        JsonNode spec = annotationJson(out, SidecarSetHash.HASH_ANNOTATION).path("pin");
        assertEquals("oldhash", spec.path("hash").asText());
        assertEquals("pin-old", spec.path("controllerRevision").asText());

        // Partial: pods outside updateStrategy.selector get the pinned revision; inside it with an integer
        // partition, the latest.
        revision("part-old", "part", 1, null, "[{'name':'partial','image':'old:1'}]", "h1");
        store("part", "{'selector':{'matchLabels':{'inject':'part'}},'containers':[{'name':'partial','image':'new:2'}],"
                + "'updateStrategy':{'type':'RollingUpdate','selector':{'matchLabels':{'canary':'true'}}},"
                + "'injectionStrategy':{'revision':{'revisionName':'part-old','policy':'Partial'}}}");
        assertEquals("old:1", container(admit("prod", pod("'inject':'part'", "")), "partial").path("image").asText());
        assertEquals("new:2", container(admit("prod", pod("'inject':'part','canary':'true'", "")), "partial")
                .path("image").asText());

        // customVersion: the newest revision carrying the label.
        revision("cv-1", "cv", 1, "v1", "[{'name':'versioned','image':'v1:1'}]", "h-cv1");
        revision("cv-2", "cv", 2, "v1", "[{'name':'versioned','image':'v1:2'}]", "h-cv2");
        revision("cv-3", "cv", 3, "v2", "[{'name':'versioned','image':'v2:1'}]", "h-cv3");
        store("cv", "{'selector':{'matchLabels':{'inject':'cv'}},'containers':[{'name':'versioned','image':'v3:1'}],"
                + "'injectionStrategy':{'revision':{'customVersion':'v1'}}}");
        assertEquals("v1:2", container(admit("prod", pod("'inject':'cv'", "")), "versioned").path("image").asText());
    }

    @Test
    void aPinnedRevisionThatDoesNotExistRefusesThePodAsOpenKruise() throws Exception {
        storeRaw(json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'gone'},"
                + "'spec':{'selector':{'matchLabels':{'inject':'gone'}},'containers':[{'name':'g','image':'g:1'}],"
                + "'injectionStrategy':{'revision':{'revisionName':'no-such-revision'}}}}"));
        JsonNode response = podReview("CREATE", "prod", pod("'inject':'gone'", ""), null);
        assertFalse(response.path("allowed").asBoolean());
        assertEquals(500, response.path("status").path("code").asInt());
        assertTrue(response.path("status").path("message").asText()
                .contains("controllerrevisions.apps \"no-such-revision\" not found"), response.toString());
    }

    @Test
    void anUnreadableHashAnnotationRefusesThePodAsOpenKruise() throws Exception {
        store("unreadable", "{'selector':{'matchLabels':{'inject':'unreadable'}},'containers':[{'name':'u','image':'u:1'}]}");
        ObjectNode p = (ObjectNode) pod("'inject':'unreadable'", "");
        ((ObjectNode) p.get("metadata")).putObject("annotations").put(SidecarSetHash.HASH_ANNOTATION, "[1,2");
        JsonNode response = podReview("CREATE", "prod", p, null);
        assertFalse(response.path("allowed").asBoolean());
        assertEquals(500, response.path("status").path("code").asInt());
        assertTrue(response.path("status").path("message").asText()
                .contains("invalid annotations[kruise.io/sidecarset-hash]"), response.toString());
        // The older form (hash strings by name) is read and upgraded.
        ((ObjectNode) p.at("/metadata/annotations")).put(SidecarSetHash.HASH_ANNOTATION, "{\"old\":\"abc\"}");
        JsonNode out = admit("prod", p);
        JsonNode hashes = annotationJson(out, SidecarSetHash.HASH_ANNOTATION);
        assertEquals("abc", hashes.path("old").path("hash").asText());
        assertTrue(hashes.has("unreadable"));
    }

    @Test
    void anUpdateIsLeftAsItIs() throws Exception {
        store("on-update", "{'selector':{'matchLabels':{'inject':'update'}},'containers':[{'name':'up','image':'u:1'}]}");
        JsonNode p = pod("'inject':'update'", "");
        JsonNode response = podReview("UPDATE", "prod", p, p);
        assertTrue(response.path("allowed").asBoolean());
        JsonNode out = response.has("patch") ? JsonPatch.apply(AdmissionReviews.decodePatch(response), p) : p;
        assertEquals(List.of("main"), names(out.at("/spec/containers")));
    }

    @Test
    void patchPodMetadataRetainOverwriteAndMergePatchJson() throws Exception {
        store("meta", "{'selector':{'matchLabels':{'inject':'meta'}},'containers':[{'name':'m','image':'m:1'}],"
                + "'patchPodMetadata':[{'annotations':{'keep':'sidecar','added':'yes'},'patchPolicy':'Retain'},"
                + "{'annotations':{'force':'sidecar'},'patchPolicy':'Overwrite'},"
                + "{'annotations':{'cfg':'{\\\"b\\\":{\\\"y\\\":2},\\\"c\\\":null}','fresh':'{\\\"z\\\":1}'},"
                + "'patchPolicy':'MergePatchJson'}]}");
        ObjectNode p = (ObjectNode) pod("'inject':'meta'", "");
        ((ObjectNode) p.get("metadata")).putObject("annotations").put("keep", "pod").put("force", "pod")
                .put("cfg", "{\"c\":3,\"a\":1,\"b\":{\"x\":1}}");
        JsonNode a = admit("prod", p).at("/metadata/annotations");
        assertEquals("pod", a.path("keep").asText());
        assertEquals("yes", a.path("added").asText());
        assertEquals("sidecar", a.path("force").asText());
        assertEquals("{\"a\":1,\"b\":{\"x\":1,\"y\":2}}", a.path("cfg").asText());
        assertEquals("{\"z\":1}", a.path("fresh").asText());
    }

    @Test
    void hostileSidecarSetsNeverBreakPodCreation() throws Exception {
        store("hostile-ok", "{'selector':{'matchLabels':{'inject':'hostile'}},'containers':[{'name':'ok','image':'ok:1'}]}");
        // Stored past validation: an operator no selector knows, a requirement without a key, and a huge one.
        storeRaw(json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'hostile-op'},"
                + "'spec':{'selector':{'matchExpressions':[{'key':'inject','operator':'Sometimes','values':['hostile']}]},"
                + "'containers':[{'name':'bad-op','image':'b:1'}]}}"));
        storeRaw(json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'hostile-key'},"
                + "'spec':{'selector':{'matchExpressions':[{'operator':'Exists'}]},'namespaceSelector':{'matchExpressions':"
                + "[{'key':'env','operator':'Bogus'}]},'containers':[{'name':'bad-key','image':'b:1'}]}}"));
        storeRaw(json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'hostile-none'},"
                + "'spec':{'selector':{'matchLabels':{'inject':'hostile'}}}}"));
        String big = "x".repeat(200_000);
        storeRaw(json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'hostile-huge'},"
                + "'spec':{'selector':{'matchLabels':{'inject':'hostile-huge'}},'containers':[{'name':'huge','image':'h:1',"
                + "'env':[{'name':'BIG','value':'" + big + "'}]}]}}"));
        JsonNode out = admit("prod", pod("'inject':'hostile'", ""));
        assertEquals(List.of("ok", "main"), names(out.at("/spec/containers")));
        JsonNode huge = admit("prod", pod("'inject':'hostile-huge'", ""));
        assertEquals(big.length(), env(container(huge, "huge"), "BIG").length());
    }

    @Test
    void patchPodMetadataNeedsTheWhitelistOfKruiseConfiguration() throws Exception {
        String path = "/validate-apps-kruise-io-sidecarset";
        String kind = "{'group':'apps.kruise.io','version':'v1beta1','kind':'SidecarSet'}";
        JsonNode set = json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'wl',"
                + "'labels':{'team':'mesh'}},'spec':{'selector':{'matchLabels':{'a':'b'}},'updateStrategy':{'type':"
                + "'NotUpdate'},'containers':[{'name':'c','image':'i','podInjectPolicy':'BeforeAppContainer',"
                + "'shareVolumePolicy':{'type':'disabled'},'upgradeStrategy':{'upgradeType':'ColdUpgrade'}}],"
                + "'patchPodMetadata':[{'annotations':{'mesh.io/inject':'true'},'patchPolicy':'Retain'}]}}");
        JsonNode refused = review(path, "CREATE", "", kind, "sidecarsets", set, null);
        assertFalse(refused.path("allowed").asBoolean());
        assertTrue(refused.path("status").path("message").asText().contains(
                "spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found"), refused.toString());

        kube.configMaps().inNamespace(KRUISE_NS).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("kruise-configuration").withNamespace(KRUISE_NS).endMetadata()
                .addToData("SidecarSet_PatchPodMetadata_WhiteList", "{\"rules\":[{\"selector\":{\"matchLabels\":"
                        + "{\"team\":\"mesh\"}},\"allowedAnnotationKeyExprs\":[\"^mesh\\\\.io/\"]}]}").build()).create();
        assertTrue(review(path, "CREATE", "", kind, "sidecarsets", set, null).path("allowed").asBoolean());

        ((ObjectNode) set.at("/spec/patchPodMetadata/0/annotations")).put("other.io/x", "1");
        JsonNode notAllowed = review(path, "CREATE", "", kind, "sidecarsets", set, null);
        assertTrue(notAllowed.path("status").path("message").asText()
                .contains("sidecarSet patch metadata annotation(other.io/x) is not allowed"), notAllowed.toString());

        ((ObjectNode) set.at("/metadata/labels")).put("team", "other");
        ((ObjectNode) set.at("/spec/patchPodMetadata/0/annotations")).remove("other.io/x");
        JsonNode noRule = review(path, "CREATE", "", kind, "sidecarsets", set, null);
        assertTrue(noRule.path("status").path("message").asText()
                .contains("sidecarSet patch metadata annotation is not allowed"), noRule.toString());
    }
}
