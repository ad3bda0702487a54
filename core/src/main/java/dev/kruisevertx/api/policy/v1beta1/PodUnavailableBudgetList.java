package dev.kruisevertx.api.policy.v1beta1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of v1beta1 PodUnavailableBudgets, as returned by a list call. */
public class PodUnavailableBudgetList extends DefaultKubernetesResourceList<PodUnavailableBudget> {
}
