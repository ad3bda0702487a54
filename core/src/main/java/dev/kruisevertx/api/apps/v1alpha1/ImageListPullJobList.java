package dev.kruisevertx.api.apps.v1alpha1;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;

/** A list of v1alpha1 ImageListPullJobs, as returned by a list call. */
public class ImageListPullJobList extends DefaultKubernetesResourceList<ImageListPullJob> {
}
