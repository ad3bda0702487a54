package dev.kruisevertx.agent.podprobe;

import dev.kruisevertx.api.apps.v1alpha1.ProbeState;

import java.time.Instant;

/**
 * The thresholds of one probe, as the kubelet's (and OpenKruise's daemon's) worker applies them: a result is reported
 * only once it has come {@code successThreshold} (or {@code failureThreshold}) times in a row. Not thread-safe: used
 * on the agent's context. The report changes only when the state or the message changes, so an unchanged probe never
 * rewrites the NodePodProbe status.
 */
public final class ProbeTracker {
    private final int successThreshold;
    private final int failureThreshold;
    private Boolean lastResult;
    private int run;
    private ProbeState state;
    private String message;
    private Instant lastProbeTime;
    private Instant lastTransitionTime;

    /** Thresholds below 1 (unset or 0) count as 1, as OpenKruise's daemon reads them. */
    public ProbeTracker(Integer successThreshold, Integer failureThreshold) {
        this.successThreshold = successThreshold == null || successThreshold < 1 ? 1 : successThreshold;
        this.failureThreshold = failureThreshold == null || failureThreshold < 1 ? 1 : failureThreshold;
    }

    /** Records one result; true when the reported state or message changed. */
    public boolean record(ProbeResult result, Instant now) {
        if (lastResult != null && lastResult == result.success()) {
            run++;
        } else {
            lastResult = result.success();
            run = 1;
        }
        if (run < (result.success() ? successThreshold : failureThreshold)) {
            return false;
        }
        ProbeState next = result.success() ? ProbeState.SUCCEEDED : ProbeState.FAILED;
        boolean changed = next != state || !result.message().equals(message);
        if (next != state) {
            lastTransitionTime = now;
        }
        if (changed) {
            lastProbeTime = now;
        }
        state = next;
        message = result.message();
        return changed;
    }

    /** The reported state; null until a threshold was first reached. */
    public ProbeState state() {
        return state;
    }

    public String message() {
        return message;
    }

    public Instant lastProbeTime() {
        return lastProbeTime;
    }

    public Instant lastTransitionTime() {
        return lastTransitionTime;
    }
}
