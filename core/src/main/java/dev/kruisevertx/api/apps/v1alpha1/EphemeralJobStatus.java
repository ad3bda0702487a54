package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1beta1.JobCondition;
import dev.kruisevertx.api.common.SchemaFormat;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.List;
import java.util.Optional;

/**
 * Observed state of an EphemeralJob. Phase and counts are always written (OpenKruise's have no omitempty); the
 * conditions share {@link JobCondition}'s shape (their types are {@link EphemeralJobConditionType}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class EphemeralJobStatus extends UnknownFields {
    @JsonPropertyDescription("The latest available observations of the job's state.")
    private List<JobCondition> conditions;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the job was acknowledged by the job controller.")
    private String startTime;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Represents time when the job was completed.")
    private String completionTime;
    @JsonPropertyDescription("The phase of the job.")
    private String phase = "";
    @JsonProperty("match")
    @JsonPropertyDescription("The number of total matched pods.")
    private int match;
    @JsonPropertyDescription("The number of actively running pods.")
    private int running;
    @JsonPropertyDescription("The number of pods which reached phase Succeeded.")
    private int succeeded;
    @JsonPropertyDescription("The number of waiting pods.")
    private int waiting;
    @JsonPropertyDescription("The number of pods which reached phase Failed.")
    private int failed;

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

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    @JsonIgnore
    public Optional<EphemeralJobPhase> phaseValue() {
        return EphemeralJobPhase.fromValue(phase);
    }

    public int getMatch() {
        return match;
    }

    public void setMatch(int match) {
        this.match = match;
    }

    public int getRunning() {
        return running;
    }

    public void setRunning(int running) {
        this.running = running;
    }

    public int getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(int succeeded) {
        this.succeeded = succeeded;
    }

    public int getWaiting() {
        return waiting;
    }

    public void setWaiting(int waiting) {
        this.waiting = waiting;
    }

    public int getFailed() {
        return failed;
    }

    public void setFailed(int failed) {
        this.failed = failed;
    }
}
