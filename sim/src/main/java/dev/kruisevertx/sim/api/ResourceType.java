package dev.kruisevertx.sim.api;

import java.util.List;

/**
 * One served resource: how it is addressed (group, versions, plural), what it is called (kind), and which
 * subresources the API server gives it. The store keys objects by {@link #key()}, so every served version of
 * a resource shares one set of objects, as in kube-apiserver.
 */
public record ResourceType(
        String group,
        List<String> versions,
        String storageVersion,
        String plural,
        String singular,
        String kind,
        boolean namespaced,
        boolean statusSubresource,
        ScaleSubresource scale,
        List<String> shortNames,
        boolean custom) {

    /** Paths (dotted JSON paths such as {@code .spec.replicas}) of a resource's scale subresource. */
    public record ScaleSubresource(String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {
    }

    public String key() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    public String apiVersion(String version) {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public boolean serves(String version) {
        return versions.contains(version);
    }

    public String listKind() {
        return kind + "List";
    }
}
