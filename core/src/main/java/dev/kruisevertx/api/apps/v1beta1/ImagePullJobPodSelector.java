package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.List;
import java.util.Map;

/** An image pull job's {@code podSelector}: the nodes running pods these labels select (a label selector, inline). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImagePullJobPodSelector extends UnknownFields {
    @JsonPropertyDescription("matchLabels is a map of {key,value} pairs.")
    private Map<String, String> matchLabels;
    @JsonPropertyDescription("matchExpressions is a list of label selector requirements. The requirements are ANDed.")
    private List<LabelSelectorRequirement> matchExpressions;

    public Map<String, String> getMatchLabels() {
        return matchLabels;
    }

    public void setMatchLabels(Map<String, String> matchLabels) {
        this.matchLabels = matchLabels;
    }

    public List<LabelSelectorRequirement> getMatchExpressions() {
        return matchExpressions;
    }

    public void setMatchExpressions(List<LabelSelectorRequirement> matchExpressions) {
        this.matchExpressions = matchExpressions;
    }

    /** Whether either label part is set (OpenKruise tests the two fields against nil). */
    public boolean hasLabelPart() {
        return matchLabels != null || matchExpressions != null;
    }

    /** The label part as a Kubernetes label selector. */
    public LabelSelector labelSelector() {
        return new LabelSelector(matchExpressions, matchLabels);
    }
}
