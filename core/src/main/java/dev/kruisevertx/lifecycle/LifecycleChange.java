package dev.kruisevertx.lifecycle;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * The result of a lifecycle transition: the pod to write and which writes it needs.
 *
 * @param pod             the changed copy (or the input when nothing changed)
 * @param metadataChanged labels/annotations/finalizers changed: write with a pod update or patch
 * @param statusChanged   the KruisePodReady condition changed: write with a status update (first)
 */
public record LifecycleChange(Pod pod, boolean metadataChanged, boolean statusChanged) {
    public boolean changed() {
        return metadataChanged || statusChanged;
    }
}
