package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One lifecycle hook: a pod is held in the hooked state while it carries any of these labels (with these
 * values) or finalizers; the user's own controller removes them to let the pod move on.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class LifecycleHook extends UnknownFields {
    private Map<String, String> labelsHandler;
    private List<String> finalizersHandler;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    @JsonPropertyDescription("Set the pod NotReady (KruisePodReady=False) while it is in preparingDelete or preparingUpdate; "
            + "restored once the in-place update is done. Used by the inPlaceUpdate and preDelete hooks.")
    private boolean markPodNotReady;

    public Map<String, String> getLabelsHandler() {
        return labelsHandler;
    }

    public void setLabelsHandler(Map<String, String> labelsHandler) {
        this.labelsHandler = labelsHandler;
    }

    public List<String> getFinalizersHandler() {
        return finalizersHandler;
    }

    public void setFinalizersHandler(List<String> finalizersHandler) {
        this.finalizersHandler = finalizersHandler;
    }

    public boolean isMarkPodNotReady() {
        return markPodNotReady;
    }

    public void setMarkPodNotReady(boolean markPodNotReady) {
        this.markPodNotReady = markPodNotReady;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof LifecycleHook that)) return false;
        return markPodNotReady == that.markPodNotReady && Objects.equals(labelsHandler, that.labelsHandler)
                && Objects.equals(finalizersHandler, that.finalizersHandler) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(labelsHandler, finalizersHandler, markPodNotReady, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "LifecycleHook{labelsHandler=" + labelsHandler + ", finalizersHandler=" + finalizersHandler
                + ", markPodNotReady=" + markPodNotReady + '}';
    }
}
