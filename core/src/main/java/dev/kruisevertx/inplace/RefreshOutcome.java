package dev.kruisevertx.inplace;

import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;

/**
 * The next step of a pod's in-place update, decided by {@link InPlaceUpdater#refresh} the way OpenKruise's
 * {@code Refresh} proceeds: finish a grace period, patch the next container batch, or flip InPlaceUpdateReady back
 * to True once everything runs.
 *
 * @param action  what the controller does
 * @param pod     the changed copy to write: a pod update for {@link Action#UPDATE_POD}, a status update for
 *                {@link Action#UPDATE_STATUS}; null otherwise
 * @param requeue when to look again (zero when no delay is needed)
 * @param message why the pod waits, or the error
 */
public record RefreshOutcome(Action action, Pod pod, Duration requeue, String message) {
    public enum Action {
        /** Nothing to write. */
        NONE,
        /** Write {@link #pod()} with a pod update (grace applied or dropped, next batch patched). */
        UPDATE_POD,
        /** Write {@link #pod()} with a status update (InPlaceUpdateReady=True). */
        UPDATE_STATUS,
        /** The pod's annotations are invalid; {@link #message()} says why. */
        ERROR
    }

    static RefreshOutcome none(Duration requeue, String message) {
        return new RefreshOutcome(Action.NONE, null, requeue == null ? Duration.ZERO : requeue, message);
    }
}
