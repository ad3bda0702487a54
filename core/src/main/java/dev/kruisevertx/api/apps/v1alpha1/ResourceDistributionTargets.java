package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * The namespaces of a ResourceDistribution: all of them, or the union of the listed ones and those the label
 * selector matches; the excluded ones are taken out last.
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
    private LabelSelector namespaceLabelSelector;

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

    public LabelSelector getNamespaceLabelSelector() {
        return namespaceLabelSelector;
    }

    public void setNamespaceLabelSelector(LabelSelector namespaceLabelSelector) {
        this.namespaceLabelSelector = namespaceLabelSelector;
    }

    /** Whether {@code allNamespaces} is set to true. */
    public boolean all() {
        return Boolean.TRUE.equals(allNamespaces);
    }

    /** The names listed under {@code includedNamespaces} (empty names kept: the webhook refuses them). */
    public java.util.List<String> included() {
        return ResourceDistributionTargetNamespaces.names(includedNamespaces);
    }

    /** The names listed under {@code excludedNamespaces}. */
    public java.util.List<String> excluded() {
        return ResourceDistributionTargetNamespaces.names(excludedNamespaces);
    }
}
