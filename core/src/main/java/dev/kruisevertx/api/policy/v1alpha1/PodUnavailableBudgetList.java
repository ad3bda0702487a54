package dev.kruisevertx.api.policy.v1alpha1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of PodUnavailableBudgets, as returned by a list call. */
public class PodUnavailableBudgetList extends DefaultKubernetesResourceList<PodUnavailableBudget> {
}
