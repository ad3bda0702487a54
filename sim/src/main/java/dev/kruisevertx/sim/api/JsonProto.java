package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * The reverse of {@link ProtoJson}: a stored JSON object as the Kubernetes protobuf message Go would marshal for it.
 * JSON members the message has no field for (apiVersion and kind, which travel in the envelope) are left out, as Go's
 * typed objects cannot hold them either. A value of the wrong JSON type is a {@link NotEncodable}: the caller answers
 * in JSON instead of dropping it.
 */
final class JsonProto {
    /** A JSON value the protobuf message cannot hold (a string where Go has an integer, say). */
    static final class NotEncodable extends RuntimeException {
        NotEncodable(String message) {
            super(message, null, false, false);
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static final String TIME = META + "Time";
    private static final String MICRO_TIME = META + "MicroTime";
    private static final String DURATION = META + "Duration";
    private static final String FIELDS_V1 = META + "FieldsV1";
    private static final String INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
    private static final String QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity";
    private static final String QUANTITY_VALUE = "k8s.io.apimachinery.pkg.api.resource.QuantityValue";
    private static final String RAW_EXTENSION = "k8s.io.apimachinery.pkg.runtime.RawExtension";
    /** Deeper than any Kubernetes type nests; stops a self-similar stored object from exhausting the stack. */
    private static final int MAX_DEPTH = 64;

    private final ProtoFieldTable table;

    JsonProto(ProtoFieldTable table) {
        this.table = table;
    }

    DynamicMessage message(Descriptor type, JsonNode json) {
        return message(type, json, type.getName(), 0);
    }

    private DynamicMessage message(Descriptor type, JsonNode json, String path, int depth) {
        if (!json.isObject()) {
            throw new NotEncodable(path + " is a JSON " + json.getNodeType().name().toLowerCase() + ", not an object");
        }
        if (depth > MAX_DEPTH) {
            throw new NotEncodable(path + " nests deeper than " + MAX_DEPTH + " objects");
        }
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        for (FieldDescriptor f : type.getFields()) {
            ProtoFieldTable.Field jf = table.field(type.getFullName(), f.getName());
            if (jf.inline() && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated()) {
                // Go inlines this struct's members into the parent's JSON object.
                DynamicMessage inlined = message(f.getMessageType(), json, path, depth + 1);
                if (!inlined.getAllFields().isEmpty()) {
                    b.setField(f, inlined);
                }
                continue;
            }
            String name = jf.inline() ? f.getName() : jf.jsonName();
            JsonNode v = json.get(name);
            if (v == null || v.isNull()) {
                continue;
            }
            String at = path + "." + name;
            if (f.isMapField()) {
                map(b, f, v, at, depth);
            } else if (f.isRepeated()) {
                if (!v.isArray()) {
                    throw new NotEncodable(at + " is not a list");
                }
                int i = 0;
                for (JsonNode element : v) {
                    if (!element.isNull()) {
                        b.addRepeatedField(f, single(f, element, at + "[" + i + "]", depth));
                    }
                    i++;
                }
            } else {
                Object value = single(f, v, at, depth);
                if (value != null) {
                    b.setField(f, value);
                }
            }
        }
        return b.build();
    }

    private void map(DynamicMessage.Builder b, FieldDescriptor f, JsonNode v, String at, int depth) {
        if (!v.isObject()) {
            throw new NotEncodable(at + " is not a map");
        }
        Descriptor entryType = f.getMessageType();
        FieldDescriptor keyField = entryType.findFieldByName("key");
        FieldDescriptor valueField = entryType.findFieldByName("value");
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            DynamicMessage.Builder entry = DynamicMessage.newBuilder(entryType).setField(keyField, e.getKey());
            if (!e.getValue().isNull()) {
                Object value = single(valueField, e.getValue(), at + "." + e.getKey(), depth);
                if (value != null) {
                    entry.setField(valueField, value);
                }
            }
            b.addRepeatedField(f, entry.build());
        }
    }

