package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.HookReasons;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The CloneSet's "not now" rules as {@link BlockReason}s, with the numbers the planners applied. Pure.
 */
final class CloneSetReasons {
    private CloneSetReasons() {
    }

    /** Pods not available now (not serving, or marked for deletion): sorted names, at most the shown number. */
    static List<String> unavailable(CloneSet cs, List<Pod> pods, int minReady, Instant now) {
        List<String> names = new ArrayList<>();
        for (Pod p : pods) {
            if (!Pods.isServing(p, minReady, now) || CloneSetDiff.isSpecifiedDelete(cs, p)) {
                names.add(p.getMetadata().getName());
            }
        }
        names.sort(null);
        return names;
    }

    static BlockReason maxUnavailable(String field, int max, List<String> unavailable, long waiting, String action) {
        return Reasons.maxUnavailable(field, max, unavailable, unavailable.size(), waiting, action);
    }

    /** Updated pods not yet available while maxSurge extra pods are in use. */
    static BlockReason maxSurge(CloneSet cs, List<Pod> pods, String updateRevision, int maxSurge, long waiting,
                                String action, int minReady, Instant now) {
        List<String> surge = new ArrayList<>();
        for (Pod p : pods) {
            if (Pods.atRevision(p, updateRevision) && !Pods.isServing(p, minReady, now)) {
                surge.add(p.getMetadata().getName());
            }
        }
        surge.sort(null);
        return Reasons.maxSurge("updateStrategy.maxSurge", maxSurge, surge, surge.size(), waiting, action);
    }

    static BlockReason hook(Pod pod, String hookName, LifecycleHook hook) {
        return HookReasons.of(pod, hookName, hook);
    }
}
