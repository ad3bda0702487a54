package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import java.io.IOException;

/**
 * What an AdmissionReview and a ConversionReview request share: the kind, an apiVersion of the two the API server
 * may send, and a request object with a uid the response must echo.
 * <p>
 * kube-apiserver matches every answer to its request by uid, kind and apiVersion, and shows the message of a denial
 * (or of a failed conversion) to its user; any other answer, a 4xx included, is a failed call to it, which its
 * failurePolicy turns into an error without the webhook's words. So once a body has a supported apiVersion and a
 * string request.uid, whatever else is wrong is answered as a review ({@link BadReview#answerable()}); only a body
 * without them gets a plain 4xx.
 *
 * @param apiVersion the review's apiVersion, which the response repeats
 */
public record ReviewEnvelope(String apiVersion, JsonNode request, String uid) {
    /**
     * Reads review bodies the way Go's encoding/json reads what kube-apiserver sends: one JSON value, nothing after
     * it (Jackson would otherwise stop after the first value and ignore the rest).
     */
    private static final ObjectReader READER = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /**
     * Parses a review body of {@code kind}: UTF-8 JSON (as RFC 8259 requires between systems, and kube-apiserver
     * sends), one object.
     */
    public static JsonNode parse(byte[] body, String kind) {
        if (body == null || body.length == 0) {
            throw new BadReview("request body is empty: expected " + article(kind));
        }
        if (body.length >= 2 && (body[0] == 0 || body[1] == 0 || (body[0] & 0xFE) == 0xFE && (body[1] & 0xFE) == 0xFE)) {
            // Jackson would detect UTF-16 and UTF-32 and read them; kube-apiserver never sends them.
            throw new BadReview("request body must be JSON in UTF-8, got UTF-16 or UTF-32");
        }
        JsonNode root;
        try {
            root = READER.readTree(body);
        } catch (IOException e) {
            throw new BadReview("request body is not valid JSON: " + parserMessage(e));
        }
        if (root == null || !root.isObject()) {
            throw new BadReview("request body must be a JSON object (" + article(kind) + ")");
        }
        return root;
    }

    /**
     * The envelope of {@code root}, a review of {@code kind} in {@code v1} or {@code v1beta1}.
     *
     * @throws BadReview saying what is wrong, answerable when the apiVersion is supported and request.uid is a string
     */
    public static ReviewEnvelope read(JsonNode root, String kind, String v1, String v1beta1) {
        JsonNode versionNode = root.path("apiVersion");
        String apiVersion = versionNode.isTextual() ? versionNode.asText() : "";
        boolean supported = v1.equals(apiVersion) || v1beta1.equals(apiVersion);
        JsonNode request = root.get("request");
        JsonNode uidNode = request == null ? null : request.get("uid");
        String uid = uidNode != null && uidNode.isTextual() && !uidNode.asText().isEmpty() ? uidNode.asText() : null;
        JsonNode kindNode = root.path("kind");
        if (!kind.equals(kindNode.isTextual() ? kindNode.asText() : null)) {
            throw new BadReview("expected kind " + kind + ", got " + (kindNode.isMissingNode() ? "no kind" : shown(kindNode)),
                    supported && uid != null ? new ReviewEnvelope(apiVersion, request, uid) : null);
        }
        if (!supported) {
            throw new BadReview("unsupported " + kind + " apiVersion " + shown(versionNode) + ": expected " + v1 + " or "
                    + v1beta1);
        }
        if (request == null || !request.isObject()) {
            throw new BadReview(kind + " has no request object");
        }
        if (uid == null) {
            throw new BadReview(kind + " request.uid " + (uidNode == null || uidNode.isNull() ? "is missing"
                    : "must be a non-empty string, got " + shown(uidNode)));
        }
        return new ReviewEnvelope(apiVersion, request, uid);
    }

    /** A refusal of this envelope's request: answerable, in its apiVersion with its uid. */
    public BadReview invalid(String message) {
        return new BadReview(message, this);
    }

    /** A value for a message: strings quoted and cut at 64 characters, other JSON by its type. */
    public static String shown(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "nothing";
        }
        if (value.isTextual()) {
            String s = value.asText();
            return "'" + (s.length() > 64 ? s.substring(0, 64) + "..." : s) + "'";
        }
        if (value.isContainerNode()) {
            return value.isArray() ? "an array" : "an object";
        }
        if (value.isNumber()) {
            return "a number";
        }
        return value.isBoolean() ? "a boolean" : "null";
    }

    /** Jackson's message without the names of its classes and settings. */
    static String parserMessage(IOException e) {
        String m = TypedMutatingHandler.rootMessage(e);
        if (m.startsWith("Trailing token")) {
            return "unexpected content after the JSON value";
        }
        return m.replaceAll(", from `[^`]*`\\)", ")").replaceAll("\\s*\\(bound as `[^`]*`\\)", "")
                .replaceAll(":? ?not allowed as per `[^`]*`", "");
    }

    private static String article(String kind) {
        return (kind.startsWith("A") ? "an " : "a ") + kind;
    }
}
