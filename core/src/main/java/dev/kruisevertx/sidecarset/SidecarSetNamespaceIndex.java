package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetConversion;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.List;

/**
 * The cache index that keeps pod admission cheap with many SidecarSets (OpenKruise's {@code namespace} field index,
 * kruise#1547): a SidecarSet whose namespaceSelector names namespaces by {@code kubernetes.io/metadata.name} (as every
 * converted v1alpha1 {@code spec.namespace} does) is indexed under those names, every other one under
 * {@link #CLUSTER_SCOPE}. A pod's candidates are the SidecarSets under its namespace plus those under
 * {@link #CLUSTER_SCOPE}; the full selectors are then checked on those few.
 */
public final class SidecarSetNamespaceIndex {
    public static final String NAME = "namespace";
    public static final String CLUSTER_SCOPE = "clusterScope";

    /**
     * The index function, one shared object: the watch cache accepts a second registration of an index name only
     * with the same function, so every user (the pod webhook, the SidecarSet controller) registers this one.
     */
    public static final java.util.function.Function<SidecarSet, List<String>> FUNCTION = SidecarSetNamespaceIndex::keys;

    private SidecarSetNamespaceIndex() {
    }

    /** The index values of a SidecarSet. */
    public static List<String> keys(SidecarSet set) {
        LabelSelector selector = set.getSpec() == null ? null : set.getSpec().getNamespaceSelector();
        if (selector != null) {
            if (selector.getMatchLabels() != null) {
                String name = selector.getMatchLabels().get(SidecarSetConversion.NAMESPACE_NAME_LABEL);
                if (name != null) {
                    return List.of(name);
                }
            }
            if (selector.getMatchExpressions() != null) {
                for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                    if (SidecarSetConversion.NAMESPACE_NAME_LABEL.equals(r.getKey()) && "In".equals(r.getOperator())
                            && r.getValues() != null) {
                        return List.copyOf(r.getValues());
                    }
                }
            }
        }
        return List.of(CLUSTER_SCOPE);
    }

    /** The index values to look up for a pod of {@code namespace} (an empty namespace is "default"). */
    public static List<String> lookups(String namespace) {
        return List.of(namespace == null || namespace.isEmpty() ? "default" : namespace, CLUSTER_SCOPE);
    }
}
