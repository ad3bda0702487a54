package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Objects;

/** One batch of an in-place update: when it was patched and which containers it changed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class InPlaceUpdateContainerBatch extends UnknownFields {
    /** RFC 3339 time the batch was patched. */
    private String timestamp;
    private List<String> containers;

    public InPlaceUpdateContainerBatch() {
    }

    public InPlaceUpdateContainerBatch(String timestamp, List<String> containers) {
        this.timestamp = timestamp;
        this.containers = containers;
    }

    public String getTimestamp() {
        return timestamp;
    }

    public void setTimestamp(String timestamp) {
        this.timestamp = timestamp;
    }

    public List<String> getContainers() {
        return containers;
    }

    public void setContainers(List<String> containers) {
        this.containers = containers;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof InPlaceUpdateContainerBatch that)) return false;
        return Objects.equals(timestamp, that.timestamp) && Objects.equals(containers, that.containers)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(timestamp, containers, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "InPlaceUpdateContainerBatch{timestamp=" + timestamp + ", containers=" + containers + '}';
    }
}
