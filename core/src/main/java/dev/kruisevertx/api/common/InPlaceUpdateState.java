package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The JSON document in pod annotation {@value WellKnown#INPLACE_UPDATE_STATE_ANNOTATION}: the progress of an
 * in-place update, written when the update starts and read to tell when it is done. Field names as OpenKruise,
 * so pods updated by either implementation can be finished by the other.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"revision", "updateTimestamp", "lastContainerStatuses", "updateEnvFromMetadata", "updateResources",
        "updateImages", "verticalUpdateOnly", "nextContainerImages", "nextContainerRefMetadata", "nextContainerResources",
        "preCheckBeforeNext", "containerBatchesRecord"})
public class InPlaceUpdateState extends UnknownFields {
    /** Revision (ControllerRevision name) the pod is being updated to. */
    private String revision;
    /** RFC 3339 time the in-place update started. */
    private String updateTimestamp;
    /** Container name to its status before the update. */
    private Map<String, InPlaceUpdateContainerStatus> lastContainerStatuses;
    /** Env values taken from pod labels/annotations change in this update. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean updateEnvFromMetadata;
    /** Container resources change in this update. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean updateResources;
    /** Container images change in this update. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    private boolean updateImages;
    /** Only resources change in this update (OpenKruise always writes this flag). */
    private boolean verticalUpdateOnly;
    /** Images of lower-priority containers, patched in a later batch. */
    private Map<String, String> nextContainerImages;
    /** Labels/annotations referenced by env of lower-priority containers, applied in a later batch. */
    private Map<String, ObjectMeta> nextContainerRefMetadata;
    /** Resources of lower-priority containers, patched in a later batch. */
    private Map<String, ResourceRequirements> nextContainerResources;
    /** What must hold before the next batch is patched. */
    private InPlaceUpdatePreCheckBeforeNext preCheckBeforeNext;
    /** Batches patched so far in this revision. */
    private List<InPlaceUpdateContainerBatch> containerBatchesRecord;

    /**
     * The state recorded on a pod: the current annotation, else the pre-v1.0 one; empty when neither is set.
     *
     * @throws IllegalArgumentException when the annotation is not valid JSON
     */
    public static Optional<InPlaceUpdateState> readFrom(HasMetadata pod) {
        Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        if (annotations == null) {
            return Optional.empty();
        }
        String key = WellKnown.INPLACE_UPDATE_STATE_ANNOTATION;
        String json = annotations.get(key);
        if (json == null) {
            key = WellKnown.INPLACE_UPDATE_STATE_ANNOTATION_OLD;
            json = annotations.get(key);
        }
        if (json == null || json.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ApiJson.fromAnnotation(key, json, InPlaceUpdateState.class));
    }

    /** Compact JSON for the annotation value. */
    public String toJson() {
        return ApiJson.toJson(this);
    }

    public String getRevision() {
        return revision;
    }

    public void setRevision(String revision) {
        this.revision = revision;
    }

    public String getUpdateTimestamp() {
        return updateTimestamp;
    }

    public void setUpdateTimestamp(String updateTimestamp) {
        this.updateTimestamp = updateTimestamp;
    }

    public Map<String, InPlaceUpdateContainerStatus> getLastContainerStatuses() {
        return lastContainerStatuses;
    }

    public void setLastContainerStatuses(Map<String, InPlaceUpdateContainerStatus> lastContainerStatuses) {
        this.lastContainerStatuses = lastContainerStatuses;
    }

    public boolean isUpdateEnvFromMetadata() {
        return updateEnvFromMetadata;
    }

    public void setUpdateEnvFromMetadata(boolean updateEnvFromMetadata) {
        this.updateEnvFromMetadata = updateEnvFromMetadata;
    }

    public boolean isUpdateResources() {
        return updateResources;
    }

    public void setUpdateResources(boolean updateResources) {
        this.updateResources = updateResources;
    }

    public boolean isUpdateImages() {
        return updateImages;
    }

    public void setUpdateImages(boolean updateImages) {
        this.updateImages = updateImages;
    }

    public boolean isVerticalUpdateOnly() {
        return verticalUpdateOnly;
    }

    public void setVerticalUpdateOnly(boolean verticalUpdateOnly) {
        this.verticalUpdateOnly = verticalUpdateOnly;
    }

    public Map<String, String> getNextContainerImages() {
        return nextContainerImages;
    }

    public void setNextContainerImages(Map<String, String> nextContainerImages) {
        this.nextContainerImages = nextContainerImages;
    }

    public Map<String, ObjectMeta> getNextContainerRefMetadata() {
        return nextContainerRefMetadata;
    }

    public void setNextContainerRefMetadata(Map<String, ObjectMeta> nextContainerRefMetadata) {
        this.nextContainerRefMetadata = nextContainerRefMetadata;
    }

    public Map<String, ResourceRequirements> getNextContainerResources() {
        return nextContainerResources;
    }

    public void setNextContainerResources(Map<String, ResourceRequirements> nextContainerResources) {
        this.nextContainerResources = nextContainerResources;
    }

    public InPlaceUpdatePreCheckBeforeNext getPreCheckBeforeNext() {
        return preCheckBeforeNext;
    }

    public void setPreCheckBeforeNext(InPlaceUpdatePreCheckBeforeNext preCheckBeforeNext) {
        this.preCheckBeforeNext = preCheckBeforeNext;
    }

    public List<InPlaceUpdateContainerBatch> getContainerBatchesRecord() {
        return containerBatchesRecord;
    }

    public void setContainerBatchesRecord(List<InPlaceUpdateContainerBatch> containerBatchesRecord) {
        this.containerBatchesRecord = containerBatchesRecord;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof InPlaceUpdateState that)) return false;
        return updateEnvFromMetadata == that.updateEnvFromMetadata
                && updateResources == that.updateResources
                && updateImages == that.updateImages
                && verticalUpdateOnly == that.verticalUpdateOnly
                && Objects.equals(revision, that.revision)
                && Objects.equals(updateTimestamp, that.updateTimestamp)
                && Objects.equals(lastContainerStatuses, that.lastContainerStatuses)
                && Objects.equals(nextContainerImages, that.nextContainerImages)
                && Objects.equals(nextContainerRefMetadata, that.nextContainerRefMetadata)
                && Objects.equals(nextContainerResources, that.nextContainerResources)
                && Objects.equals(preCheckBeforeNext, that.preCheckBeforeNext)
                && Objects.equals(containerBatchesRecord, that.containerBatchesRecord)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(revision, updateTimestamp, lastContainerStatuses, updateEnvFromMetadata, updateResources,
                updateImages, verticalUpdateOnly, nextContainerImages, nextContainerRefMetadata,
                nextContainerResources, preCheckBeforeNext, containerBatchesRecord, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "InPlaceUpdateState" + toJson();
    }
}
