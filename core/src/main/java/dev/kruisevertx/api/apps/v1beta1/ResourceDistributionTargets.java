package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargetNamespaces;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * The namespaces of a v1beta1 ResourceDistribution: all of them, or the union of the listed ones and those the label
 * selector ({@code namespaceSelector}, v1alpha1's namespaceLabelSelector) matches; the excluded ones are taken out
 * last.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceDistributionTargets extends UnknownFields {
    @JsonPropertyDescription("If true, the resource is distributed to every namespace.")
    private Boolean allNamespaces;
    @JsonPropertyDescription("Namespaces the resource is never distributed to.")
    private ResourceDistributionTargetNamespaces excludedNamespaces;
    @JsonPropertyDescription("Namespaces the resource is distributed to.")
    private ResourceDistributionTargetNamespaces includedNamespaces;
    @JsonPropertyDescription("Namespaces whose labels match are targets too.")
    private LabelSelector namespaceSelector;

    public Boolean getAllNamespaces() {
        return allNamespaces;
    }

    public void setAllNamespaces(Boolean allNamespaces) {
        this.allNamespaces = allNamespaces;
    }

    public ResourceDistributionTargetNamespaces getExcludedNamespaces() {
        return excludedNamespaces;
    }

    public void setExcludedNamespaces(ResourceDistributionTargetNamespaces excludedNamespaces) {
        this.excludedNamespaces = excludedNamespaces;
    }

    public ResourceDistributionTargetNamespaces getIncludedNamespaces() {
        return includedNamespaces;
    }

    public void setIncludedNamespaces(ResourceDistributionTargetNamespaces includedNamespaces) {
        this.includedNamespaces = includedNamespaces;
    }

    public LabelSelector getNamespaceSelector() {
        return namespaceSelector;
    }

    public void setNamespaceSelector(LabelSelector namespaceSelector) {
        this.namespaceSelector = namespaceSelector;
    }
}
