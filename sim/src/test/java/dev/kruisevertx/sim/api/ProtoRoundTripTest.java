package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Events;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.kruisevertx.sim.api.ProtoMessages.envelope;
import static dev.kruisevertx.sim.api.ProtoMessages.intVal;
import static dev.kruisevertx.sim.api.ProtoMessages.quantity;
import static dev.kruisevertx.sim.api.ProtoMessages.strVal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Answers in protobuf: stored JSON -> protobuf -> JSON is the identity for every built-in kind the embedded API server
 * serves (and its list, Status and Scale), over random messages that set any field of the kind's whole message tree;
 * and Kubernetes' special types are written exactly as Go writes them.
 */
class ProtoRoundTripTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ProtoJson TO_JSON = new ProtoJson(ProtoFieldTable.instance());
    private static final int MESSAGES_PER_KIND = 60;

    /** apiVersion and kind of every answer the server may write in protobuf. */
    static List<String[]> servedKinds() {
        List<String[]> kinds = new ArrayList<>();
        for (ResourceType t : new ResourceRegistry().all()) {
            if (t.custom() || t.kind().equals("CustomResourceDefinition")) {
                continue;
            }
            kinds.add(new String[]{t.apiVersion("v1"), t.kind()});
            kinds.add(new String[]{t.apiVersion("v1"), t.listKind()});
        }
        kinds.add(new String[]{"v1", "Status"});
        kinds.add(new String[]{"autoscaling/v1", "Scale"});
        return kinds;
    }

    @Test
    void everyServedBuiltInKindRoundTripsJsonProtoJson() throws Exception {
        List<String[]> kinds = servedKinds();
        assertTrue(kinds.size() >= 40, "kinds: " + kinds.size());
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (String[] k : kinds) {
            Descriptor type = KubeProtobuf.answerType(k[0], k[1]);
            assertNotNull(type, k[0] + " " + k[1] + " has a protobuf message");
            for (int i = 0; i < MESSAGES_PER_KIND; i++) {
                DynamicMessage m = new RandomMessages(random).message(type, 0);
                ObjectNode json = MAPPER.createObjectNode().put("apiVersion", k[0]).put("kind", k[1]);
                json.setAll(TO_JSON.object(m));
                byte[] proto = KubeProtobuf.encode(json);
                JsonNode back = KubeProtobuf.decode(proto);
                assertEquals(json, back, k[1] + " (seed " + seed + ", message " + i + ")");
            }
        }
    }

    /** Objects as the server keeps them, with every special type, come back identical and in Go's wire form. */
    @Test
    void specialTypesAreWrittenAsGoWritesThem() throws Exception {
        ObjectNode deployment = (ObjectNode) MAPPER.readTree("""
                {"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "web", "creationTimestamp": "2026-11-24T10:11:12Z",
                   "managedFields": [{"manager": "kubectl", "operation": "Update", "time": "2026-11-24T10:11:12Z",
                     "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]},
                 "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "web"}},
                   "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
                   "template": {"spec": {"containers": [{"name": "c", "image": "nginx",
                     "resources": {"limits": {"cpu": "500m", "memory": "1"}}}]}}}}
                """);
        byte[] bytes = KubeProtobuf.encode(deployment);
        assertArrayEquals(new byte[]{'k', '8', 's', 0}, java.util.Arrays.copyOf(bytes, 4));
        Runtime.Unknown unknown = Runtime.Unknown.parseFrom(ByteBuffer.wrap(bytes, 4, bytes.length - 4));
        assertEquals("apps/v1", unknown.getTypeMeta().getApiVersion());
        assertEquals("Deployment", unknown.getTypeMeta().getKind());
        assertTrue(unknown.hasContentType() && unknown.getContentType().isEmpty(), "contentType written empty, as Go does");
        V1Apps.Deployment d = V1Apps.Deployment.parseFrom(unknown.getRaw());
        assertTrue(d.getSpec().hasReplicas(), "a pointer's zero is sent");
        assertEquals(0, d.getSpec().getReplicas());
        assertEquals(strVal("25%"), d.getSpec().getStrategy().getRollingUpdate().getMaxSurge());
        assertEquals(intVal(0), d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable());
        assertEquals(quantity("500m"), d.getSpec().getTemplate().getSpec().getContainers(0).getResources().getLimitsMap().get("cpu"));
        assertEquals(quantity("1"), d.getSpec().getTemplate().getSpec().getContainers(0).getResources().getLimitsMap().get("memory"),
                "a number is a Quantity's string");
        assertEquals(1795515072L, d.getMetadata().getCreationTimestamp().getSeconds());
        assertEquals(0, d.getMetadata().getCreationTimestamp().getNanos());
        assertEquals("{\"f:spec\":{\"f:replicas\":{}}}", d.getMetadata().getManagedFields(0).getFieldsV1().getRaw().toStringUtf8());
        assertEquals(deployment, KubeProtobuf.decode(bytes));

        ObjectNode event = (ObjectNode) MAPPER.readTree("""
                {"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"},
                 "eventTime": "2026-11-24T10:11:12.123456Z", "reason": "Scheduled", "action": "Binding",
                 "regarding": {"kind": "Pod", "name": "p"}}
                """);
        V1Events.Event e = V1Events.Event.parseFrom(Runtime.Unknown.parseFrom(
                ByteBuffer.wrap(KubeProtobuf.encode(event), 4, KubeProtobuf.encode(event).length - 4)).getRaw());
        assertEquals(123_456_000, e.getEventTime().getNanos(), "MicroTime keeps the microseconds");
        assertEquals(event, KubeProtobuf.decode(KubeProtobuf.encode(event)));

        ObjectNode revision = (ObjectNode) MAPPER.readTree("""
                {"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "r"}, "revision": 3,
                 "data": {"spec": {"template": {"$patch": "replace"}}, "n": [1, 2.5, null, true]}}
                """);
        V1Apps.ControllerRevision r = V1Apps.ControllerRevision.parseFrom(Runtime.Unknown.parseFrom(
                ByteBuffer.wrap(KubeProtobuf.encode(revision), 4, KubeProtobuf.encode(revision).length - 4)).getRaw());
        assertEquals(revision.get("data"), MAPPER.readTree(r.getData().getRaw().toByteArray()), "RawExtension carries the JSON");
        assertEquals(revision, KubeProtobuf.decode(KubeProtobuf.encode(revision)));
    }

    @Test
    void listsAndStatusErrors() throws Exception {
        ObjectNode list = (ObjectNode) MAPPER.readTree("""
                {"apiVersion": "v1", "kind": "ConfigMapList", "metadata": {"resourceVersion": "42", "continue": "c"},
                 "items": [{"metadata": {"name": "a", "namespace": "default"}, "data": {"k": "v"}},
                           {"metadata": {"name": "b", "namespace": "default"}, "binaryData": {"b": "AAE="}}]}
                """);
        V1.ConfigMapList parsed = V1.ConfigMapList.parseFrom(Runtime.Unknown.parseFrom(
                ByteBuffer.wrap(KubeProtobuf.encode(list), 4, KubeProtobuf.encode(list).length - 4)).getRaw());
        assertEquals(2, parsed.getItemsCount());
        assertEquals("42", parsed.getMetadata().getResourceVersion());
        assertEquals(list, KubeProtobuf.decode(KubeProtobuf.encode(list)));

        ObjectNode status = new ApiException(409, "AlreadyExists", "deployments.apps \"a\" already exists", "apps", "deployments", "a")
                .toStatus();
        Meta.Status s = Meta.Status.parseFrom(Runtime.Unknown.parseFrom(
                ByteBuffer.wrap(KubeProtobuf.encode(status), 4, KubeProtobuf.encode(status).length - 4)).getRaw());
        assertEquals(409, s.getCode());
        assertEquals("AlreadyExists", s.getReason());
        assertEquals("a", s.getDetails().getName());
        assertEquals(status, KubeProtobuf.decode(KubeProtobuf.encode(status)));
    }

    @Test
    void customKindsAndWrongTypesAreNotEncodable() throws Exception {
        assertFalse(KubeProtobuf.encodable(MAPPER.readTree("{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\"}")));
        assertFalse(KubeProtobuf.encodable(MAPPER.readTree("{\"apiVersion\":\"apps.kruise.io/v1\",\"kind\":\"Deployment\"}")),
                "a custom group is never taken for the built-in group of its first label");
        assertFalse(KubeProtobuf.encodable(MAPPER.readTree(
                "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\"}")));
        for (String spec : List.of("{\"replicas\": \"three\"}", "{\"replicas\": 3000000000}", "{\"paused\": \"yes\"}",
                "{\"minReadySeconds\": 1.5}", "{\"selector\": []}", "{\"strategy\": {\"rollingUpdate\": {\"maxSurge\": true}}}",
                "{\"template\": {\"metadata\": {\"creationTimestamp\": \"yesterday\"}}}",
                "{\"progressDeadlineSeconds\": -1, \"revisionHistoryLimit\": \"x\"}")) {
            JsonNode d = MAPPER.readTree("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},"
                    + "\"spec\":" + spec + "}");
            JsonProto.NotEncodable e = assertThrows(JsonProto.NotEncodable.class, () -> KubeProtobuf.encode(d), spec);
            assertTrue(e.getMessage().startsWith("Deployment.spec."), e.getMessage());
        }
    }

    @Test
    void goDurationParsesWhatItFormats() {
        Random random = new Random(7);
        long[] fixed = {0, 1, 999, 1_000, 1_500_000, 1_000_000_000, 3_723_500_000_000L, -90_000_000_000L,
                Long.MAX_VALUE, Long.MIN_VALUE};
        for (long n : fixed) {
            assertEquals(n, GoDuration.parse(GoDuration.format(n)), GoDuration.format(n));
        }
        for (int i = 0; i < 10_000; i++) {
            long n = random.nextLong() >> random.nextInt(64);
            assertEquals(n, GoDuration.parse(GoDuration.format(n)), GoDuration.format(n));
        }
        assertEquals(5_400_000_000_000L, GoDuration.parse("1.5h"));
        assertEquals(1_000L, GoDuration.parse("1us"));
        for (String bad : List.of("", "-", "1", "1d", "h", ".s", "1..5s", "9999999999h")) {
            assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(bad), bad);
        }
    }

    /** Random instances of a message tree, with valid values for Kubernetes' special types. */
    static final class RandomMessages {
        private static final String[] STRINGS = {"", "a", "web-1", "ü€", "25%", "with space", "x".repeat(40)};
        private final Random random;

        RandomMessages(Random random) {
            this.random = random;
        }

        DynamicMessage message(Descriptor type, int depth) {
            DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
            switch (type.getFullName()) {
                case "k8s.io.apimachinery.pkg.apis.meta.v1.Time", "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime":
                    return b.setField(type.findFieldByName("seconds"), (long) random.nextInt(Integer.MAX_VALUE))
                            .setField(type.findFieldByName("nanos"), random.nextInt(1_000_000_000)).build();
                case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration":
                    return b.setField(type.findFieldByName("duration"), random.nextLong() >> random.nextInt(64)).build();
                case "k8s.io.apimachinery.pkg.util.intstr.IntOrString":
                    return DynamicMessage.newBuilder(random.nextBoolean() ? intVal(random.nextInt()) : strVal(pick())).build();
                case "k8s.io.apimachinery.pkg.api.resource.Quantity":
                    return DynamicMessage.newBuilder(quantity(random.nextBoolean() ? "100m" : "1Gi")).build();
                case "k8s.io.apimachinery.pkg.runtime.RawExtension":
                    return b.setField(type.findFieldByName("raw"), json()).build();
                case "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1":
                    return b.setField(type.findFieldByName("Raw"), json()).build();
                default:
                    break;
            }
            double p = depth < 3 ? 0.7 : depth < 6 ? 0.3 : 0;
            for (FieldDescriptor f : type.getFields()) {
                boolean isMessage = f.getJavaType() == FieldDescriptor.JavaType.MESSAGE;
                if (random.nextDouble() >= (isMessage ? p : Math.max(p, 0.3))) {
                    continue;
                }
                if (f.isMapField()) {
                    Descriptor entry = f.getMessageType();
                    for (int i = random.nextInt(3); i > 0; i--) {
                        FieldDescriptor value = entry.findFieldByName("value");
                        b.addRepeatedField(f, DynamicMessage.newBuilder(entry)
                                .setField(entry.findFieldByName("key"), "k" + random.nextInt(100))
                                .setField(value, value(value, depth + 1)).build());
                    }
                } else if (f.isRepeated()) {
                    for (int i = random.nextInt(3); i > 0; i--) {
                        b.addRepeatedField(f, value(f, depth + 1));
                    }
                } else {
                    b.setField(f, value(f, depth + 1));
                }
            }
            return b.build();
        }

        private Object value(FieldDescriptor f, int depth) {
            switch (f.getJavaType()) {
                case MESSAGE:
                    return message(f.getMessageType(), depth);
                case STRING:
                    return pick();
                case INT:
                    return random.nextBoolean() ? 0 : random.nextInt();
                case LONG:
                    return random.nextBoolean() ? (long) random.nextInt(1000) : random.nextLong();
                case BOOLEAN:
                    return random.nextBoolean();
                case BYTE_STRING: {
                    byte[] bytes = new byte[random.nextInt(5)];
                    random.nextBytes(bytes);
                    return ByteString.copyFrom(bytes);
                }
                case DOUBLE:
                    return random.nextDouble();
                case FLOAT:
                    return random.nextFloat();
                default:
                    throw new IllegalStateException("no generator for " + f.getFullName());
            }
        }

        private String pick() {
            return STRINGS[random.nextInt(STRINGS.length)];
        }

        private ByteString json() {
            return ByteString.copyFromUtf8(random.nextBoolean() ? "{\"a\":1,\"b\":[true,null,\"s\"]}" : "{\"f:x\":{}}");
        }
    }
}
