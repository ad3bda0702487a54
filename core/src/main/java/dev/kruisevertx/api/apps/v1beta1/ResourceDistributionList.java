package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of ResourceDistributions, as returned by a list call. */
public class ResourceDistributionList extends DefaultKubernetesResourceList<ResourceDistribution> {
}
