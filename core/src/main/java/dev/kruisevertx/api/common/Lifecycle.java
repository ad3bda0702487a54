package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/**
 * Hooks a workload honours around a pod's life: before it becomes Normal, around an in-place update, before
 * deletion.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class Lifecycle extends UnknownFields {
    @JsonPropertyDescription("Hook that holds a pod in PreparingDelete before it is deleted.")
    private LifecycleHook preDelete;
    @JsonPropertyDescription("Hook that holds a pod in PreparingUpdate before an in-place update and in Updated "
            + "after it.")
    private LifecycleHook inPlaceUpdate;
    @JsonPropertyDescription("Hook that holds a new pod in PreparingNormal until it may become Normal.")
    private LifecycleHook preNormal;

    public LifecycleHook getPreDelete() {
        return preDelete;
    }

    public void setPreDelete(LifecycleHook preDelete) {
        this.preDelete = preDelete;
    }

    public LifecycleHook getInPlaceUpdate() {
        return inPlaceUpdate;
    }

    public void setInPlaceUpdate(LifecycleHook inPlaceUpdate) {
        this.inPlaceUpdate = inPlaceUpdate;
    }

    public LifecycleHook getPreNormal() {
        return preNormal;
    }

    public void setPreNormal(LifecycleHook preNormal) {
        this.preNormal = preNormal;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Lifecycle that)) return false;
        return Objects.equals(preDelete, that.preDelete) && Objects.equals(inPlaceUpdate, that.inPlaceUpdate)
                && Objects.equals(preNormal, that.preNormal) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(preDelete, inPlaceUpdate, preNormal, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "Lifecycle{preDelete=" + preDelete + ", inPlaceUpdate=" + inPlaceUpdate + ", preNormal=" + preNormal
                + '}';
    }
}
