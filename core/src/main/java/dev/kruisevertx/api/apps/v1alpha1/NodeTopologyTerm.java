package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Node label keys whose values a PersistentPodState records and later asks for. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class NodeTopologyTerm extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("A list of node selector requirements by node's labels.")
    private List<String> nodeTopologyKeys;

    public NodeTopologyTerm() {
    }

    public NodeTopologyTerm(List<String> nodeTopologyKeys) {
        this.nodeTopologyKeys = nodeTopologyKeys == null ? null : new ArrayList<>(nodeTopologyKeys);
    }

    public List<String> getNodeTopologyKeys() {
        return nodeTopologyKeys;
    }

    public void setNodeTopologyKeys(List<String> nodeTopologyKeys) {
        this.nodeTopologyKeys = nodeTopologyKeys;
    }

    /** The keys, never null. */
    public List<String> keys() {
        return nodeTopologyKeys == null ? List.of() : nodeTopologyKeys;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeTopologyTerm t && Objects.equals(nodeTopologyKeys, t.nodeTopologyKeys)
                && unknownFieldsEqual(t);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(nodeTopologyKeys);
    }
}
