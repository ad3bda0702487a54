package dev.kruisevertx.webhook;

import java.util.Map;
import dev.kruisevertx.features.FeatureGates;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.ServerLimits;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.statefulset.StatefulSetWebhooks;
import dev.kruisevertx.webhook.testing.LogCapture;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.fabric8.zjsonpatch.JsonPatch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Objects with tens of thousands of containers, up to kube-apiserver's 3 MiB, through the real handlers over HTTPS
 * with the default limits: answered correctly (the patch applied to the object gives the defaulted object), with no
 * event loop blocked and nothing logged as a problem. The LCS diff this replaced took 18 s and ran out of memory at
 * 40,000 containers.
 */
class LargeObjectAdmissionTest {
    /** The base64 patch of 110,000 defaulted containers is a string longer than Jackson's 20 MB default. */
    static final ObjectMapper RESPONSES = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(
            StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build()).build()).build();

    Vertx vertx;
    WebhookServerVerticle server;
    WebClient client;
    LogCapture logs;

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        CertBundle certs = TestCerts.localhost();
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(
                "KruisePodReadinessGate=false,TemplateNoDefaults=false,KruiseDaemon=true,"
                        + "StatefulSetAutoDeletePVC=true,StatefulSetAutoResizePVCGate=true", Map.of()))
                .withPods((ns, name) -> Optional.empty()));
        server = new WebhookServerVerticle("localhost", 0, ServerLimits.defaults(), registry, new ConversionRegistry(),
                new WebhookMetrics(new SimpleMeterRegistry()), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = WebClient.create(vertx, new WebClientOptions().setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))));
        logs = LogCapture.open();
    }

    @AfterEach
    void tearDown() throws Exception {
        logs.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static ObjectNode cloneSet(int containers, String updateType) {
        ObjectNode cs = Json.MAPPER.createObjectNode();
        cs.put("apiVersion", "apps.kruise.io/v1alpha1").put("kind", "CloneSet");
        cs.putObject("metadata").put("name", "big").put("namespace", "default").put("uid", "cs-uid");
        ObjectNode spec = cs.putObject("spec");
        spec.put("replicas", 5);
        spec.putObject("selector").putObject("matchLabels").put("app", "big");
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "big");
        template.putObject("spec").set("containers", containers(containers));
        spec.putObject("updateStrategy").put("type", updateType).put("maxUnavailable", "20%");
        return cs;
    }

    static ObjectNode statefulSet(int containers) {
        ObjectNode sts = Json.MAPPER.createObjectNode();
        sts.put("apiVersion", "apps.kruise.io/v1beta1").put("kind", "StatefulSet");
        sts.putObject("metadata").put("name", "big").put("namespace", "default");
        ObjectNode spec = sts.putObject("spec");
        spec.put("replicas", 3).put("serviceName", "big");
        spec.putObject("selector").putObject("matchLabels").put("app", "big");
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "big");
        template.putObject("spec").set("containers", containers(containers));
        return sts;
    }

    static ArrayNode containers(int n) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (int i = 0; i < n; i++) {
            list.addObject().put("name", "c" + i).put("image", "x");
        }
        return list;
    }

    static String review(String operation, String group, String version, String kind, String resource,
                         JsonNode object, JsonNode oldObject) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("apiVersion", AdmissionReviews.V1).put("kind", "AdmissionReview");
        ObjectNode r = root.putObject("request");
        r.put("uid", "big-uid").put("operation", operation).put("namespace", "default").put("name", "big");
        r.putObject("kind").put("group", group).put("version", version).put("kind", kind);
        r.putObject("resource").put("group", group).put("version", version).put("resource", resource);
        r.set("object", object);
        if (oldObject != null) {
            r.set("oldObject", oldObject);
        }
        return root.toString();
    }

    JsonNode post(String path, String body) throws Exception {
        HttpResponse<Buffer> r = client.post(server.actualPort(), "localhost", path).sendBuffer(Buffer.buffer(body))
                .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), () -> r.bodyAsString());
        JsonNode response = RESPONSES.readTree(r.body().getBytes()).path("response");
        assertEquals("big-uid", response.path("uid").asText());
        return response;
    }

    static void assertEveryContainerDefaulted(JsonNode containers, int n) {
        assertEquals(n, containers.size());
        for (int i = 0; i < n; i += n / 50) {
            JsonNode c = containers.get(i);
            assertEquals("c" + i, c.path("name").asText());
            assertEquals("/dev/termination-log", c.path("terminationMessagePath").asText(), c.toString());
            assertEquals("File", c.path("terminationMessagePolicy").asText(), c.toString());
            assertEquals("Always", c.path("imagePullPolicy").asText(), c.toString());
        }
    }

    @Test
    void aCloneSetOf3MiBIsDefaultedAndValidated() throws Exception {
        int n = 110_000;
        ObjectNode cs = cloneSet(n, "ReCreate");
        String body = review("CREATE", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets", cs, null);
        assertTrue(body.length() > 3 << 20, "the review carries a 3 MiB object: " + body.length());

        JsonNode mutated = post(CloneSetWebhooks.MUTATE_PATH, body);
        assertTrue(mutated.path("allowed").asBoolean());
        JsonNode defaulted = JsonPatch.apply(AdmissionReviews.decodePatch(mutated), cs);
        assertEveryContainerDefaulted(defaulted.at("/spec/template/spec/containers"), n);
        assertEquals("ClusterFirst", defaulted.at("/spec/template/spec/dnsPolicy").asText());
        assertEquals(10, defaulted.at("/spec/revisionHistoryLimit").asInt());

        JsonNode validated = post(CloneSetWebhooks.VALIDATE_PATH, body);
        assertTrue(validated.path("allowed").asBoolean(), validated.toString());
        assertEquals(List.of(), logs.problems(), "no blocked event loop, no error");
    }

    @Test
    void anUpdateCarryingTwo3MiBObjectsIsWithinTheBodyLimit() throws Exception {
        // kube-apiserver accepts objects up to 3 MiB; an UPDATE review carries the object and the old object.
        ObjectNode old = cloneSet(20, "ReCreate");
        String value = "v".repeat(5_000);
        for (JsonNode c : old.at("/spec/template/spec/containers")) {
            ArrayNode env = ((ObjectNode) c).putArray("env");
            for (int j = 0; j < 32; j++) {
                env.addObject().put("name", "VAR_" + j).put("value", value);
            }
        }
        ObjectNode now = old.deepCopy();
        ((ObjectNode) now.get("spec")).put("replicas", 7);
        String body = review("UPDATE", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets", now, old);
        assertTrue(body.length() > 6 << 20 && body.length() < ServerLimits.DEFAULT_MAX_BODY_BYTES, "size " + body.length());
        assertTrue(post(CloneSetWebhooks.MUTATE_PATH, body).path("allowed").asBoolean());
        JsonNode validated = post(CloneSetWebhooks.VALIDATE_PATH, body);
        assertTrue(validated.path("allowed").asBoolean(), validated.toString());
        assertEquals(List.of(), logs.problems());
    }

    @Test
    void inPlaceOnlyUpdatesOfALargeCloneSetAreJudgedByPosition() throws Exception {
        int n = 20_000;
        ObjectNode old = cloneSet(n, "InPlaceOnly");
        ObjectNode imageChanged = old.deepCopy();
        ((ObjectNode) imageChanged.at("/spec/template/spec/containers/12345")).put("image", "y");
        JsonNode allowed = post(CloneSetWebhooks.VALIDATE_PATH,
                review("UPDATE", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets", imageChanged, old));
        assertTrue(allowed.path("allowed").asBoolean(), allowed.toString());

        ObjectNode envAdded = old.deepCopy();
        ((ObjectNode) envAdded.at("/spec/template/spec/containers/12345")).putArray("env").addObject()
                .put("name", "A").put("value", "1");
        JsonNode denied = post(CloneSetWebhooks.VALIDATE_PATH,
                review("UPDATE", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets", envAdded, old));
        assertFalse(denied.path("allowed").asBoolean());
        assertTrue(denied.path("status").path("message").asText()
                .contains("only allowed to update images in spec for InPlaceOnly, but found add /containers/12345/env"),
                denied.toString());

        // The mutating webhook on the same UPDATE: the template changed, so it is defaulted again.
        JsonNode mutated = post(CloneSetWebhooks.MUTATE_PATH,
                review("UPDATE", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets", imageChanged, old));
        assertEveryContainerDefaulted(JsonPatch.apply(AdmissionReviews.decodePatch(mutated), imageChanged)
                .at("/spec/template/spec/containers"), n);
        assertEquals(List.of(), logs.problems());
    }

    @Test
    void aLargeCloneSetUpdateWithManyPodsToDeleteIsValidated() throws Exception {
        int names = 50_000;
        ObjectNode old = cloneSet(10, "ReCreate");
        ArrayNode toDelete = ((ObjectNode) old.get("spec")).putObject("scaleStrategy").putArray("podsToDelete");
        for (int i = 0; i < names; i++) {
            toDelete.add("pod-" + i);
        }
        ObjectNode scaled = old.deepCopy();
        ((ObjectNode) scaled.get("spec")).put("replicas", 4);
        JsonNode allowed = post(CloneSetWebhooks.VALIDATE_PATH,
                review("UPDATE", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets", scaled, old));
        assertTrue(allowed.path("allowed").asBoolean(), "names already listed are not looked up again: " + allowed);
        assertEquals(List.of(), logs.problems());
    }

    @Test
    void aLargeStatefulSetIsDefaultedInBothServedVersions() throws Exception {
        int n = 20_000;
        ObjectNode beta = statefulSet(n);
        JsonNode mutated = post(StatefulSetWebhooks.MUTATE_PATH,
                review("CREATE", "apps.kruise.io", "v1beta1", "StatefulSet", "statefulsets", beta, null));
        JsonNode betaDefaulted = JsonPatch.apply(AdmissionReviews.decodePatch(mutated), beta);
        assertEveryContainerDefaulted(betaDefaulted.at("/spec/template/spec/containers"), n);

        ObjectNode alpha = beta.deepCopy().put("apiVersion", "apps.kruise.io/v1alpha1");
        JsonNode alphaMutated = post(StatefulSetWebhooks.MUTATE_PATH,
                review("CREATE", "apps.kruise.io", "v1alpha1", "StatefulSet", "statefulsets", alpha, null));
        JsonNode alphaDefaulted = JsonPatch.apply(AdmissionReviews.decodePatch(alphaMutated), alpha);
        assertEquals("apps.kruise.io/v1alpha1", alphaDefaulted.path("apiVersion").asText());
        assertEveryContainerDefaulted(alphaDefaulted.at("/spec/template/spec/containers"), n);

        JsonNode validated = post(StatefulSetWebhooks.VALIDATE_PATH,
                review("UPDATE", "apps.kruise.io", "v1beta1", "StatefulSet", "statefulsets", betaDefaulted, betaDefaulted));
        assertTrue(validated.path("allowed").asBoolean(), validated.toString());
        assertEquals(List.of(), logs.problems());
    }
}
