package dev.kruisevertx.lifecycle;

import dev.kruisevertx.podutil.PodPatches;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * Writes a {@link LifecycleChange} the way every workload controller does: the status (KruisePodReady) first, so a
 * pod is marked not ready before its lifecycle label says it may go, then the metadata, each a JSON patch guarded by
 * the resourceVersion it was computed from. Blocking: call it on a worker thread.
 */
public final class LifecycleWrites {
    private LifecycleWrites() {
    }

    /**
     * @param resource the pod's resource
     * @param pod      the pod the change was computed from
     * @return the pod as last written, or null when neither patch had anything to write
     */
    public static Pod write(PodResource resource, Pod pod, LifecycleChange change) {
        Pod written = null;
        if (change.statusChanged()) {
            String patch = PodPatches.forStatus(pod, change.pod());
            if (!PodPatches.isEmpty(patch)) {
                written = resource.subresource("status").patch(PatchContext.of(PatchType.JSON), patch);
            }
        }
        if (change.metadataChanged()) {
            Pod base = written == null ? pod : written;
            Pod target = new PodBuilder(base).withMetadata(change.pod().getMetadata()).build();
            target.getMetadata().setResourceVersion(base.getMetadata().getResourceVersion());
            String patch = PodPatches.forPod(base, target, true);
            if (!PodPatches.isEmpty(patch)) {
                written = resource.patch(PatchContext.of(PatchType.JSON), patch);
            }
        }
        return written;
    }
}
