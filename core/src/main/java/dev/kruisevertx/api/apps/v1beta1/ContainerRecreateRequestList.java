package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of v1beta1 ContainerRecreateRequests, as returned by a list call. */
public class ContainerRecreateRequestList extends DefaultKubernetesResourceList<ContainerRecreateRequest> {
}
