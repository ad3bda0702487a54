package dev.kruisevertx.api.apps.v1alpha1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of PersistentPodStates, as returned by a list call. */
public class PersistentPodStateList extends DefaultKubernetesResourceList<PersistentPodState> {
}
