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
 * The embedded API server driven as kubectl and client-go drive it for built-in kinds: protobuf request bodies and,
 * for Accept "application/vnd.kubernetes.protobuf,application/json", protobuf answers (objects, lists, Status errors,
 * watch frames). Each object is also written through the JSON path under another name, and both must be stored alike.
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
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
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
                .timeout(Duration.ofSeconds(60)).header("Accept", "application/json")
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

    /** A protobuf answer: its envelope's kind and the object as JSON. */
    record ProtoAnswer(int code, String contentType, String apiVersion, String kind, JsonNode object, byte[] raw) {
    }

    static HttpResponse<byte[]> sendAccepting(String method, String path, String accept, String contentType, byte[] body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fixture.cluster().url() + path))
                .timeout(Duration.ofSeconds(60)).header("Accept", accept)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** As client-go with protobuf first: "application/vnd.kubernetes.protobuf, application/json". */
    static ProtoAnswer proto(String method, String path, String contentType, byte[] body) throws Exception {
        HttpResponse<byte[]> r = sendAccepting(method, path, KUBECTL_ACCEPT, contentType, body);
        String type = r.headers().firstValue("Content-Type").orElse("");
        assertEquals(PROTOBUF, type, method + " " + path + " answers in protobuf: " + new String(r.body(), StandardCharsets.UTF_8));
        io.kubernetes.client.proto.Runtime.Unknown unknown = io.kubernetes.client.proto.Runtime.Unknown.parseFrom(
                java.nio.ByteBuffer.wrap(r.body(), 4, r.body().length - 4));
        return new ProtoAnswer(r.statusCode(), type, unknown.getTypeMeta().getApiVersion(), unknown.getTypeMeta().getKind(),
                KubeProtobuf.decode(r.body()), unknown.getRaw().toByteArray());
    }

    /** The JSON answer for the same URL, as kube-apiserver's protobuf would carry it. */
    static JsonNode jsonAsProtobufCarriesIt(String path) throws Exception {
        JsonNode json = send("GET", path, null, null).body();
        return KubeProtobuf.decode(KubeProtobuf.encode(json));
    }

    /**
     * Create, get, list, replace and patch of each kind with protobuf answers: the envelope names the kind, the raw
     * bytes parse as Kubernetes' generated message, and the object is the stored one.
     */
    @Test
    void protobufAnswersForCreateGetListUpdateAndPatch() throws Exception {
        record Kind(String collection, String apiVersion, String kind, Message message, String name,
                    com.google.protobuf.Parser<? extends Message> parser, String patch, String patchedPointer) {
        }
        List<Kind> kinds = List.of(
                new Kind("/api/v1/namespaces", "v1", "Namespace", ProtoMessages.namespace("pa-ns"), "pa-ns",
                        V1.Namespace.parser(), "{\"metadata\":{\"labels\":{\"p\":\"1\"}}}", "/metadata/labels/p"),
                new Kind("/api/v1/namespaces/default/configmaps", "v1", "ConfigMap", ProtoMessages.configMap("pa-cm"),
                        "pa-cm", V1.ConfigMap.parser(), "{\"data\":{\"p\":\"1\"}}", "/data/p"),
                new Kind("/api/v1/namespaces/default/pods", "v1", "Pod", ProtoMessages.pod("pa-pod"), "pa-pod",
                        V1.Pod.parser(), "{\"metadata\":{\"annotations\":{\"p\":\"1\"}}}", "/metadata/annotations/p"),
                new Kind("/apis/apps/v1/namespaces/default/deployments", "apps/v1", "Deployment",
                        ProtoMessages.deployment("pa-web"), "pa-web", V1Apps.Deployment.parser(),
                        "{\"metadata\":{\"labels\":{\"p\":\"1\"}}}", "/metadata/labels/p"),
                new Kind("/apis/batch/v1/namespaces/default/jobs", "batch/v1", "Job", ProtoMessages.job("pa-job"),
                        "pa-job", V1Batch.Job.parser(), "{\"metadata\":{\"labels\":{\"p\":\"1\"}}}", "/metadata/labels/p"),
                new Kind("/apis/policy/v1/namespaces/default/poddisruptionbudgets", "policy/v1", "PodDisruptionBudget",
                        ProtoMessages.pdb("pa-pdb", intVal(1)), "pa-pdb", V1Policy.PodDisruptionBudget.parser(),
                        "{\"spec\":{\"minAvailable\":\"50%\"}}", "/spec/minAvailable"));
        for (Kind k : kinds) {
            String path = k.collection() + "/" + k.name();
            ProtoAnswer created = proto("POST", k.collection(), PROTOBUF, envelope(k.apiVersion(), k.kind(), k.message()));
            assertEquals(201, created.code(), created.object().toString());
            assertEquals(k.apiVersion(), created.apiVersion());
            assertEquals(k.kind(), created.kind());
            Message parsed = k.parser().parseFrom(created.raw());
            assertEquals(k.name(), ((io.kubernetes.client.proto.Meta.ObjectMeta) parsed.getField(
                    parsed.getDescriptorForType().findFieldByName("metadata"))).getName());
            assertTrue(created.object().at("/metadata/creationTimestamp").isTextual(), created.object().toString());
            assertTrue(created.object().at("/metadata/uid").isTextual());

            ProtoAnswer got = proto("GET", path, null, null);
            assertEquals(200, got.code());
            assertEquals(jsonAsProtobufCarriesIt(path), got.object(), k.kind() + " get");

            ProtoAnswer list = proto("GET", k.collection(), null, null);
            assertEquals(k.kind() + "List", list.kind());
            assertTrue(list.object().at("/metadata/resourceVersion").isTextual());
            boolean found = false;
            for (JsonNode item : list.object().path("items")) {
                found |= item.at("/metadata/name").asText().equals(k.name());
            }
            assertTrue(found, k.kind() + " list holds " + k.name());

            // Replace with the stored object as the client read it (protobuf both ways), then patch with a JSON body.
            ProtoAnswer replaced = null;
            for (int attempt = 0; attempt < 10; attempt++) {
                ProtoAnswer current = proto("GET", path, null, null);
                Message.Builder changed = k.parser().parseFrom(current.raw()).toBuilder();
                var metaField = changed.getDescriptorForType().findFieldByName("metadata");
                changed.setField(metaField, ((io.kubernetes.client.proto.Meta.ObjectMeta) changed.getField(metaField))
                        .toBuilder().putAnnotations("replaced", "yes").build());
                replaced = proto("PUT", path, PROTOBUF, envelope(k.apiVersion(), k.kind(), changed.build()));
                if (replaced.code() != 409) {
                    break;
                }
            }
            assertEquals(200, replaced.code(), replaced.object().toString());
            assertEquals("yes", replaced.object().at("/metadata/annotations/replaced").asText(), k.kind());
            ProtoAnswer patched = proto("PATCH", path, Patches.STRATEGIC_MERGE_PATCH, k.patch().getBytes(StandardCharsets.UTF_8));
            assertEquals(200, patched.code(), patched.object().toString());
            assertEquals(MAPPER.readTree(k.patch()).at(k.patchedPointer()), patched.object().at(k.patchedPointer()), k.kind());
            assertEquals(jsonAsProtobufCarriesIt(path), proto("GET", path, null, null).object(), k.kind() + " after patch");
        }
    }

    /** kube-apiserver answers errors in the requested type too: a Status message. */
    @Test
    void statusErrorsInProtobuf() throws Exception {
        ProtoAnswer missing = proto("GET", "/api/v1/namespaces/default/configmaps/no-such", null, null);
        assertEquals(404, missing.code());
        assertEquals("Status", missing.kind());
        io.kubernetes.client.proto.Meta.Status status = io.kubernetes.client.proto.Meta.Status.parseFrom(missing.raw());
        assertEquals(404, status.getCode());
        assertEquals("NotFound", status.getReason());
        assertEquals("Failure", status.getStatus());

        proto("POST", "/api/v1/namespaces/default/configmaps", PROTOBUF, envelope("v1", "ConfigMap", ProtoMessages.configMap("pa-dup")));
        ProtoAnswer dup = proto("POST", "/api/v1/namespaces/default/configmaps", PROTOBUF,
                envelope("v1", "ConfigMap", ProtoMessages.configMap("pa-dup")));
        assertEquals(409, dup.code());
        assertEquals("AlreadyExists", dup.object().path("reason").asText());

        ProtoAnswer unreadable = proto("POST", "/api/v1/namespaces/default/configmaps", "text/plain", "x".getBytes(StandardCharsets.UTF_8));
        assertEquals(415, unreadable.code());
        assertEquals("UnsupportedMediaType", unreadable.object().path("reason").asText());
    }

    @Test
    void customKindsTablesAndMetadataAskAnswerJsonAndProtobufOnlyForThemIs406() throws Exception {
        HttpResponse<byte[]> cloneSets = sendAccepting("GET", "/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets",
                KUBECTL_ACCEPT, null, null);
        assertEquals(200, cloneSets.statusCode());
        assertEquals("application/json", cloneSets.headers().firstValue("Content-Type").orElse(""));
        HttpResponse<byte[]> only = sendAccepting("GET", "/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets",
                PROTOBUF, null, null);
        assertEquals(406, only.statusCode());
        assertEquals("NotAcceptable", MAPPER.readTree(only.body()).path("reason").asText());

        HttpResponse<byte[]> metadata = sendAccepting("GET", "/api/v1/namespaces/default/configmaps",
                PROTOBUF + ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json", null, null);
        assertEquals("application/json", metadata.headers().firstValue("Content-Type").orElse(""));
        HttpResponse<byte[]> table = sendAccepting("GET", "/api/v1/namespaces/default/configmaps",
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json", null, null);
        assertEquals("Table", MAPPER.readTree(table.body()).path("kind").asText());

        HttpResponse<byte[]> jsonFirst = sendAccepting("GET", "/api/v1/namespaces/default/configmaps",
                "application/json, " + PROTOBUF, null, null);
        assertEquals("application/json", jsonFirst.headers().firstValue("Content-Type").orElse(""));
        HttpResponse<byte[]> weighted = sendAccepting("GET", "/api/v1/namespaces/default/configmaps",
                "application/json;q=0.5, " + PROTOBUF, null, null);
        assertEquals(PROTOBUF, weighted.headers().firstValue("Content-Type").orElse(""));
        HttpResponse<byte[]> yaml = sendAccepting("GET", "/api/v1/namespaces/default", "application/yaml", null, null);
        assertEquals("application/yaml", yaml.headers().firstValue("Content-Type").orElse(""));
        assertTrue(new String(yaml.body(), StandardCharsets.UTF_8).contains("kind: \"Namespace\""));
        HttpResponse<byte[]> html = sendAccepting("GET", "/api/v1/namespaces/default", "text/html", null, null);
        assertEquals(406, html.statusCode());
        // Discovery is not negotiated (kubectl asks it in JSON).
        assertEquals(200, sendAccepting("GET", "/api/v1", PROTOBUF, null, null).statusCode());
    }

    /** A watch asked in protobuf streams length-prefixed WatchEvent messages whose object is a full envelope. */
    @Test
    void protobufWatchFrames() throws Exception {
        HttpRequest watch = HttpRequest.newBuilder(URI.create(fixture.cluster().url()
                        + "/api/v1/namespaces/default/configmaps?watch=true&labelSelector=watch%3Dproto"))
                .header("Accept", KUBECTL_ACCEPT).timeout(Duration.ofSeconds(120)).GET().build();
        HttpResponse<java.io.InputStream> stream = http.send(watch, HttpResponse.BodyHandlers.ofInputStream());
        try (java.io.InputStream in = stream.body()) {
            assertEquals(PROTOBUF + ";stream=watch", stream.headers().firstValue("Content-Type").orElse(""));
            V1.ConfigMap.Builder cm = ProtoMessages.configMap("pa-watched").toBuilder();
            cm.getMetadataBuilder().putLabels("watch", "proto");
            assertEquals(201, sendProto("POST", "/api/v1/namespaces/default/configmaps", "v1", "ConfigMap", cm.build()).code());
            assertEquals(200, send("PATCH", "/api/v1/namespaces/default/configmaps/pa-watched", Patches.MERGE_PATCH,
                    "{\"data\":{\"a\":\"z\"}}".getBytes(StandardCharsets.UTF_8)).code());
            assertEquals(200, send("DELETE", "/api/v1/namespaces/default/configmaps/pa-watched", null, null).code());
            List<String> seen = new java.util.ArrayList<>();
            while (seen.size() < 3) {
                byte[] length = in.readNBytes(4);
                assertEquals(4, length.length, "stream ended after " + seen);
                int n = java.nio.ByteBuffer.wrap(length).getInt();
                assertTrue(n > 0 && n < 1_000_000, "frame length " + n);
                io.kubernetes.client.proto.Meta.WatchEvent event = io.kubernetes.client.proto.Meta.WatchEvent.parseFrom(in.readNBytes(n));
                JsonNode object = KubeProtobuf.decode(event.getObject().getRaw().toByteArray());
                assertEquals("ConfigMap", object.path("kind").asText());
                assertEquals("pa-watched", object.at("/metadata/name").asText());
                seen.add(event.getType() + ":" + object.at("/data/a").asText());
            }
            assertEquals(List.of("ADDED:b", "MODIFIED:z", "DELETED:z"), seen);
        }
    }
}
