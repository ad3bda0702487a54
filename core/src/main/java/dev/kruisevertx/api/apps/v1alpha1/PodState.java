package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Map;
import java.util.Objects;

/** What a PersistentPodState recorded for one pod once it was ready. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodState extends UnknownFields {
    @JsonPropertyDescription("pod.spec.nodeName")
    private String nodeName;
    @JsonPropertyDescription("Node topology labels key=value, for example kubernetes.io/hostname=node-1.")
    private Map<String, String> nodeTopologyLabels;
    @JsonPropertyDescription("The pod's recorded annotations.")
    private Map<String, String> annotations;

    public PodState() {
    }

    public PodState(String nodeName, Map<String, String> nodeTopologyLabels, Map<String, String> annotations) {
        this.nodeName = nodeName;
        this.nodeTopologyLabels = nodeTopologyLabels;
        this.annotations = annotations;
    }

    public String getNodeName() {
        return nodeName;
    }

    public void setNodeName(String nodeName) {
        this.nodeName = nodeName;
    }

    public Map<String, String> getNodeTopologyLabels() {
        return nodeTopologyLabels;
    }

    public void setNodeTopologyLabels(Map<String, String> nodeTopologyLabels) {
        this.nodeTopologyLabels = nodeTopologyLabels;
    }

    /** The labels, never null. */
    public Map<String, String> labels() {
        return nodeTopologyLabels == null ? Map.of() : nodeTopologyLabels;
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    /** The annotations, never null. */
    public Map<String, String> annotations() {
        return annotations == null ? Map.of() : annotations;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PodState p && Objects.equals(nodeName, p.nodeName)
                && labels().equals(p.labels()) && annotations().equals(p.annotations()) && unknownFieldsEqual(p);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nodeName, labels(), annotations());
    }
}
