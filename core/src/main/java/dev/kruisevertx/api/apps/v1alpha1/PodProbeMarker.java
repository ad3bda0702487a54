package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

import java.util.List;

/**
 * {@code apps.kruise.io/v1alpha1} PodProbeMarker, as OpenKruise v1.9.0 serves it (the only and storage version, status
 * subresource, no printer columns): custom probes run by the node agent in the selected pods, whose results become a
 * pod condition and the labels/annotations of {@code markerPolicy}.
 */
@Group(CloneSet.GROUP)
@Version(value = PodProbeMarker.VERSION, storage = true, served = true)
@Kind(PodProbeMarker.KIND)
@Plural(PodProbeMarker.PLURAL)
@Singular("podprobemarker")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodProbeMarker extends CustomResource<PodProbeMarkerSpec, PodProbeMarkerStatus> implements Namespaced {
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = CloneSet.GROUP + "/" + VERSION;
    public static final String KIND = "PodProbeMarker";
    public static final String PLURAL = "podprobemarkers";
    public static final String CRD_NAME = PLURAL + "." + CloneSet.GROUP;
    /** On every PodProbeMarker the manager handles: removed once its probes are gone from every NodePodProbe. */
    public static final String FINALIZER = "kruise.io/node-pod-probe-cleanup";
    /** Serverless pods: the probes the webhook copied into the pod (JSON list of PodContainerProbe). */
    public static final String PROBE_ANNOTATION = "kruise.io/podprobe";
    /** Serverless pods: comma list of the PodProbeMarkers whose probes the webhook copied. */
    public static final String MARKER_LIST_ANNOTATION = "kruise.io/podprobemarker-list";
    /** The node label of a virtual-kubelet (serverless) node, whose pods no node agent probes. */
    public static final String VIRTUAL_KUBELET_LABEL = "type";
    public static final String VIRTUAL_KUBELET_VALUE = "virtual-kubelet";

    /** The spec, never null. */
    public PodProbeMarkerSpec spec() {
        return getSpec() == null ? new PodProbeMarkerSpec() : getSpec();
    }

    /** The probes, never null. */
    public List<PodContainerProbe> probes() {
        return spec().getProbes() == null ? List.of() : spec().getProbes();
    }
}
