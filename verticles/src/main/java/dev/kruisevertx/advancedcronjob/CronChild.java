package dev.kruisevertx.advancedcronjob;

import java.time.Instant;

/**
 * What the decision needs of one child (a Job or a BroadcastJob this AdvancedCronJob controls): names, its outcome
 * and the run it belongs to, never its spec.
 *
 * @param scheduledAt the {@code apps.kruise.io/scheduled-at} time, null when absent or unreadable
 * @param startTime   {@code status.startTime}, null when not started (history pruning removes those first)
 */
public record CronChild(String name, String uid, String resourceVersion, Outcome outcome, Instant scheduledAt,
                        Instant startTime) {
    /** A child's state as the controller reads its conditions (Complete or Failed with status True). */
    public enum Outcome { ACTIVE, SUCCEEDED, FAILED }
}
