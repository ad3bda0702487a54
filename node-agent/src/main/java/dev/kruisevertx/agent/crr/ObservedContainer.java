package dev.kruisevertx.agent.crr;

import java.time.Instant;

/**
 * What the agent sees of one container of a pod right now: the id, restart count and readiness the pod's status
 * reports, and the state and start time the container runtime reports for that id.
 *
 * @param containerId the pod status' id, {@code <runtime>://<id>}
 * @param startedAt   when the runtime started it; null if it never started
 */
public record ObservedContainer(String containerId, int restartCount, boolean ready, RuntimeState state,
        Instant startedAt) {

    /** The runtime's view of a container, reduced to what recreation cares about. */
    public enum RuntimeState { CREATED, RUNNING, EXITED, UNKNOWN }

    /** The id without its {@code <runtime>://} prefix, as the CRI wants it. */
    public static String runtimeId(String containerId) {
        if (containerId == null) {
            return null;
        }
        int sep = containerId.indexOf("://");
        return sep < 0 ? containerId : containerId.substring(sep + 3);
    }
}
