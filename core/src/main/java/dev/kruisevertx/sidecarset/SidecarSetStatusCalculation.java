package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * A SidecarSet's status from its matched pods, as OpenKruise computes it: matched; updated (the pod records the
 * SidecarSet's current hash); ready (running and ready, no sidecar upgrade under way, and every hot-upgrade idle
 * container on the empty image); updated and ready.
 */
public final class SidecarSetStatusCalculation {
    private SidecarSetStatusCalculation() {
    }

    public static SidecarSetStatus of(SidecarSet set, List<Pod> pods, String latestRevision, int collisionCount) {
        String hash = set.getMetadata().getAnnotations() == null ? ""
                : set.getMetadata().getAnnotations().getOrDefault(SidecarSetHash.HASH_ANNOTATION, "");
        int updated = 0;
        int ready = 0;
        int updatedReady = 0;
        for (Pod pod : pods) {
            boolean isUpdated = SidecarUpgradeSelection.updated(set, hash, pod);
            if (isUpdated) {
                updated++;
            }
            // OpenKruise: the sidecars run their spec's images and the pod is ready (idle hot-upgrade containers
            // on the empty image).
            if (SidecarPodState.consistent(pod, set, null) && SidecarPodState.ready(pod, set)) {
                ready++;
                if (isUpdated) {
                    updatedReady++;
                }
            }
        }
        SidecarSetStatus status = new SidecarSetStatus();
        status.setObservedGeneration(set.getMetadata().getGeneration());
        status.setMatchedPods(pods.size());
        status.setUpdatedPods(updated);
        status.setReadyPods(ready);
        status.setUpdatedReadyPods(updatedReady);
        status.setLatestRevision(latestRevision);
        status.setCollisionCount(collisionCount);
        return status;
    }
}
