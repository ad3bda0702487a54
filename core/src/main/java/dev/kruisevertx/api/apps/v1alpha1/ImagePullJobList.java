package dev.kruisevertx.api.apps.v1alpha1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of v1alpha1 ImagePullJobs, as returned by a list call. */
public class ImagePullJobList extends DefaultKubernetesResourceList<ImagePullJob> {
}
