package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

import java.util.List;

/**
 * {@code apps.kruise.io/v1alpha1} NodePodProbe, cluster-scoped, one per node and named after it, as OpenKruise v1.9.0
 * serves it: the manager writes the probes of the node's pods into the spec, the node agent runs them and writes the
 * results into {@code status.podProbeStatuses}.
 */
@Group(CloneSet.GROUP)
@Version(value = NodePodProbe.VERSION, storage = true, served = true)
@Kind(NodePodProbe.KIND)
@Plural(NodePodProbe.PLURAL)
@Singular("nodepodprobe")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class NodePodProbe extends CustomResource<NodePodProbeSpec, NodePodProbeStatus> {
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = CloneSet.GROUP + "/" + VERSION;
    public static final String KIND = "NodePodProbe";
    public static final String PLURAL = "nodepodprobes";
    public static final String CRD_NAME = PLURAL + "." + CloneSet.GROUP;

    /** The pod probes of the spec, never null. */
    public List<PodProbe> podProbes() {
        return getSpec() == null || getSpec().getPodProbes() == null ? List.of() : getSpec().getPodProbes();
    }

    /** The pod probe statuses, never null. */
    public List<PodProbeStatus> podProbeStatuses() {
        return getStatus() == null || getStatus().getPodProbeStatuses() == null ? List.of()
                : getStatus().getPodProbeStatuses();
    }
}
