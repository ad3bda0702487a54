package dev.kruisevertx.webhook.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.BadReview;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ReviewEnvelope;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Answers ConversionReviews ({@code /convert}) with converters registered per group and kind, in the
 * review version it was asked in (apiextensions.k8s.io/v1 or v1beta1).
 */
public final class ConversionRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(ConversionRegistry.class);
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
     * Reviews a ConversionReview body and returns the response review.
     *
     * @throws IllegalArgumentException when the body is not a ConversionReview request that can be answered (no
     *                                  supported apiVersion or no uid; the caller answers 400)
     */
    public ObjectNode review(byte[] body) {
        try {
            return review(ReviewEnvelope.parse(body, "ConversionReview"));
        } catch (BadReview e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /**
     * Reviews a parsed ConversionReview and returns the response review: once it has a supported apiVersion and a
     * uid, anything wrong is a Failure result with a message, which kube-apiserver shows its user.
     *
     * @throws IllegalArgumentException when the body is not a ConversionReview request that can be answered
     */
    public ObjectNode review(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("request body must be a JSON object (a ConversionReview)");
        }
        ReviewEnvelope envelope;
        try {
            envelope = ReviewEnvelope.read(root, "ConversionReview", V1, V1BETA1);
        } catch (BadReview e) {
            if (!e.answerable()) {
                throw new IllegalArgumentException(e.getMessage());
            }
            return answer(e.apiVersion(), e.uid(), null, e.getMessage());
        }
        JsonNode request = envelope.request();
        JsonNode desiredNode = request.path("desiredAPIVersion");
        String desired = desiredNode.isTextual() ? desiredNode.asText() : "";
        int slash = desired.indexOf('/');
        if (slash <= 0 || slash == desired.length() - 1 || desired.indexOf('/', slash + 1) >= 0) {
            return answer(envelope.apiVersion(), envelope.uid(), null, "ConversionReview request.desiredAPIVersion must "
                    + "be group/version, got " + ReviewEnvelope.shown(desiredNode));
        }
        JsonNode objects = request.path("objects");
        if (!objects.isMissingNode() && !objects.isNull() && !objects.isArray()) {
            return answer(envelope.apiVersion(), envelope.uid(), null, "ConversionReview request.objects must be an "
                    + "array, got " + ReviewEnvelope.shown(objects));
        }
        ArrayNode converted = Json.MAPPER.createArrayNode();
        for (JsonNode obj : objects) {
            try {
                converted.add(convertOne(obj, desired));
            } catch (ConversionException e) {
                return answer(envelope.apiVersion(), envelope.uid(), null, e.getMessage());
            } catch (RuntimeException e) {
                // A converter bug: the user gets what was asked, the log the cause (never the object).
                LOG.warn("Converter failed on {} {} to {}", obj.path("kind").asText(""),
                        obj.path("metadata").path("name").asText(""), desired, e);
                return answer(envelope.apiVersion(), envelope.uid(), null, "cannot convert "
                        + obj.path("kind").asText("the object") + " to " + desired + ": its content could not be read");
            }
        }
        return answer(envelope.apiVersion(), envelope.uid(), converted, null);
    }

    /** A response review: Success with {@code converted}, or Failure with {@code failure}. */
    private static ObjectNode answer(String apiVersion, String uid, ArrayNode converted, String failure) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", "ConversionReview");
        ObjectNode response = out.putObject("response");
        response.put("uid", uid);
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
