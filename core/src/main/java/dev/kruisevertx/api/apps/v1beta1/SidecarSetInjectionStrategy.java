package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;

/** How and whether the SidecarSet is injected into new pods. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSetInjectionStrategy extends UnknownFields {
    @JsonPropertyDescription("No injection into new pods while true.")
    private Boolean paused;

    @JsonPropertyDescription("Revision injected into new pods (default: the latest).")
    private SidecarSetInjectRevision revision;

    public Boolean getPaused() {
        return paused;
    }

    public void setPaused(Boolean paused) {
        this.paused = paused;
    }

    public SidecarSetInjectRevision getRevision() {
        return revision;
    }

    public void setRevision(SidecarSetInjectRevision revision) {
        this.revision = revision;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarSetInjectionStrategy that)) return false;
        return Objects.equals(paused, that.paused) && Objects.equals(revision, that.revision)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(paused, revision, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarSetInjectionStrategy{" + "paused=" + paused + ", " + "revision=" + revision + '}';
    }
}
