package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/** Knobs of an in-place update. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class InPlaceUpdateStrategy extends UnknownFields {
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Seconds between marking a pod not-ready and changing its containers during an "
            + "in-place update.")
    private int gracePeriodSeconds;

    public InPlaceUpdateStrategy() {
    }

    public InPlaceUpdateStrategy(int gracePeriodSeconds) {
        this.gracePeriodSeconds = gracePeriodSeconds;
    }

    public int getGracePeriodSeconds() {
        return gracePeriodSeconds;
    }

    public void setGracePeriodSeconds(int gracePeriodSeconds) {
        this.gracePeriodSeconds = gracePeriodSeconds;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof InPlaceUpdateStrategy that)) return false;
        return gracePeriodSeconds == that.gracePeriodSeconds && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(gracePeriodSeconds, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "InPlaceUpdateStrategy{gracePeriodSeconds=" + gracePeriodSeconds + '}';
    }
}
