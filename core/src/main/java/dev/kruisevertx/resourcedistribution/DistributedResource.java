package dev.kruisevertx.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The resource a ResourceDistribution carries ({@code spec.resource}): a core/v1 Secret or ConfigMap, the only kinds
 * OpenKruise v1.9.0 supports.
 *
 * @param kind    Secret or ConfigMap
 * @param name    {@code metadata.name}
 * @param content the object as given
 * @param hash    SHA-256 (hex) of the compact JSON, written to every copy as
 *                {@code kruise.io/resourcedistribution.resource.hashcode}
 */
public record DistributedResource(String kind, String name, ObjectNode content, String hash) {
    public static final List<String> SUPPORTED_KINDS = List.of("Secret", "ConfigMap");

    /**
     * Reads {@code spec.resource}.
     *
     * @throws IllegalArgumentException with what is wrong: empty, not an object, kind or apiVersion not supported,
     *                                  no name
     */
    public static DistributedResource parse(JsonNode resource) {
        if (resource == null || resource.isNull() || resource.isMissingNode()
                || (resource.isObject() && resource.isEmpty())) {
            throw new IllegalArgumentException("empty resource is not allowed");
        }
        if (!resource.isObject()) {
            throw new IllegalArgumentException("failed to deserialize resource, please check your spec.resource: "
                    + "it must be an object, not " + resource.getNodeType().name().toLowerCase());
        }
        String apiVersion = resource.path("apiVersion").asText("");
        String kind = resource.path("kind").asText("");
        if (kind.isEmpty() || !resource.path("kind").isTextual()) {
            throw new IllegalArgumentException("failed to deserialize resource, please check your spec.resource: "
                    + "Object 'Kind' is missing");
        }
        if (!"v1".equals(apiVersion) || !SUPPORTED_KINDS.contains(kind)) {
            throw new IllegalArgumentException("unknown or unsupported resource GroupKind, only support "
                    + "[/Secret /ConfigMap]");
        }
        String name = resource.path("metadata").path("name").asText("");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("resource metadata.name is required");
        }
        ObjectNode content = ((ObjectNode) resource).deepCopy();
        return new DistributedResource(kind, name, content, sha256(ApiJson.toJson(content)));
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }

    /**
     * What a copy must hold, without metadata and status, in a form that compares equal to what the API server
     * stores: a Secret's {@code stringData} is folded into {@code data} (base64) and a missing {@code type} is
     * {@code Opaque}, as the API server does.
     */
    public static ObjectNode comparable(JsonNode object) {
        ObjectNode out = object.deepCopy();
        out.remove("metadata");
        out.remove("status");
        if ("Secret".equals(out.path("kind").asText())) {
            if (out.path("type").asText("").isEmpty()) {
                out.put("type", "Opaque");
            }
            JsonNode stringData = out.remove("stringData");
            if (stringData != null && stringData.isObject() && !stringData.isEmpty()) {
                ObjectNode data = out.path("data").isObject() ? (ObjectNode) out.get("data") : out.putObject("data");
                Iterator<Map.Entry<String, JsonNode>> it = stringData.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    data.put(e.getKey(), Base64.getEncoder().encodeToString(
                            e.getValue().asText("").getBytes(StandardCharsets.UTF_8)));
                }
            }
            if (out.path("data").isObject() && out.get("data").isEmpty()) {
                out.remove("data");
            }
        } else if (out.path("data").isObject() && out.get("data").isEmpty()) {
            out.remove("data");
        }
        if (out.path("binaryData").isObject() && out.get("binaryData").isEmpty()) {
            out.remove("binaryData");
        }
        return out;
    }
}
