package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import dev.kruisevertx.api.common.SchemaFormat;
import io.fabric8.kubernetes.api.model.ObjectReference;

import java.util.List;

/** Observed state of an AdvancedCronJob. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdvancedCronJobStatus extends UnknownFields {
    @JsonPropertyDescription("The kind of the children: Job, BroadcastJob or ImageListPullJob.")
    private String type;
    @JsonPropertyDescription("A list of pointers to currently running jobs.")
    private List<ObjectReference> active;
    @SchemaFormat("date-time")
    @JsonPropertyDescription("Information when was the last time the job was successfully scheduled.")
    private String lastScheduleTime;

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public List<ObjectReference> getActive() {
        return active;
    }

    public void setActive(List<ObjectReference> active) {
        this.active = active;
    }

    public String getLastScheduleTime() {
        return lastScheduleTime;
    }

    public void setLastScheduleTime(String lastScheduleTime) {
        this.lastScheduleTime = lastScheduleTime;
    }
}
