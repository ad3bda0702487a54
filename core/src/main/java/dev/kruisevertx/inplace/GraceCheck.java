package dev.kruisevertx.inplace;

import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;

/**
 * What to do about the {@code apps.kruise.io/inplace-update-grace} annotation of a pod.
 *
 * @param action what the controller does
 * @param remaining for {@link Action#WAIT}: time left (whole seconds, rounded up) before the update may be applied
 * @param pod    for {@link Action#APPLY} and {@link Action#DROP}: the changed copy to write with a pod update
 * @param error  for {@link Action#INVALID}: what is wrong with the annotations
 */
public record GraceCheck(Action action, Duration remaining, Pod pod, String error) {
    public enum Action {
        /** The pod has no grace annotation. */
        NONE,
        /** The grace period is still running. */
        WAIT,
        /** The grace period is over: write {@link #pod()}, which carries the delayed changes. */
        APPLY,
        /** The pod no longer has the revision the delayed update was for: write {@link #pod()} without it. */
        DROP,
        /** The annotations cannot be read; {@link #error()} says why. */
        INVALID
    }
}
