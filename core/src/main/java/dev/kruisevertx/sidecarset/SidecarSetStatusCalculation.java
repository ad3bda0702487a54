package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainerUpgradeType;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
        Set<String> sidecars = new LinkedHashSet<>();
        Map<String, String> emptyImages = new HashMap<>();
        for (SidecarContainer c : set.getSpec().getContainers() == null ? List.<SidecarContainer>of()
                : set.getSpec().getContainers()) {
            boolean hot = c.getUpgradeStrategy() != null && c.getUpgradeStrategy().upgradeTypeValue()
                    .orElse(null) == SidecarContainerUpgradeType.HOT_UPGRADE;
            if (hot) {
                sidecars.add(c.getName() + "-1");
                sidecars.add(c.getName() + "-2");
                emptyImages.put(c.getName(), c.getUpgradeStrategy().getHotUpgradeEmptyImage());
            } else {
                sidecars.add(c.getName());
            }
        }
        int updated = 0;
        int ready = 0;
        int updatedReady = 0;
        for (Pod pod : pods) {
            boolean isUpdated = SidecarUpgradeSelection.updated(set, hash, pod);
            if (isUpdated) {
                updated++;
            }
            if (Pods.isRunningAndReady(pod) && !SidecarUpgradeSelection.upgradeInProgress(pod, sidecars)
                    && idleOnEmptyImage(pod, emptyImages)) {
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

    /** The idle container of each hot-upgrade pair (the one the working annotation does not name) runs the empty image. */
    private static boolean idleOnEmptyImage(Pod pod, Map<String, String> emptyImages) {
        if (emptyImages.isEmpty()) {
            return true;
        }
        String working = pod.getMetadata().getAnnotations() == null ? null
                : pod.getMetadata().getAnnotations().get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION);
        for (Map.Entry<String, String> e : emptyImages.entrySet()) {
            String idle = working != null && working.contains("\"" + e.getKey() + "\":\"" + e.getKey() + "-2\"")
                    ? e.getKey() + "-1" : e.getKey() + "-2";
            for (Container c : pod.getSpec().getContainers()) {
                if (c.getName().equals(idle) && e.getValue() != null && !e.getValue().equals(c.getImage())) {
                    return false;
                }
            }
        }
        return true;
    }
}
