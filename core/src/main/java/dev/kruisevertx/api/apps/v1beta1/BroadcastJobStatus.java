package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.common.SchemaFormat;
import io.fabric8.generator.annotation.Required;

import java.util.List;
import java.util.Optional;

/** Observed state of a BroadcastJob; the counts are always written, as OpenKruise's (no omitempty). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class BroadcastJobStatus extends UnknownFields {
    @JsonPropertyDescription("The latest available observations of an object's current state.")
    private List<JobCondition> conditions;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the job was acknowledged by the job controller.")
    private String startTime;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the job was completed.")
    private String completionTime;
    @Required
    @JsonPropertyDescription("The number of actively running pods.")
    private int active;
    @Required
    @JsonPropertyDescription("The number of pods which reached phase Succeeded.")
    private int succeeded;
    @Required
    @JsonPropertyDescription("The number of pods which reached phase Failed.")
    private int failed;
    @Required
    @JsonPropertyDescription("The desired number of pods, this is typically equal to the number of nodes satisfied "
            + "to run pods.")
    private int desired;
    @Required
    @JsonPropertyDescription("The phase of the job.")
    private String phase = "";

    public List<JobCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<JobCondition> conditions) {
        this.conditions = conditions;
    }

    public String getStartTime() {
        return startTime;
    }

    public void setStartTime(String startTime) {
        this.startTime = startTime;
    }

    public String getCompletionTime() {
        return completionTime;
    }

    public void setCompletionTime(String completionTime) {
        this.completionTime = completionTime;
    }

    public int getActive() {
        return active;
    }

    public void setActive(int active) {
        this.active = active;
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

    public int getDesired() {
        return desired;
    }

    public void setDesired(int desired) {
        this.desired = desired;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    @JsonIgnore
    public Optional<BroadcastJobPhase> phaseValue() {
        return BroadcastJobPhase.fromValue(phase);
    }
}
