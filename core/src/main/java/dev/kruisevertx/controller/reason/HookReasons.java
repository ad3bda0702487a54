package dev.kruisevertx.controller.reason;

import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A lifecycle hook holding a pod, as a {@link BlockReason}: which labels and finalizers of the hook it still carries. */
public final class HookReasons {
    private HookReasons() {
    }

    /** {@code hookName}: preDelete, inPlaceUpdate or preNormal. */
    public static BlockReason of(Pod pod, String hookName, LifecycleHook hook) {
        String state = Pods.lifecycleState(pod);
        return Reasons.lifecycleHook(pod.getMetadata().getName(), state == null || state.isEmpty() ? "Normal" : state,
                hookName, holds(hook, pod));
    }

    /** What a pod still carries of a hook: its labels as key=value, its finalizers by name, sorted. */
    static List<String> holds(LifecycleHook hook, Pod pod) {
        List<String> out = new ArrayList<>();
        if (hook == null) {
            return out;
        }
        if (hook.getLabelsHandler() != null) {
            Map<String, String> labels = Pods.labels(pod);
            hook.getLabelsHandler().forEach((k, v) -> {
                if (labels.getOrDefault(k, "").equals(v == null ? "" : v)) {
                    out.add("label " + k + "=" + (v == null ? "" : v));
                }
            });
        }
        if (hook.getFinalizersHandler() != null && pod.getMetadata().getFinalizers() != null) {
            for (String f : hook.getFinalizersHandler()) {
                if (pod.getMetadata().getFinalizers().contains(f)) {
                    out.add("finalizer " + f);
                }
            }
        }
        out.sort(null);
        return out;
    }
}
