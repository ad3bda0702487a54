package dev.kruisevertx.api.apps.v1alpha1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of UnitedDeployments, as returned by a list call. */
public class UnitedDeploymentList extends DefaultKubernetesResourceList<UnitedDeployment> {
}
