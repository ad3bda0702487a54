package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** OpenKruise master's v1beta1 {@code NodeTopologyTerm}: node label keys, spelled {@code keys}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PersistentPodStateTopologyTerm extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("A list of node selector requirements by node's labels.")
    private List<String> keys;

    public List<String> getKeys() {
        return keys;
    }

    public void setKeys(List<String> keys) {
        this.keys = keys;
    }
}
