package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.util.Locale;

/**
 * Reads a request body by its Content-Type, as kube-apiserver does: JSON, YAML or Kubernetes protobuf for objects,
 * the patch media types for PATCH. Anything else is a 415 naming the type, never a JSON parse error.
 */
final class RequestBodies {
    static final String ACCEPTED = "application/json, application/yaml, " + KubeProtobuf.MEDIA_TYPE;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    private RequestBodies() {
    }

    /** The media type without parameters, lower case; "" when the client sent none. */
    static String mediaType(String contentType) {
        return contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    }

    static boolean isProtobuf(String contentType) {
        return mediaType(contentType).equals(KubeProtobuf.MEDIA_TYPE);
    }

    /** An object body (create, update, DeleteOptions, Eviction, Binding, Scale). */
    static JsonNode object(String contentType, byte[] body) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the request needs a body");
        }
        String type = mediaType(contentType);
        switch (type) {
            case "", "application/json", "*/*":
                return json(body);
            case "application/yaml":
                return yaml(body);
            case KubeProtobuf.MEDIA_TYPE:
                return KubeProtobuf.decode(body);
            default:
                throw unsupported(contentType, ACCEPTED);
        }
    }

    /** A PATCH body: JSON for the three JSON patch types, YAML for apply (which {@link Patches} then refuses). */
    static JsonNode patch(String contentType, byte[] body) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the request needs a body");
        }
        switch (mediaType(contentType)) {
            case Patches.JSON_PATCH, Patches.MERGE_PATCH, Patches.STRATEGIC_MERGE_PATCH:
                return json(body);
            case Patches.APPLY_PATCH:
                return yaml(body);
            default:
                throw unsupported(contentType, String.join(", ", Patches.JSON_PATCH, Patches.MERGE_PATCH,
                        Patches.STRATEGIC_MERGE_PATCH, Patches.APPLY_PATCH));
        }
    }

    static ApiException unsupported(String contentType, String accepted) {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format: \""
                + contentType + "\" is not supported - accepted media types include: " + accepted);
    }

    private static JsonNode json(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw ApiException.badRequest("the request body is not valid JSON: " + e.getMessage());
        }
    }

    private static JsonNode yaml(byte[] body) {
        try {
            return YAML.readTree(body);
        } catch (IOException e) {
            throw ApiException.badRequest("the request body is not valid YAML: " + e.getMessage());
        }
    }
}
