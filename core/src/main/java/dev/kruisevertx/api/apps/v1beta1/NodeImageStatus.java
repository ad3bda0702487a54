package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Map;

/** Observed state of a NodeImage, written by the node agent: counts and the phase of every tag. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class NodeImageStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("The desired number of pulling tasks, this is typically equal to the number of images in spec.")
    private int desired;
    @Required
    @JsonPropertyDescription("The number of pulling tasks which reached phase Succeeded.")
    private int succeeded;
    @Required
    @JsonPropertyDescription("The number of pulling tasks  which reached phase Failed.")
    private int failed;
    @Required
    @JsonPropertyDescription("The number of pulling tasks which are not finished.")
    private int pulling;
    @Required
    @JsonPropertyDescription("The number of pulling tasks which are waiting.")
    private int waiting;
    @JsonPropertyDescription("all statuses of active image pulling tasks")
    private Map<String, ImageStatus> imageStatuses;
    @JsonPropertyDescription("The first of all job has finished on this node. When a node is added to the cluster, we want to know the time when the node's image pulling is completed, and use it to trigger the operation of the upper system.")
    private SyncStatus firstSyncStatus;

    public int getDesired() {
        return desired;
    }

    public void setDesired(int desired) {
        this.desired = desired;
    }

    public int getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(int succeeded) {
        this.succeeded = succeeded;
    }

    public int getFailed() {
        return failed;
    }

    public void setFailed(int failed) {
        this.failed = failed;
    }

    public int getPulling() {
        return pulling;
    }

    public void setPulling(int pulling) {
        this.pulling = pulling;
    }

    public int getWaiting() {
        return waiting;
    }

    public void setWaiting(int waiting) {
        this.waiting = waiting;
    }

    public Map<String, ImageStatus> getImageStatuses() {
        return imageStatuses;
    }

    public void setImageStatuses(Map<String, ImageStatus> imageStatuses) {
        this.imageStatuses = imageStatuses;
    }

    public SyncStatus getFirstSyncStatus() {
        return firstSyncStatus;
    }

    public void setFirstSyncStatus(SyncStatus firstSyncStatus) {
        this.firstSyncStatus = firstSyncStatus;
    }

    /** The image statuses, never null. */
    public Map<String, ImageStatus> imageStatuses() {
        return imageStatuses == null ? Map.of() : imageStatuses;
    }
}
