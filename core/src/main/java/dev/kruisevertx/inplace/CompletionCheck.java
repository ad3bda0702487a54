package dev.kruisevertx.inplace;

/**
 * Whether an in-place update has taken effect on a pod.
 *
 * @param done            every container of every batch runs its new spec (or there is no in-place update)
 * @param nextBatchNeeded lower-priority containers still wait for their batch
 * @param message         why it is not done (null when done)
 */
public record CompletionCheck(boolean done, boolean nextBatchNeeded, String message) {
    static final CompletionCheck DONE = new CompletionCheck(true, false, null);

    static CompletionCheck notDone(String message) {
        return new CompletionCheck(false, false, message);
    }
}
