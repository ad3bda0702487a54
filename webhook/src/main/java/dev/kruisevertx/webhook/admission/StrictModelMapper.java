package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * fabric8's serialization with JSON types read as strictly as the API server reads them. Jackson and fabric8
 * coerce by default: {@code "7"} (and, through {@code Integer.parseInt}, {@code "٥"}) becomes the integer
 * field 7, {@code 1.5} becomes 1, {@code "true"} a boolean, {@code 5} a string. Kubernetes (a CRD schema, Go's
 * JSON decoder) refuses each of those, so the webhook does too: a value of the wrong JSON type fails to decode,
 * and {@link DecodeProblems} turns the failure into a field error.
 */
public final class StrictModelMapper {
    private StrictModelMapper() {
    }

    public static KubernetesSerialization create() {
        ObjectMapper mapper = JsonMapper.builder().disable(MapperFeature.ALLOW_COERCION_OF_SCALARS).build();
        // Configures the mapper and registers fabric8's modules, among them one reading Integer fields from strings.
        KubernetesSerialization serialization = new KubernetesSerialization(mapper, true);
        for (LogicalType type : new LogicalType[]{LogicalType.Integer, LogicalType.Float, LogicalType.Boolean,
                LogicalType.Textual}) {
            mapper.coercionConfigFor(type)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        // An integer is a valid floating-point value, and a string a valid string.
        mapper.coercionConfigFor(LogicalType.Float).setCoercion(CoercionInputShape.Integer, CoercionAction.TryConvert);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.String, CoercionAction.TryConvert)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.TryConvert);
        // Registered last, so these win over fabric8's lenient Integer reader.
        SimpleModule strict = new SimpleModule("kruise-strict-integers");
        strict.addDeserializer(Integer.class, new StrictInt(Integer.class));
        strict.addDeserializer(int.class, new StrictInt(int.class));
        strict.addDeserializer(Long.class, new StrictLong(Long.class));
        strict.addDeserializer(long.class, new StrictLong(long.class));
        mapper.registerModule(strict);
        return serialization;
    }

    /**
     * Refuses a null element in any array of {@code node}: the API server's schema check does (an element's type is
     * never nullable), and the model would otherwise hand the rules a null container, volume or selector term.
     *
     * @throws NullElement naming the first one
     */
    static void rejectNullElements(JsonNode node) {
        rejectNullElements(node, new StringBuilder());
    }

    private static void rejectNullElements(JsonNode node, StringBuilder path) {
        int length = path.length();
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                JsonNode element = node.get(i);
                path.append('[').append(i).append(']');
                if (element.isNull()) {
                    throw new NullElement(path.toString());
                }
                rejectNullElements(element, path);
                path.setLength(length);
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getValue().isContainerNode()) {
                    if (length > 0) {
                        path.append('.');
                    }
                    path.append(field.getKey());
                    rejectNullElements(field.getValue(), path);
                    path.setLength(length);
                }
            }
        }
    }

    /** A null array element, at {@link #getMessage()} (a field path). */
    static final class NullElement extends IllegalArgumentException {
        NullElement(String path) {
            super(path);
        }
    }

    /** JSON integers within the int range; anything else is a mismatch (JSON null stays null). */
    private static final class StrictInt extends StdScalarDeserializer<Integer> {
        StrictInt(Class<?> type) {
            super(type);
        }

        @Override
        public Integer deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
                return p.getIntValue();
            }
            return (Integer) ctxt.handleUnexpectedToken(handledType(), p);
        }

        // The API server drops a null field; for a primitive that means its zero value.
        @Override
        public Integer getNullValue(DeserializationContext ctxt) {
            return handledType().isPrimitive() ? 0 : null;
        }

        @Override
        public LogicalType logicalType() {
            return LogicalType.Integer;
        }
    }

    /** JSON integers within the long range; anything else is a mismatch (JSON null stays null). */
    private static final class StrictLong extends StdScalarDeserializer<Long> {
        StrictLong(Class<?> type) {
            super(type);
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && (p.getNumberType() == JsonParser.NumberType.INT
                    || p.getNumberType() == JsonParser.NumberType.LONG)) {
                return p.getLongValue();
            }
            return (Long) ctxt.handleUnexpectedToken(handledType(), p);
        }

        @Override
        public Long getNullValue(DeserializationContext ctxt) {
            return handledType().isPrimitive() ? 0L : null;
        }

        @Override
        public LogicalType logicalType() {
            return LogicalType.Integer;
        }
    }
}
