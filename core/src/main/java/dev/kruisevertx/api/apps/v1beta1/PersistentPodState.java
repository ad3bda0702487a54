package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateStatus;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code apps.kruise.io/v1beta1} PersistentPodState as OpenKruise's master serves it: served next to v1alpha1, which
 * stays the storage version (as in OpenKruise v1.9.0) and is what the controller and the pod webhook read; converted
 * by {@code /convert} ({@link PersistentPodStateConversion}). A topology term's keys are {@code keys} (v1alpha1:
 * {@code nodeTopologyKeys}); the status is v1alpha1's.
 */
@Group(PersistentPodState.GROUP)
@Version(value = PersistentPodState.VERSION, storage = false, served = true)
@Kind(PersistentPodState.KIND)
@Plural(PersistentPodState.PLURAL)
@Singular("persistentpodstate")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PersistentPodState extends CustomResource<PersistentPodStateSpec, PersistentPodStateStatus>
        implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "PersistentPodState";
    public static final String PLURAL = "persistentpodstates";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
}
