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

/**
 * {@code apps.kruise.io/v1alpha1} PersistentPodState, the only (served and stored) version in OpenKruise v1.9.0: the
 * node topology labels and chosen annotations of each pod of one StatefulSet (or whitelisted workload), so that a pod
 * created again under the same name is steered back to the same topology by the pod webhook.
 */
@Group(PersistentPodState.GROUP)
@Version(value = PersistentPodState.VERSION, storage = true, served = true)
@Kind(PersistentPodState.KIND)
@Plural(PersistentPodState.PLURAL)
@Singular("persistentpodstate")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PersistentPodState extends CustomResource<PersistentPodStateSpec, PersistentPodStateStatus>
        implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "PersistentPodState";
    public static final String PLURAL = "persistentpodstates";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    /** Workload annotation: "true" makes the controller create (and keep) a PersistentPodState named after it. */
    public static final String AUTO_GENERATE_ANNOTATION = "kruise.io/auto-generate-persistent-pod-state";
    /** Workload annotation: comma-separated node label keys for {@code requiredPersistentTopology}. */
    public static final String REQUIRED_TOPOLOGY_ANNOTATION = "kruise.io/required-persistent-topology";
    /** Workload annotation: comma-separated node label keys for one weight-100 preferred term. */
    public static final String PREFERRED_TOPOLOGY_ANNOTATION = "kruise.io/preferred-persistent-topology";
    /** Workload annotation: comma-separated pod annotation keys to record. */
    public static final String PERSISTENT_POD_ANNOTATIONS_ANNOTATION = "kruise.io/persistent-pod-annotations";
    /** Pod annotation the webhook sets: the name of the PersistentPodState whose state it injected. */
    public static final String INJECTED_ANNOTATION = "kruise.io/injected-persistent-pod-state";

    /** The spec, never null (an empty one when the object has none). */
    public PersistentPodStateSpec spec() {
        return getSpec() == null ? new PersistentPodStateSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public PersistentPodStateStatus status() {
        return getStatus() == null ? new PersistentPodStateStatus() : getStatus();
    }
}
