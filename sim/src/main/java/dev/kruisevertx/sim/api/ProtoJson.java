package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A decoded Kubernetes protobuf message as the JSON kube-apiserver would store for it. JsonFormat does not fit:
 * it writes int64 as strings, knows nothing of Kubernetes' special types, and keeps the zero values Go's generated
 * marshalling writes for every non-pointer field (Go then reads them back as "unset").
 */
final class ProtoJson {
    /** Go's zero time.Time as Unix seconds; Go writes it for an unset non-pointer Time. */
    static final long GO_ZERO_TIME_SECONDS = -62135596800L;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter RFC3339_MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static final String TIME = META + "Time";
    private static final String MICRO_TIME = META + "MicroTime";
    private static final String DURATION = META + "Duration";
    private static final String FIELDS_V1 = META + "FieldsV1";
    private static final String INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
    private static final String QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity";
    private static final String QUANTITY_VALUE = "k8s.io.apimachinery.pkg.api.resource.QuantityValue";
    private static final String RAW_EXTENSION = "k8s.io.apimachinery.pkg.runtime.RawExtension";

    private final ProtoFieldTable table;

    ProtoJson(ProtoFieldTable table) {
        this.table = table;
    }

    /** The message's fields as a JSON object (no apiVersion/kind: protobuf carries those in the envelope). */
    ObjectNode object(Message message) {
        ObjectNode out = NODES.objectNode();
        fill(out, message);
        return out;
    }

    private void fill(ObjectNode out, Message message) {
        Descriptor type = message.getDescriptorForType();
        for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            ProtoFieldTable.Field json = table.field(type.getFullName(), f.getName());
            if (json.inline() && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated()) {
                fill(out, (Message) e.getValue());
                continue;
            }
            JsonNode value = f.isMapField() ? map(f, (List<?>) e.getValue())
                    : f.isRepeated() ? array(f, (List<?>) e.getValue())
                    : single(f, e.getValue(), json.pointer());
            if (value != null) {
                out.set(json.inline() ? f.getName() : json.jsonName(), value);
            }
        }
    }

    private ArrayNode array(FieldDescriptor f, List<?> values) {
        ArrayNode a = NODES.arrayNode();
        for (Object v : values) {
            JsonNode n = single(f, v, true);
            a.add(n == null ? NODES.nullNode() : n);
        }
        return a;
    }

    private ObjectNode map(FieldDescriptor f, List<?> entries) {
        Descriptor entryType = f.getMessageType();
        FieldDescriptor keyField = entryType.findFieldByName("key");
        FieldDescriptor valueField = entryType.findFieldByName("value");
        ObjectNode o = NODES.objectNode();
        for (Object entry : entries) {
            Message m = (Message) entry;
            JsonNode v = single(valueField, m.getField(valueField), true);
            o.set(String.valueOf(m.getField(keyField)), v == null ? NODES.nullNode() : v);
        }
        return o;
    }

    /**
     * One value; null means "leave the field out". {@code keepZero}: the Go field is a pointer (or a list or map
     * element), so a zero value was meant.
     */
    private JsonNode single(FieldDescriptor f, Object v, boolean keepZero) {
        switch (f.getJavaType()) {
            case MESSAGE:
                return message((Message) v, keepZero);
            case STRING: {
                String s = (String) v;
                return s.isEmpty() && !keepZero ? null : NODES.textNode(s);
            }
            case INT:
                return (Integer) v == 0 && !keepZero ? null : NODES.numberNode((Integer) v);
            case LONG: {
                // The smallest node, as a JSON parser reads the same number (JSON has no int64 type).
                long l = (Long) v;
                if (l == 0 && !keepZero) {
                    return null;
                }
                return l == (int) l ? NODES.numberNode((int) l) : NODES.numberNode(l);
            }
            case BOOLEAN:
                return !(Boolean) v && !keepZero ? null : NODES.booleanNode((Boolean) v);
            case DOUBLE:
                return (Double) v == 0 && !keepZero ? null : NODES.numberNode((Double) v);
            case FLOAT:
                return (Float) v == 0 && !keepZero ? null : NODES.numberNode((Float) v);
            case BYTE_STRING: {
                ByteString b = (ByteString) v;
                return b.isEmpty() && !keepZero ? null : NODES.textNode(Base64.getEncoder().encodeToString(b.toByteArray()));
            }
            case ENUM:
                return NODES.textNode(v.toString());
            default:
                throw ApiException.badRequest("unsupported protobuf field type " + f.getJavaType() + " in " + f.getFullName());
        }
    }

    private JsonNode message(Message m, boolean keepZero) {
        String name = m.getDescriptorForType().getFullName();
        switch (name) {
            case TIME:
                return time(m, false);
            case MICRO_TIME:
                return time(m, true);
            case DURATION:
                return NODES.textNode(GoDuration.format(longField(m, "duration")));
            case INT_OR_STRING: {
                boolean isString = longField(m, "type") == 1;
                String s = stringField(m, "strVal");
                int i = (int) longField(m, "intVal");
                if (!keepZero && (isString ? s.isEmpty() : i == 0)) {
                    return null;
                }
                return isString ? NODES.textNode(s) : NODES.numberNode(i);
            }
            case QUANTITY, QUANTITY_VALUE: {
                String s = stringField(m, "string");
                return s.isEmpty() && !keepZero ? null : NODES.textNode(s.isEmpty() ? "0" : s);
            }
            case RAW_EXTENSION:
                return raw(bytesField(m, "raw"));
            case FIELDS_V1:
                return raw(bytesField(m, "Raw"));
            default:
                return object(m);
        }
    }

    /** Go drops the nanoseconds of a Time read from protobuf (JSON has second precision); MicroTime keeps micros. */
    private static JsonNode time(Message m, boolean micro) {
        FieldDescriptor secondsField = m.getDescriptorForType().findFieldByName("seconds");
        if (!m.hasField(secondsField)) {
            return null;
        }
        long seconds = (Long) m.getField(secondsField);
        if (seconds == GO_ZERO_TIME_SECONDS) {
            return null;
        }
        if (!micro) {
            return NODES.textNode(RFC3339.format(Instant.ofEpochSecond(seconds)));
        }
        return NODES.textNode(RFC3339_MICRO.format(Instant.ofEpochSecond(seconds, longField(m, "nanos"))));
    }

    /**
     * An embedded object (RawExtension, managedFields): clients put JSON there. A nested protobuf envelope is refused
     * rather than decoded, which would let a body nest envelopes past any recursion limit.
     */
    private static JsonNode raw(ByteString bytes) {
        if (bytes.isEmpty()) {
            return null;
        }
        try {
            return MAPPER.readTree(bytes.toByteArray());
        } catch (IOException e) {
            throw ApiException.badRequest("an embedded object (RawExtension) is not JSON: " + e.getMessage());
        }
    }

    private static long longField(Message m, String field) {
        Object v = m.getField(m.getDescriptorForType().findFieldByName(field));
        return ((Number) v).longValue();
    }

    private static String stringField(Message m, String field) {
        return (String) m.getField(m.getDescriptorForType().findFieldByName(field));
    }

    private static ByteString bytesField(Message m, String field) {
        return (ByteString) m.getField(m.getDescriptorForType().findFieldByName(field));
    }
}
