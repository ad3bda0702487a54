package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.ArrayList;
import java.util.List;

/** A list of namespaces by name ({@code includedNamespaces} / {@code excludedNamespaces}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceDistributionTargetNamespaces extends UnknownFields {
    @JsonPropertyDescription("The namespaces, by name.")
    private List<ResourceDistributionNamespace> list;

    public ResourceDistributionTargetNamespaces() {
    }

    public ResourceDistributionTargetNamespaces(List<ResourceDistributionNamespace> list) {
        this.list = list;
    }

    /** Namespaces given by name. */
    public static ResourceDistributionTargetNamespaces of(String... names) {
        List<ResourceDistributionNamespace> out = new ArrayList<>();
        for (String n : names) {
            out.add(new ResourceDistributionNamespace(n));
        }
        return new ResourceDistributionTargetNamespaces(out);
    }

    public List<ResourceDistributionNamespace> getList() {
        return list;
    }

    public void setList(List<ResourceDistributionNamespace> list) {
        this.list = list;
    }

    static List<String> names(ResourceDistributionTargetNamespaces namespaces) {
        List<String> out = new ArrayList<>();
        if (namespaces == null || namespaces.list == null) {
            return out;
        }
        for (ResourceDistributionNamespace ns : namespaces.list) {
            out.add(ns == null || ns.getName() == null ? "" : ns.getName());
        }
        return out;
    }
}
