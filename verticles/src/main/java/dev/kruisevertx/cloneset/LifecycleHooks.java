package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.common.LifecycleHook;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;

/**
 * Whether a pod is held by a lifecycle hook: a hook holds a pod that carries any of its handler labels
 * (with the given value) or finalizers; "all hooked" means it carries every one of them.
 */
final class LifecycleHooks {
    private LifecycleHooks() {
    }

    static boolean isHooked(LifecycleHook hook, Pod pod) {
        if (hook == null || pod == null) {
            return false;
        }
        Map<String, String> labels = PodView.labels(pod);
        if (hook.getLabelsHandler() != null) {
            for (Map.Entry<String, String> e : hook.getLabelsHandler().entrySet()) {
                if (e.getValue() != null && e.getValue().equals(labels.get(e.getKey()))) {
                    return true;
                }
            }
        }
        List<String> finalizers = pod.getMetadata().getFinalizers();
        if (hook.getFinalizersHandler() != null && finalizers != null) {
            for (String f : hook.getFinalizersHandler()) {
                if (finalizers.contains(f)) {
                    return true;
                }
            }
        }
        return false;
    }

    static boolean isAllHooked(LifecycleHook hook, Pod pod) {
        if (hook == null || pod == null) {
            return false;
        }
        Map<String, String> labels = PodView.labels(pod);
        if (hook.getLabelsHandler() != null) {
            for (Map.Entry<String, String> e : hook.getLabelsHandler().entrySet()) {
                if (e.getValue() == null || !e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        List<String> finalizers = pod.getMetadata().getFinalizers();
        if (hook.getFinalizersHandler() != null) {
            for (String f : hook.getFinalizersHandler()) {
                if (finalizers == null || !finalizers.contains(f)) {
                    return false;
                }
            }
        }
        return true;
    }
}