    private Object single(FieldDescriptor f, JsonNode v, String at, int depth) {
        switch (f.getJavaType()) {
            case MESSAGE:
                return special(f.getMessageType(), v, at, depth);
            case STRING:
                if (!v.isTextual()) {
                    throw new NotEncodable(at + " is not a string");
                }
                return v.asText();
            case INT:
                if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                    throw new NotEncodable(at + " is not a 32-bit integer");
                }
                return v.intValue();
            case LONG:
                if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                    throw new NotEncodable(at + " is not a 64-bit integer");
                }
                return v.longValue();
            case BOOLEAN:
                if (!v.isBoolean()) {
                    throw new NotEncodable(at + " is not a boolean");
                }
                return v.booleanValue();
            case DOUBLE:
                if (!v.isNumber()) {
                    throw new NotEncodable(at + " is not a number");
                }
                return v.doubleValue();
            case FLOAT:
                if (!v.isNumber()) {
                    throw new NotEncodable(at + " is not a number");
                }
                return v.floatValue();
            case BYTE_STRING:
                try {
                    return ByteString.copyFrom(Base64.getDecoder().decode(v.asText()));
                } catch (IllegalArgumentException e) {
                    throw new NotEncodable(at + " is not base64");
                }
            default:
                throw new NotEncodable(at + ": protobuf field type " + f.getJavaType() + " is not used by Kubernetes");
        }
    }

    private Object special(Descriptor type, JsonNode v, String at, int depth) {
        switch (type.getFullName()) {
            case TIME:
                // Kubernetes stores Time with second precision; Go's protobuf Time carries the same seconds.
                return timestamp(type, instant(v, at).getEpochSecond(), 0);
            case MICRO_TIME: {
                Instant i = instant(v, at);
                return timestamp(type, i.getEpochSecond(), i.getNano() / 1_000 * 1_000);
            }
            case DURATION:
                try {
                    return with(type, "duration", GoDuration.parse(v.asText()));
                } catch (IllegalArgumentException e) {
                    throw new NotEncodable(at + ": " + e.getMessage());
                }
            case INT_OR_STRING: {
                DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
                if (v.isIntegralNumber() && v.canConvertToInt()) {
                    set(b, "type", 0);
                    set(b, "intVal", v.intValue());
                } else if (v.isTextual()) {
                    set(b, "type", 1);
                    set(b, "strVal", v.textValue());
                } else {
                    throw new NotEncodable(at + " is neither a 32-bit integer nor a string");
                }
                return b.build();
            }
            case QUANTITY, QUANTITY_VALUE:
                // A number is a valid Quantity in JSON ("cpu: 1"); protobuf carries the string form.
                if (!v.isTextual() && !v.isNumber()) {
                    throw new NotEncodable(at + " is not a quantity");
                }
                return with(type, "string", v.asText());
            case RAW_EXTENSION:
                return with(type, "raw", json(v, at));
            case FIELDS_V1:
                return with(type, "Raw", json(v, at));
            default:
                return message(type, v, at, depth + 1);
        }
    }

    private static Instant instant(JsonNode v, String at) {
        if (!v.isTextual()) {
            throw new NotEncodable(at + " is not a time");
        }
        try {
            return OffsetDateTime.parse(v.textValue()).toInstant();
        } catch (DateTimeParseException e) {
            throw new NotEncodable(at + " is not an RFC 3339 time");
        }
    }

    private static DynamicMessage timestamp(Descriptor type, long seconds, int nanos) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        set(b, "seconds", seconds);
        set(b, "nanos", nanos);
        return b.build();
    }

    private static ByteString json(JsonNode v, String at) {
        try {
            return ByteString.copyFrom(MAPPER.writeValueAsBytes(v));
        } catch (JsonProcessingException e) {
            throw new NotEncodable(at + " cannot be written as JSON");
        }
    }

    private static DynamicMessage with(Descriptor type, String field, Object value) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(type);
        set(b, field, value);
        return b.build();
    }

    /** Sets a scalar, boxing numbers to the field's own Java type (int32 vs int64). */
    private static void set(DynamicMessage.Builder b, String field, Object value) {
        FieldDescriptor f = b.getDescriptorForType().findFieldByName(field);
        Object boxed = value;
        if (value instanceof Number n) {
            boxed = f.getJavaType() == FieldDescriptor.JavaType.LONG ? (Object) n.longValue() : (Object) n.intValue();
        }
        b.setField(f, boxed);
    }
}
