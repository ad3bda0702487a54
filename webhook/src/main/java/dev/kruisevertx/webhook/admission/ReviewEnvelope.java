package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.function.Function;

/**
 * What an AdmissionReview and a ConversionReview request share: the kind, an apiVersion of the two the API server
 * may send, and a request object with a uid the response must echo.
 *
 * @param apiVersion the review's apiVersion, which the response repeats
 */
public record ReviewEnvelope(String apiVersion, JsonNode request, String uid) {
    /**
     * The envelope of {@code root}, a review of {@code kind} in {@code v1} or {@code v1beta1}; anything else is
     * reported through {@code bad}, with a message saying what is wrong.
     */
    public static ReviewEnvelope read(JsonNode root, String kind, String v1, String v1beta1,
                                      Function<String, ? extends RuntimeException> bad) {
        String actualKind = root.path("kind").asText("");
        String apiVersion = root.path("apiVersion").asText("");
        if (!kind.equals(actualKind)) {
            throw bad.apply("expected kind " + kind + ", got " + (actualKind.isEmpty() ? "no kind" : "'" + actualKind + "'"));
        }
        if (!v1.equals(apiVersion) && !v1beta1.equals(apiVersion)) {
            throw bad.apply("unsupported " + kind + " apiVersion '" + apiVersion + "': expected " + v1 + " or " + v1beta1);
        }
        JsonNode request = root.get("request");
        if (request == null || !request.isObject()) {
            throw bad.apply(kind + " has no request");
        }
        String uid = request.path("uid").asText("");
        if (uid.isEmpty()) {
            throw bad.apply(kind + " request.uid is missing");
        }
        return new ReviewEnvelope(apiVersion, request, uid);
    }
}
