package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Says which field of a request object did not decode and what it should be, the way the API server words a
 * schema error ({@code spec.replicas: Invalid value: "7": must be an integer}): the JSON path, the value sent and
 * the JSON type expected. Jackson's own message names Java classes and reference chains, which mean nothing to
 * someone who wrote YAML, so it is never shown.
 */
public final class DecodeProblems {
    private DecodeProblems() {
    }

    /** The field error behind a failed {@link Json#toModel} of {@code object}. */
    public static FieldError fieldError(RuntimeException failure, JsonNode object) {
        if (failure instanceof StrictModelMapper.NullElement nullElement) {
            return FieldError.invalid(nullElement.getMessage(), null, "must not be null");
        }
        JsonMappingException mapping = find(failure);
        if (mapping == null || mapping.getPath().isEmpty()) {
            return FieldError.invalid("<object>", new JsonType(object), "cannot be read as this kind: "
                    + (mapping == null ? "unexpected content" : "wrong structure"));
        }
        List<JsonMappingException.Reference> path = mapping.getPath();
        JsonNode value = at(object, path);
        return FieldError.invalid(render(path), shown(value), expectation(targetOf(mapping), value));
    }

    /** A failed decode as the denial the API server would answer: 422 Invalid with the field error. */
    public static AdmissionResponse denial(RuntimeException failure, JsonNode object) {
        return AdmissionResponse.denied(422, fieldError(failure, object).toString());
    }

    private static JsonMappingException find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JsonMappingException m) {
                return m;
            }
        }
        return null;
    }

    /** {@code spec.template.spec.containers[0].name}; map keys as {@code metadata.labels[app]}. */
    static String render(List<JsonMappingException.Reference> path) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference ref : path) {
            if (ref.getFieldName() == null) {
                b.append('[').append(Math.max(ref.getIndex(), 0)).append(']');
            } else if (ref.getFrom() instanceof Map<?, ?>) {
                b.append('[').append(ref.getFieldName()).append(']');
            } else {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(ref.getFieldName());
            }
        }
        return b.toString();
    }

    private static JsonNode at(JsonNode root, List<JsonMappingException.Reference> path) {
        JsonNode node = root;
        for (JsonMappingException.Reference ref : path) {
            if (node == null) {
                return null;
            }
            node = ref.getFieldName() == null ? node.get(Math.max(ref.getIndex(), 0)) : node.get(ref.getFieldName());
        }
        return node;
    }

    private static Class<?> targetOf(JsonMappingException e) {
        JavaType type = null;
        if (e instanceof MismatchedInputException m) {
            return m.getTargetType();
        }
        if (e instanceof ValueInstantiationException v) {
            type = v.getType();
        } else if (e instanceof InvalidDefinitionException d) {
            type = d.getType();
        }
        return type == null ? null : type.getRawClass();
    }

    static String expectation(Class<?> target, JsonNode value) {
        if (target == null) {
            return "has the wrong type for this field";
        }
        if (target == Integer.class || target == int.class || target == Short.class || target == short.class) {
            return value != null && value.isIntegralNumber() ? "must be an integer between " + Integer.MIN_VALUE
                    + " and " + Integer.MAX_VALUE : "must be an integer";
        }
        if (target == Long.class || target == long.class) {
            return value != null && value.isIntegralNumber() ? "must be an integer between " + Long.MIN_VALUE
                    + " and " + Long.MAX_VALUE : "must be an integer";
        }
        if (target == IntOrString.class) {
            return value != null && value.isIntegralNumber() ? "must be an integer between " + Integer.MIN_VALUE
                    + " and " + Integer.MAX_VALUE + ", or a string" : "must be an integer or a string";
        }
        if (target == Boolean.class || target == boolean.class) {
            return "must be a boolean";
        }
        if (target == String.class) {
            return "must be a string";
        }
        if (Number.class.isAssignableFrom(target) || target == double.class || target == float.class) {
            return "must be a number";
        }
        if (target == Quantity.class) {
            return "must be a quantity such as \"500m\" or \"1Gi\"";
        }
        if (target.isArray() || Collection.class.isAssignableFrom(target)) {
            return "must be an array";
        }
        return "must be an object";
    }

    /** Scalars as sent; objects and arrays by their JSON type, as the API server shows them. */
    private static Object shown(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isValueNode()) {
            return new JsonType(value.asText());
        }
        return new JsonType(value);
    }

    /** Printed bare (not quoted) in a field error. */
    private record JsonType(String text) {
        JsonType(JsonNode node) {
            this(node == null ? "null" : node.isArray() ? "array" : node.isObject() ? "object" : node.getNodeType()
                    .name().toLowerCase(java.util.Locale.ROOT));
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
