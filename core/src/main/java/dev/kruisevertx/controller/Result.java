package dev.kruisevertx.controller;

import java.time.Duration;

/**
 * What a reconcile asks of the queue afterwards. A failed Future means "retry with backoff";
 * {@code requeueAfter} means "look again later" and resets the backoff, as controller-runtime does.
 */
public record Result(boolean rateLimitedRequeue, Duration requeueAfter) {
    private static final Result DONE = new Result(false, Duration.ZERO);
    private static final Result REQUEUE = new Result(true, Duration.ZERO);

    public static Result done() {
        return DONE;
    }

    /** Again soon, rate limited like an error but not counted as one. */
    public static Result requeueRateLimited() {
        return REQUEUE;
    }

    public static Result requeueAfter(Duration after) {
        if (after == null || after.isNegative() || after.isZero()) {
            return REQUEUE;
        }
        return new Result(false, after);
    }

    public boolean hasRequeueAfter() {
        return requeueAfter != null && !requeueAfter.isZero() && !requeueAfter.isNegative();
    }
}
