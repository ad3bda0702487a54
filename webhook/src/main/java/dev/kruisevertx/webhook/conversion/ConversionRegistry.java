package dev.kruisevertx.webhook.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ReviewEnvelope;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Answers ConversionReviews ({@code /convert}) with converters registered per group and kind, in the
 * review version it was asked in (apiextensions.k8s.io/v1 or v1beta1).
 */
public final class ConversionRegistry {
    public static final String V1 = "apiextensions.k8s.io/v1";
    public static final String V1BETA1 = "apiextensions.k8s.io/v1beta1";

    private final Map<String, Converter> converters = new ConcurrentHashMap<>();

    public ConversionRegistry register(String group, String kind, Converter converter) {
        if (converters.putIfAbsent(key(group, kind), converter) != null) {
            throw new IllegalArgumentException("a converter is already registered for " + kind + "." + group);
        }
        return this;
    }

    public boolean handles(String group, String kind) {
        return converters.containsKey(key(group, kind));
    }

    public Set<String> registered() {
        return Set.copyOf(converters.keySet());
    }

    private static String key(String group, String kind) {
        return kind + "." + group;
    }

    /**
     * Reviews a parsed ConversionReview and returns the response review.
     *
     * @throws IllegalArgumentException when the body is not a ConversionReview request (the caller answers 400)
     */
    public ObjectNode review(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("request body must be a JSON object (a ConversionReview)");
        }
        ReviewEnvelope envelope = ReviewEnvelope.read(root, "ConversionReview", V1, V1BETA1, IllegalArgumentException::new);
        JsonNode request = envelope.request();
        String apiVersion = envelope.apiVersion();
        String uid = envelope.uid();
        String desired = request.path("desiredAPIVersion").asText("");
        if (desired.isEmpty() || !desired.contains("/")) {
            throw new IllegalArgumentException("ConversionReview request.desiredAPIVersion must be group/version, got '"
                    + desired + "'");
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", "ConversionReview");
        ObjectNode response = out.putObject("response");
        response.put("uid", uid);
        ArrayNode converted = Json.MAPPER.createArrayNode();
        String failure = null;
        for (JsonNode obj : request.path("objects")) {
            try {
                converted.add(convertOne(obj, desired));
            } catch (ConversionException e) {
                failure = e.getMessage();
                break;
            } catch (RuntimeException e) {
                failure = "conversion to " + desired + " failed: " + e;
                break;
            }
        }
        ObjectNode result = response.putObject("result");
        if (failure == null) {
            response.set("convertedObjects", converted);
            result.put("status", "Success");
        } else {
            response.putArray("convertedObjects");
            result.put("status", "Failure");
            result.put("message", failure);
        }
        return out;
    }

    private ObjectNode convertOne(JsonNode obj, String desired) {
        if (!obj.isObject()) {
            throw new ConversionException("every object to convert must be a JSON object");
        }
        ObjectNode object = (ObjectNode) obj;
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            throw new ConversionException("object to convert has no apiVersion or kind");
        }
        if (apiVersion.equals(desired)) {
            return object;
        }
        String group = groupOf(apiVersion);
        if (!group.equals(groupOf(desired))) {
            throw new ConversionException("cannot convert " + kind + " from group " + group + " to " + desired);
        }
        Converter converter = converters.get(key(group, kind));
        if (converter == null) {
            throw new ConversionException("no converter registered for " + kind + "." + group);
        }
        ObjectNode result = converter.convert(object.deepCopy(), desired);
        result.put("apiVersion", desired);
        return result;
    }

    static String groupOf(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
