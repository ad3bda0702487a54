package dev.kruisevertx.webhook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.Json;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * What a correct answer to a {@link HostileReviews.HostileRequest} is, the way kube-apiserver reads answers:
 * <ul>
 *   <li>never a 5xx, neither as HTTP status nor as the status code inside a review;</li>
 *   <li>a body that carries a usable uid gets HTTP 200 and a review of the same kind and apiVersion echoing that uid:
 *       an AdmissionReview allowing it, or denying it with a 4xx code and a message; a ConversionReview with result
 *       Success (one converted object per object) or Failure with a message. kube-apiserver verifies the uid, kind
 *       and apiVersion of every answer and shows a denial's message to the user;</li>
 *   <li>a body too broken to carry a uid, a body over the limit or of another content type gets a 4xx with a plain
 *       message (kube-apiserver treats any non-200 answer as a failed webhook call and applies the failurePolicy,
 *       which is all it could do: it never sends such a body);</li>
 *   <li>no message shows Java internals (class names, stack frames).</li>
 * </ul>
 */
public final class HostileAnswers {
    /** Words of a Java stack a user must never see. */
    static final List<String> LEAKS = List.of("java.", "javax.", "dev.kruisevertx", "com.fasterxml", "io.fabric8",
            "io.vertx", "Exception", "NullPointer", "\tat ", "reference chain");

    private HostileAnswers() {
    }

    /** @return what is wrong with the answer, or empty when it is correct */
    public static Optional<String> check(HostileReviews.HostileRequest request, boolean conversion, int status,
                                         byte[] body, long maxBodyBytes) {
        String text = new String(body, StandardCharsets.UTF_8);
        if (status >= 500) {
            return Optional.of("HTTP " + status + " " + clip(text));
        }
        if (request.body().length > maxBodyBytes) {
            return status == 413 ? plainMessage(status, text) : Optional.of("expected 413 for a body over the limit, got "
                    + status + " " + clip(text));
        }
        if (request.contentType() != null && !isJson(request.contentType())) {
            return status == 415 ? plainMessage(status, text) : Optional.of("expected 415 for content type "
                    + request.contentType() + ", got " + status + " " + clip(text));
        }
        if (request.expectedUid() == null) {
            if (status == 200) {
                return Optional.of("a body without a usable uid was answered 200: " + clip(text));
            }
            return status >= 400 ? plainMessage(status, text) : Optional.of("HTTP " + status + " " + clip(text));
        }
        if (status != 200) {
            return Optional.of("a review with uid " + request.expectedUid() + " was answered HTTP " + status + " "
                    + clip(text) + " instead of a review");
        }
        JsonNode answer;
        try {
            answer = Json.MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            return Optional.of("the answer is not JSON: " + clip(text));
        }
        String kind = conversion ? "ConversionReview" : "AdmissionReview";
        if (!kind.equals(answer.path("kind").asText()) || !request.apiVersion().equals(answer.path("apiVersion").asText())) {
            return Optional.of("expected a " + kind + " " + request.apiVersion() + ", got " + clip(text));
        }
        JsonNode response = answer.path("response");
        if (!request.expectedUid().equals(response.path("uid").asText(null))) {
            return Optional.of("response.uid does not echo " + request.expectedUid() + ": " + clip(text));
        }
        return conversion ? conversionAnswer(request, response, text) : admissionAnswer(request, response, text);
    }

    private static Optional<String> admissionAnswer(HostileReviews.HostileRequest request, JsonNode response,
                                                    String text) {
        if (response.path("allowed").asBoolean(false)) {
            if (response.has("patch")) {
                try {
                    AdmissionReviews.decodePatch(response);
                } catch (RuntimeException e) {
                    return Optional.of("the patch is not a base64 JSON patch: " + clip(text));
                }
            }
            return Optional.empty();
        }
        if (request.valid()) {
            return Optional.of("a valid review was denied: " + clip(text));
        }
        int code = response.path("status").path("code").asInt(0);
        String message = response.path("status").path("message").asText("");
        if (code < 400 || code >= 500) {
            return Optional.of("denied with code " + code + ": " + clip(text));
        }
        return message(message, text);
    }

    private static Optional<String> conversionAnswer(HostileReviews.HostileRequest request, JsonNode response,
                                                     String text) {
        String result = response.path("result").path("status").asText("");
        if ("Success".equals(result)) {
            return response.path("convertedObjects").isArray() ? Optional.empty()
                    : Optional.of("Success without convertedObjects: " + clip(text));
        }
        if (!"Failure".equals(result)) {
            return Optional.of("result status '" + result + "': " + clip(text));
        }
        if (request.valid()) {
            return Optional.of("a valid conversion failed: " + clip(text));
        }
        return message(response.path("result").path("message").asText(""), text);
    }

    private static Optional<String> plainMessage(int status, String text) {
        return message(text.trim(), "HTTP " + status + " " + text);
    }

    private static Optional<String> message(String message, String whole) {
        if (message.isBlank()) {
            return Optional.of("no message: " + clip(whole));
        }
        for (String leak : LEAKS) {
            if (message.contains(leak)) {
                return Optional.of("the message shows '" + leak + "': " + clip(message));
            }
        }
        return Optional.empty();
    }

    static boolean isJson(String contentType) {
        String type = contentType.split(";", 2)[0].trim();
        return type.equalsIgnoreCase("application/json");
    }

    private static String clip(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }
}
