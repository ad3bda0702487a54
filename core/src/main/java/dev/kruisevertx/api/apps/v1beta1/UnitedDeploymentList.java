package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of v1beta1 UnitedDeployments, as returned by a list call. */
public class UnitedDeploymentList extends DefaultKubernetesResourceList<UnitedDeployment> {
}
