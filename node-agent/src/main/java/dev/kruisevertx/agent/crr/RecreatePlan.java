package dev.kruisevertx.agent.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerRecreateState;

import java.time.Duration;
import java.util.List;

/**
 * The one step the agent takes next for the request it is running on a pod. Steps are small on purpose: each
 * writes the status once, and the next step is decided from the status the write produced.
 *
 * @param states     containerRecreateStates to write (for {@link Action#PATCH_STATES} and {@link Action#KILL})
 * @param container  the container to stop (for {@link Action#KILL})
 * @param message    the completion message (for {@link Action#COMPLETE})
 * @param recheckIn  when to look again without an event; null for "on the next event"
 */
public record RecreatePlan(Action action, List<ContainerRecreateRequestContainerRecreateState> states,
        String container, String message, Duration recheckIn) {

    public enum Action {
        /** Move the request to phase Recreating. */
        START,
        /** The manager has not made the pod unready yet, or the unready grace has not passed. */
        WAIT_UNREADY,
        /** Write new containerRecreateStates. */
        PATCH_STATES,
        /** Run the preStop hook and stop {@link #container()}, then write {@link #states()}. */
        KILL,
        /** End the request: phase Completed with a completion time. */
        COMPLETE,
        /** Nothing to do until the containers change. */
        WAIT
    }

    static RecreatePlan start() {
        return new RecreatePlan(Action.START, null, null, null, null);
    }

    static RecreatePlan waitUnready(Duration left) {
        return new RecreatePlan(Action.WAIT_UNREADY, null, null, null, left);
    }

    static RecreatePlan patch(List<ContainerRecreateRequestContainerRecreateState> states) {
        return new RecreatePlan(Action.PATCH_STATES, states, null, null, null);
    }

    static RecreatePlan kill(String container, List<ContainerRecreateRequestContainerRecreateState> states) {
        return new RecreatePlan(Action.KILL, states, container, null, null);
    }

    static RecreatePlan complete(String message) {
        return new RecreatePlan(Action.COMPLETE, null, null, message, null);
    }

    static RecreatePlan waitFor(Duration recheckIn) {
        return new RecreatePlan(Action.WAIT, null, null, null, recheckIn);
    }
}
