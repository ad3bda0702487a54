package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Objects;

/** What must hold before the next batch of containers of an in-place update is patched. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class InPlaceUpdatePreCheckBeforeNext extends UnknownFields {
    private List<String> containersRequiredReady;

    public InPlaceUpdatePreCheckBeforeNext() {
    }

    public InPlaceUpdatePreCheckBeforeNext(List<String> containersRequiredReady) {
        this.containersRequiredReady = containersRequiredReady;
    }

    public List<String> getContainersRequiredReady() {
        return containersRequiredReady;
    }

    public void setContainersRequiredReady(List<String> containersRequiredReady) {
        this.containersRequiredReady = containersRequiredReady;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof InPlaceUpdatePreCheckBeforeNext that)) return false;
        return Objects.equals(containersRequiredReady, that.containersRequiredReady) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(containersRequiredReady, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "InPlaceUpdatePreCheckBeforeNext{containersRequiredReady=" + containersRequiredReady + '}';
    }
}
