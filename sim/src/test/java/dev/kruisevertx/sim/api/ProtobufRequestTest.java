package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Policy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static dev.kruisevertx.sim.api.ProtoMessages.envelope;
import static dev.kruisevertx.sim.api.ProtoMessages.intVal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded API server driven as kubectl drives it for built-in kinds: protobuf request bodies, answers in JSON
 * (kubectl accepts "application/vnd.kubernetes.protobuf,application/json"). Each object is also written through the
 * JSON path under another name, and both must be stored alike.
 */
class ProtobufRequestTest {
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final String KUBECTL_ACCEPT = "application/vnd.kubernetes.protobuf,application/json";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Fields the server sets, which differ between any two objects. */
    private static final List<String> SERVER_METADATA = List.of("name", "uid", "resourceVersion", "creationTimestamp",
            "generation", "managedFields");
    static ClusterFixture fixture;
    static HttpClient http;

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(30)).build();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    record Answer(int code, String contentType, JsonNode body) {
    }

    static Answer send(String method, String path, String contentType, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fixture.cluster().url() + path))
                .timeout(Duration.ofSeconds(60)).header("Accept", KUBECTL_ACCEPT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), MAPPER.readTree(r.body()));
    }

    static Answer sendProto(String method, String path, String apiVersion, String kind, Message message) throws Exception {
        return send(method, path, PROTOBUF, envelope(apiVersion, kind, message));
    }

    /** The JSON path's twin: the same object as kubectl would send it as JSON, named differently. */
    static Answer sendJsonTwin(String path, String apiVersion, String kind, Message message, String twinName) throws Exception {
        ObjectNode json = KubeProtobuf.decode(envelope(apiVersion, kind, message));
        ((ObjectNode) json.get("metadata")).put("name", twinName);
        return send("POST", path, "application/json", MAPPER.writeValueAsBytes(json));
    }

    static JsonNode comparable(JsonNode stored) {
        ObjectNode copy = stored.deepCopy();
        SERVER_METADATA.forEach(((ObjectNode) copy.get("metadata"))::remove);
        copy.remove("status");
        return copy;
    }

    /** Create (201, JSON answer), get, and the same stored object as through the JSON path. */
    static JsonNode createAndCompare(String collection, String apiVersion, String kind, Message message, String name)
            throws Exception {
        Answer created = sendProto("POST", collection, apiVersion, kind, message);
        assertEquals(201, created.code(), created.body().toString());
        assertTrue(created.contentType().startsWith("application/json"), created.contentType());
        assertEquals(name, created.body().path("metadata").path("name").asText());
        Answer twin = sendJsonTwin(collection, apiVersion, kind, message, name + "-json");
        assertEquals(201, twin.code(), twin.body().toString());
        Answer got = send("GET", collection + "/" + name, null, null);
        assertEquals(200, got.code(), got.body().toString());
        Answer gotTwin = send("GET", collection + "/" + name + "-json", null, null);
        // What the server derives from the name and uid (a namespace's name label, a Job's selector) differs too.
        String twinText = MAPPER.writeValueAsString(gotTwin.body())
                .replace(name + "-json", name)
                .replace(gotTwin.body().at("/metadata/uid").asText(), got.body().at("/metadata/uid").asText());
        assertEquals(comparable(MAPPER.readTree(twinText)), comparable(got.body()));
        return got.body();
    }

    /** Replace through protobuf with the stored resourceVersion, then a strategic merge patch (JSON, as kubectl's). */
    static void updateAndPatch(String path, String apiVersion, String kind, Message.Builder changed, JsonNode stored,
                               String patch, String patchedPointer, String patchedValue) throws Exception {
        Answer updated = null;
        // Controllers may write the status between our read and the replace (a budget's counts): read again then.
        for (int attempt = 0; attempt < 10; attempt++) {
            String resourceVersion = attempt == 0 ? stored.path("metadata").path("resourceVersion").asText()
                    : send("GET", path, null, null).body().path("metadata").path("resourceVersion").asText();
            withResourceVersion(changed, resourceVersion);
            updated = sendProto("PUT", path, apiVersion, kind, changed.build());
            if (updated.code() != 409) {
                break;
            }
        }
        assertEquals(200, updated.code(), updated.body().toString());
        Answer stale = sendProto("PUT", path, apiVersion, kind, changed.build());
        assertEquals(409, stale.code(), "a replace with the old resourceVersion conflicts: " + stale.body());
        Answer patched = send("PATCH", path, Patches.STRATEGIC_MERGE_PATCH, patch.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, patched.code(), patched.body().toString());
        assertEquals(patchedValue, send("GET", path, null, null).body().at(patchedPointer).asText());
    }

    private static void withResourceVersion(Message.Builder b, String resourceVersion) {
        var field = b.getDescriptorForType().findFieldByName("metadata");
        b.setField(field, io.kubernetes.client.proto.Meta.ObjectMeta.newBuilder(
                (io.kubernetes.client.proto.Meta.ObjectMeta) b.getField(field)).setResourceVersion(resourceVersion).build());
    }

    @Test
    void namespace() throws Exception {
        JsonNode ns = createAndCompare("/api/v1/namespaces", "v1", "Namespace", ProtoMessages.namespace("proto-ns"), "proto-ns");
        assertEquals("proto", ns.at("/metadata/labels/team").asText());
        V1.Namespace.Builder changed = ProtoMessages.namespace("proto-ns").toBuilder();
        changed.getMetadataBuilder().putLabels("team", "changed");
        updateAndPatch("/api/v1/namespaces/proto-ns", "v1", "Namespace", changed, ns,
                "{\"metadata\":{\"labels\":{\"patched\":\"yes\"}}}", "/metadata/labels/patched", "yes");
        assertEquals("changed", send("GET", "/api/v1/namespaces/proto-ns", null, null).body().at("/metadata/labels/team").asText());
    }

    @Test
    void configMap() throws Exception {
        JsonNode cm = createAndCompare("/api/v1/namespaces/default/configmaps", "v1", "ConfigMap",
                ProtoMessages.configMap("proto-cm"), "proto-cm");
        assertEquals("AAEC/w==", cm.at("/binaryData/bin").asText());
        assertEquals("", cm.at("/data/empty").asText());
        V1.ConfigMap.Builder changed = ProtoMessages.configMap("proto-cm").toBuilder().putData("a", "c");
        updateAndPatch("/api/v1/namespaces/default/configmaps/proto-cm", "v1", "ConfigMap", changed, cm,
                "{\"data\":{\"p\":\"q\"}}", "/data/p", "q");
        assertEquals("c", send("GET", "/api/v1/namespaces/default/configmaps/proto-cm", null, null).body().at("/data/a").asText());
    }

    @Test
    void pod() throws Exception {
        JsonNode pod = createAndCompare("/api/v1/namespaces/default/pods", "v1", "Pod", ProtoMessages.pod("proto-pod"),
                "proto-pod");
        assertEquals("500m", pod.at("/spec/containers/0/resources/limits/cpu").asText());
        assertEquals("http", pod.at("/spec/containers/0/readinessProbe/httpGet/port").asText());
        assertEquals(8080, pod.at("/spec/containers/0/livenessProbe/tcpSocket/port").asInt());
        assertEquals("cfg", pod.at("/spec/volumes/0/configMap/name").asText());
        assertEquals(0, pod.at("/spec/terminationGracePeriodSeconds").asInt(-1));
        assertTrue(pod.at("/spec/automountServiceAccountToken").isBoolean());
        V1.Pod.Builder changed = ProtoMessages.pod("proto-pod").toBuilder();
        changed.getMetadataBuilder().putLabels("app", "proto").putLabels("changed", "yes");
        // A replace carries what the server defaulted and may not change (the default not-ready/unreachable tolerations).
        for (JsonNode t : pod.at("/spec/tolerations")) {
            changed.getSpecBuilder().addTolerations(V1.Toleration.newBuilder().setKey(t.path("key").asText())
                    .setOperator(t.path("operator").asText()).setEffect(t.path("effect").asText())
                    .setTolerationSeconds(t.path("tolerationSeconds").asLong()));
        }
        updateAndPatch("/api/v1/namespaces/default/pods/proto-pod", "v1", "Pod", changed, pod,
                "{\"metadata\":{\"annotations\":{\"patched\":\"yes\"}}}", "/metadata/annotations/patched", "yes");
    }

    @Test
    void deployment() throws Exception {
        JsonNode d = createAndCompare("/apis/apps/v1/namespaces/default/deployments", "apps/v1", "Deployment",
                ProtoMessages.deployment("proto-web"), "proto-web");
        assertEquals(0, d.at("/spec/replicas").asInt(-1), "replicas: 0 (a pointer's zero) is kept");
        assertEquals("25%", d.at("/spec/strategy/rollingUpdate/maxSurge").asText());
        assertTrue(d.at("/spec/strategy/rollingUpdate/maxUnavailable").isInt());
        V1Apps.Deployment.Builder changed = ProtoMessages.deployment("proto-web").toBuilder();
        changed.getSpecBuilder().setReplicas(2);
        updateAndPatch("/apis/apps/v1/namespaces/default/deployments/proto-web", "apps/v1", "Deployment", changed, d,
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1.26\"}]}}}}",
                "/spec/template/spec/containers/0/image", "nginx:1.26");
        JsonNode after = send("GET", "/apis/apps/v1/namespaces/default/deployments/proto-web", null, null).body();
        assertEquals(2, after.at("/spec/replicas").asInt());
        assertEquals("500m", after.at("/spec/template/spec/containers/0/resources/limits/cpu").asText(),
                "the strategic merge patch merged the container by name");
    }

    @Test
    void job() throws Exception {
        JsonNode job = createAndCompare("/apis/batch/v1/namespaces/default/jobs", "batch/v1", "Job",
                ProtoMessages.job("proto-job"), "proto-job");
        assertEquals(0, job.at("/spec/backoffLimit").asInt(-1));
        V1Batch.Job.Builder changed = ProtoMessages.job("proto-job").toBuilder();
        changed.getMetadataBuilder().putLabels("changed", "yes");
        updateAndPatch("/apis/batch/v1/namespaces/default/jobs/proto-job", "batch/v1", "Job", changed, job,
                "{\"spec\":{\"suspend\":true}}", "/spec/suspend", "true");
    }

    @Test
    void podDisruptionBudget() throws Exception {
        JsonNode pdb = createAndCompare("/apis/policy/v1/namespaces/default/poddisruptionbudgets", "policy/v1",
                "PodDisruptionBudget", ProtoMessages.pdb("proto-pdb", intVal(1)), "proto-pdb");
        assertEquals(1, pdb.at("/spec/minAvailable").asInt());
        V1Policy.PodDisruptionBudget.Builder changed = ProtoMessages.pdb("proto-pdb", intVal(2)).toBuilder();
        updateAndPatch("/apis/policy/v1/namespaces/default/poddisruptionbudgets/proto-pdb", "policy/v1",
                "PodDisruptionBudget", changed, pdb, "{\"spec\":{\"minAvailable\":\"50%\"}}", "/spec/minAvailable", "50%");
    }

    @Test
    void deleteWithProtobufOptions() throws Exception {
        createAndCompare("/api/v1/namespaces/default/configmaps", "v1", "ConfigMap", ProtoMessages.configMap("proto-del"),
                "proto-del");
        Answer deleted = sendProto("DELETE", "/api/v1/namespaces/default/configmaps/proto-del", "v1", "DeleteOptions",
                io.kubernetes.client.proto.Meta.DeleteOptions.newBuilder().setPropagationPolicy("Background").build());
        assertEquals(200, deleted.code(), deleted.body().toString());
        assertEquals(404, send("GET", "/api/v1/namespaces/default/configmaps/proto-del", null, null).code());
    }

    @Test
    void unreadableMediaTypesGet415NamingTheType() throws Exception {
        Answer text = send("POST", "/api/v1/namespaces/default/configmaps", "text/plain", "a=b".getBytes(StandardCharsets.UTF_8));
        assertEquals(415, text.code(), text.body().toString());
        assertEquals("Status", text.body().path("kind").asText());
        assertEquals("UnsupportedMediaType", text.body().path("reason").asText());
        assertTrue(text.body().path("message").asText().contains("\"text/plain\""), text.body().toString());

        Answer cbor = send("PUT", "/api/v1/namespaces/default/configmaps/x", "application/cbor", new byte[]{(byte) 0xa0});
        assertEquals(415, cbor.code(), cbor.body().toString());
        assertTrue(cbor.body().path("message").asText().contains("application/cbor"), cbor.body().toString());

        Answer protoPatch = sendProto("PATCH", "/api/v1/namespaces/default/configmaps/x", "v1", "ConfigMap",
                ProtoMessages.configMap("x"));
        assertEquals(415, protoPatch.code(), protoPatch.body().toString());
        assertTrue(protoPatch.body().path("message").asText().contains(PROTOBUF), protoPatch.body().toString());

        Answer customKind = sendProto("POST", "/api/v1/namespaces/default/configmaps", "apps.kruise.io/v1alpha1",
                "CloneSet", ProtoMessages.configMap("x"));
        assertEquals(415, customKind.code(), customKind.body().toString());
    }

    @Test
    void yamlBodiesAreReadToo() throws Exception {
        Answer created = send("POST", "/api/v1/namespaces/default/configmaps", "application/yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: from-yaml}
                data: {k: v}
                """.getBytes(StandardCharsets.UTF_8));
        assertEquals(201, created.code(), created.body().toString());
        assertEquals("v", created.body().at("/data/k").asText());
    }

    /** A body past {@link ApiHttpServer#LARGE_BODY_BYTES} is decoded on a worker and stored the same. */
    @Test
    void bigProtobufBody() throws Exception {
        V1.ConfigMap.Builder big = ProtoMessages.configMap("proto-big").toBuilder();
        for (int i = 0; i < 2_000; i++) {
            big.putData("key-" + i, "x".repeat(64));
        }
        assertTrue(big.build().getSerializedSize() > ApiHttpServer.LARGE_BODY_BYTES);
        JsonNode stored = createAndCompare("/api/v1/namespaces/default/configmaps", "v1", "ConfigMap", big.build(), "proto-big");
        assertEquals(2_002, stored.path("data").size());
        Answer broken = send("POST", "/api/v1/namespaces/default/configmaps", PROTOBUF,
                java.util.Arrays.copyOf(envelope("v1", "ConfigMap", big.build()), ApiHttpServer.LARGE_BODY_BYTES + 10));
        assertEquals(400, broken.code(), broken.body().toString());
    }
}
