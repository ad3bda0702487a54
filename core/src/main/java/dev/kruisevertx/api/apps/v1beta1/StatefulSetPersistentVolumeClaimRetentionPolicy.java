package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Objects;
import java.util.Optional;

/** What happens to PVCs created from volumeClaimTemplates. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatefulSetPersistentVolumeClaimRetentionPolicy extends UnknownFields {
    @JsonPropertyDescription("Retain (default) or Delete when the StatefulSet is deleted.")
    private String whenDeleted;

    @JsonPropertyDescription("Retain (default) or Delete when a pod is removed by scale-down.")
    private String whenScaled;

    public String getWhenDeleted() {
        return whenDeleted;
    }

    public void setWhenDeleted(String whenDeleted) {
        this.whenDeleted = whenDeleted;
    }

    /** The whenDeleted policy as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<PersistentVolumeClaimRetentionPolicyType> whenDeletedValue() {
        return PersistentVolumeClaimRetentionPolicyType.fromValue(whenDeleted);
    }

    public String getWhenScaled() {
        return whenScaled;
    }

    public void setWhenScaled(String whenScaled) {
        this.whenScaled = whenScaled;
    }

    /** The whenScaled policy as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<PersistentVolumeClaimRetentionPolicyType> whenScaledValue() {
        return PersistentVolumeClaimRetentionPolicyType.fromValue(whenScaled);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof StatefulSetPersistentVolumeClaimRetentionPolicy that)) return false;
        return Objects.equals(whenDeleted, that.whenDeleted)
                && Objects.equals(whenScaled, that.whenScaled)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(whenDeleted, whenScaled, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "StatefulSetPersistentVolumeClaimRetentionPolicy{" + "whenDeleted=" + whenDeleted + ", " + "whenScaled=" + whenScaled + '}';
    }
}
