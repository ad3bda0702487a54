package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPodMetadata;
import dev.kruisevertx.revision.RevisionData;

import java.util.List;
import java.util.Map;

/**
 * A SidecarSet's {@code patchPodMetadata} applied to the annotations of a pod being injected (OpenKruise's
 * {@code PatchPodMetadata}): Retain adds a key the pod does not have, Overwrite sets it, MergePatchJson applies the
 * value as a JSON merge patch (RFC 7386) to the pod's JSON value, or sets it when the pod has none. The merged JSON
 * is written compactly with sorted keys, as Go writes a decoded map. A value that is not JSON refuses the pod.
 */
public final class PodMetadataPatch {
    /** One JSON value and nothing after it (Go's json.Unmarshal refuses trailing data too). */
    private static final com.fasterxml.jackson.databind.ObjectMapper STRICT = new com.fasterxml.jackson.databind.ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private PodMetadataPatch() {
    }

    /** Applies the patches to {@code annotations} (changed in place). */
    public static void apply(Map<String, String> annotations, List<SidecarSetPatchPodMetadata> patches) {
        if (patches == null) {
            return;
        }
        for (SidecarSetPatchPodMetadata patch : patches) {
            Map<String, String> values = patch.getAnnotations() == null ? Map.of() : patch.getAnnotations();
            String policy = patch.getPatchPolicy() == null ? "" : patch.getPatchPolicy();
            switch (policy) {
                case "", "Retain" -> values.forEach(annotations::putIfAbsent);
                case "Overwrite" -> annotations.putAll(values);
                case "MergePatchJson" -> values.forEach((key, json) -> {
                    String origin = annotations.get(key);
                    annotations.put(key, origin == null || origin.isEmpty() ? json : merge(key, origin, json));
                });
                default -> {
                    // OpenKruise ignores a policy it does not know (validation refuses it first).
                }
            }
        }
    }

    private static String merge(String key, String origin, String patchJson) {
        JsonNode doc = parse(key, origin, "the pod's value");
        JsonNode patch = parse(key, patchJson, "the SidecarSet's patch");
        return new String(RevisionData.bytes(RevisionData.sortKeys(mergePatch(doc, patch))),
                java.nio.charset.StandardCharsets.UTF_8);
    }

    private static JsonNode parse(String key, String json, String what) {
        try {
            return dev.kruisevertx.api.common.ApiJson.serialization().unmarshal(json, JsonNode.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("patchPodMetadata MergePatchJson of annotation " + key + ": " + what
                    + " is not JSON");
        }
    }

    /**
     * Why a MergePatchJson value cannot be used as a merge patch (null when it can): not JSON (one value, nothing
     * after it), or {@code null}, which OpenKruise's merge-patch library refuses as a patch.
     */
    public static String mergePatchValueProblem(String json) {
        JsonNode node;
        try {
            node = json == null ? null : STRICT.readTree(json);
        } catch (java.io.IOException | RuntimeException e) {
            String detail = e instanceof com.fasterxml.jackson.core.JsonProcessingException p
                    ? p.getOriginalMessage() : e.getMessage();
            return "is not JSON (" + (detail == null ? "unreadable" : detail.lines().findFirst().orElse("")) + ")";
        }
        if (node == null || node.isMissingNode()) {
            return "is empty; a JSON merge patch such as {\"key\":\"value\"} is expected";
        }
        if (node.isNull()) {
            return "is null; a JSON merge patch such as {\"key\":\"value\"} is expected";
        }
        return null;
    }

    /** RFC 7386. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!(patch instanceof ObjectNode p)) {
            return patch;
        }
        ObjectNode out = target instanceof ObjectNode t ? t.deepCopy() : p.objectNode();
        p.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                out.remove(e.getKey());
            } else {
                out.set(e.getKey(), mergePatch(out.get(e.getKey()), e.getValue()));
            }
        });
        return out;
    }
}
