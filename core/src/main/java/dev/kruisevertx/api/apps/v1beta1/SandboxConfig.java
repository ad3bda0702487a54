package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Map;

/** Labels and annotations of the pod sandbox the CRI pulls in (some runtimes choose a snapshotter or auth by them). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SandboxConfig extends UnknownFields {
    @JsonPropertyDescription("Labels of the pod sandbox the image is pulled for.")
    private Map<String, String> labels;
    @JsonPropertyDescription("Annotations of the pod sandbox the image is pulled for.")
    private Map<String, String> annotations;

    public Map<String, String> getLabels() {
        return labels;
    }

    public void setLabels(Map<String, String> labels) {
        this.labels = labels;
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }
}
