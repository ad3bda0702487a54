package dev.kruisevertx.inplace;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an in-place update changes on a pod, computed from two revisions by {@link InPlaceUpdateCalculator}.
 *
 * @param revision              revision the pod moves to
 * @param containerImages       container name to new image
 * @param containerRefMetadata  container name to the labels/annotations its env reads (via fieldRef) that change
 * @param labelsPatch           other pod label changes (a null value removes the label)
 * @param annotationsPatch      other pod annotation changes (a null value removes the annotation)
 * @param updateEnvFromMetadata some env taken from metadata changes
 * @param graceSeconds          seconds to wait after marking the pod not ready before changing containers
 * @param oldTemplate           template of the revision the pod runs (may be null)
 * @param newTemplate           template of the target revision (may be null)
 */
public record InPlaceUpdateSpec(String revision, Map<String, String> containerImages,
                                Map<String, ObjectMeta> containerRefMetadata, Map<String, String> labelsPatch,
                                Map<String, String> annotationsPatch, boolean updateEnvFromMetadata, int graceSeconds,
                                PodTemplateSpec oldTemplate, PodTemplateSpec newTemplate) {

    public InPlaceUpdateSpec {
        containerImages = frozen(containerImages);
        containerRefMetadata = frozen(containerRefMetadata);
        labelsPatch = frozen(labelsPatch);
        annotationsPatch = frozen(annotationsPatch);
    }

    private static <V> Map<String, V> frozen(Map<String, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /** Nothing to patch at all: only the revision changes. */
    public boolean isEmpty() {
        return containerImages.isEmpty() && containerRefMetadata.isEmpty() && labelsPatch.isEmpty()
                && annotationsPatch.isEmpty();
    }

    /**
     * The metadata change as OpenKruise keeps it ({@code metaDataPatch}): a strategic-merge patch of labels and
     * annotations, null deleting a key; null when nothing changes.
     */
    public String metaDataPatch() {
        if (labelsPatch.isEmpty() && annotationsPatch.isEmpty()) {
            return null;
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        if (!labelsPatch.isEmpty()) {
            metadata.put("labels", labelsPatch);
        }
        if (!annotationsPatch.isEmpty()) {
            metadata.put("annotations", annotationsPatch);
        }
        // Jackson keeps null map values, which the patch needs to express deletions.
        return ApiJson.toJson(Map.of("metadata", metadata));
    }

    /** The same spec with another grace period. */
    public InPlaceUpdateSpec withGraceSeconds(int seconds) {
        return new InPlaceUpdateSpec(revision, containerImages, containerRefMetadata, labelsPatch, annotationsPatch,
                updateEnvFromMetadata, seconds, oldTemplate, newTemplate);
    }

    /**
     * JSON for the {@code apps.kruise.io/inplace-update-grace} annotation, field for field as OpenKruise writes its
     * UpdateSpec ({@code metaDataPatch} base64 as Go encodes bytes). The templates are left out: nothing reads
     * them back and they would make the annotation as large as the pod spec.
     */
    public String toGraceJson() {
        GraceJson g = new GraceJson();
        g.revision = revision;
        g.containerImages = containerImages.isEmpty() ? null : containerImages;
        g.containerRefMetadata = containerRefMetadata.isEmpty() ? null : containerRefMetadata;
        String patch = metaDataPatch();
        g.metaDataPatch = patch == null ? null : patch.getBytes(StandardCharsets.UTF_8);
        g.updateEnvFromMetadata = updateEnvFromMetadata;
        g.graceSeconds = graceSeconds;
        return ApiJson.toJson(g);
    }

    /**
     * Reads the grace annotation.
     *
     * @throws IllegalArgumentException naming the annotation when it is not a valid spec
     */
    public static InPlaceUpdateSpec fromGraceJson(String annotationKey, String json) {
        GraceJson g = ApiJson.fromAnnotation(annotationKey, json, GraceJson.class);
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (g.metaDataPatch != null && g.metaDataPatch.length > 0) {
            String patch = new String(g.metaDataPatch, StandardCharsets.UTF_8);
            Map<String, Map<String, Map<String, String>>> parsed;
            try {
                parsed = ApiJson.serialization().unmarshal(patch,
                        new TypeReference<Map<String, Map<String, Map<String, String>>>>() {
                        });
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("annotation " + annotationKey
                        + " holds a metaDataPatch that is not a labels/annotations patch: " + e.getMessage(), e);
            }
            Map<String, Map<String, String>> metadata = parsed == null ? null : parsed.get("metadata");
            if (metadata != null) {
                if (metadata.get("labels") != null) {
                    labels.putAll(metadata.get("labels"));
                }
                if (metadata.get("annotations") != null) {
                    annotations.putAll(metadata.get("annotations"));
                }
            }
        }
        return new InPlaceUpdateSpec(g.revision, g.containerImages, g.containerRefMetadata, labels, annotations,
                g.updateEnvFromMetadata, g.graceSeconds, null, null);
    }

    /** Wire form of the grace annotation. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    static final class GraceJson {
        public String revision;
        public Map<String, String> containerImages;
        public Map<String, ObjectMeta> containerRefMetadata;
        public byte[] metaDataPatch;
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        public boolean updateEnvFromMetadata;
        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        public int graceSeconds;
    }
}
