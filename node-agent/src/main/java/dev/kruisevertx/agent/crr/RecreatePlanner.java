package dev.kruisevertx.agent.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerRecreateState;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The agent's decision for the request running on a pod, as a pure function of the request, what the agent sees of
 * the pod's containers, and the time. The same rules as kruise-daemon:
 * <ul>
 *   <li>a request not yet Recreating is moved there first;</li>
 *   <li>with {@code unreadyGracePeriodSeconds}, nothing is stopped before the manager has marked the pod unready
 *       (the {@code crr.apps.kruise.io/unready-acquired} annotation) and the grace has passed since;</li>
 *   <li>a container is Pending until stopped; Recreating once stopped, exited, or already replaced (a new id, a higher
 *       restart count, or started after the request was made: such a container is not stopped again unless
 *       {@code forceRecreate}); Succeeded once the new container is ready and has run {@code minStartedSeconds};</li>
 *   <li>containers are stopped one per step, all of them in turn, or with {@code orderedRecreate} the next only
 *       after the previous one succeeded; with failure policy Fail the first failed container ends the request.</li>
 * </ul>
 */
public final class RecreatePlanner {
    static final String NOT_FOUND_MESSAGE = "not found container on Node";

    private RecreatePlanner() {
    }

    public static RecreatePlan plan(ContainerRecreateRequest crr, Map<String, ObservedContainer> observed, Instant now) {
        if (crr.status().phaseValue().orElse(null) != ContainerRecreateRequestPhase.RECREATING) {
            return RecreatePlan.start();
        }
        ContainerRecreateRequestStrategy strategy = crr.strategy();
        if (strategy.getUnreadyGracePeriodSeconds() != null) {
            String acquired = Pods.annotations(crr).get(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
            if (acquired == null || acquired.isEmpty()) {
                return RecreatePlan.waitUnready(null);
            }
            Instant since;
            try {
                since = Instant.parse(acquired);
            } catch (DateTimeParseException e) {
                return RecreatePlan.complete("failed to parse unready time " + acquired + ": " + e.getMessage());
            }
            Duration left = Duration.ofSeconds(strategy.getUnreadyGracePeriodSeconds()).minus(Duration.between(since, now));
            if (left.compareTo(Duration.ZERO) > 0) {
                return RecreatePlan.waitUnready(left.plusMillis(100));
            }
        }

        List<ContainerRecreateRequestContainerRecreateState> current = currentStates(crr, observed, now);
        List<ContainerRecreateRequestContainerRecreateState> previous = crr.status().getContainerRecreateStates();
        if (!Objects.equals(previous == null ? List.of() : previous, current)) {
            return RecreatePlan.patch(current);
        }

        List<ContainerRecreateRequestContainerRecreateState> next = copy(current);
        int completed = 0;
        for (ContainerRecreateRequestContainerRecreateState state : next) {
            ContainerRecreateRequestPhase phase = state.phaseValue().orElse(null);
            if (phase == ContainerRecreateRequestPhase.SUCCEEDED) {
                completed++;
                continue;
            }
            if (phase == ContainerRecreateRequestPhase.FAILED) {
                completed++;
                if (strategy.ignoresFailures()) {
                    continue;
                }
                return RecreatePlan.complete("");
            }
            if (phase == ContainerRecreateRequestPhase.RECREATING) {
                state.setIsKilled(true);
                if (strategy.isOrderedRecreate()) {
                    break;
                }
                continue;
            }
            if (observed.get(state.getName()) == null) {
                break;
            }
            state.setPhase(ContainerRecreateRequestPhase.RECREATING.value());
            state.setIsKilled(true);
            return RecreatePlan.kill(state.getName(), next);
        }
        if (!next.equals(current)) {
            return RecreatePlan.patch(next);
        }
        if (completed == next.size()) {
            return RecreatePlan.complete("");
        }
        return RecreatePlan.waitFor(strategy.getMinStartedSeconds() > 0
                ? Duration.ofSeconds(strategy.getMinStartedSeconds()) : null);
    }

    /** The state of every container of the request as of now, carrying finished states over unchanged. */
    static List<ContainerRecreateRequestContainerRecreateState> currentStates(ContainerRecreateRequest crr,
            Map<String, ObservedContainer> observed, Instant now) {
        ContainerRecreateRequestStrategy strategy = crr.strategy();
        Duration minStarted = Duration.ofSeconds(strategy.getMinStartedSeconds());
        Instant created = crr.getMetadata().getCreationTimestamp() == null ? null
                : Pods.parseTime(crr.getMetadata().getCreationTimestamp());
        List<ContainerRecreateRequestContainerRecreateState> states = new ArrayList<>();
        List<ContainerRecreateRequestContainer> containers = crr.spec().getContainers();
        for (ContainerRecreateRequestContainer c : containers == null ? List.<ContainerRecreateRequestContainer>of() : containers) {
            ContainerRecreateRequestContainerRecreateState previous = previousState(crr, c.getName());
            ContainerRecreateRequestPhase was = previous == null ? null : previous.phaseValue().orElse(null);
            if (was == ContainerRecreateRequestPhase.FAILED || was == ContainerRecreateRequestPhase.SUCCEEDED) {
                states.add(copy(previous));
                continue;
            }
            boolean wasKilled = previous != null && previous.getIsKilled();
            ObservedContainer seen = observed.get(c.getName());
            if (seen == null) {
                states.add(new ContainerRecreateRequestContainerRecreateState(c.getName(),
                        ContainerRecreateRequestPhase.PENDING.value(), NOT_FOUND_MESSAGE, wasKilled));
            } else if (seen.state() == ObservedContainer.RuntimeState.EXITED) {
                // The kubelet starts a stopped container again soon: it is being recreated.
                states.add(new ContainerRecreateRequestContainerRecreateState(c.getName(),
                        ContainerRecreateRequestPhase.RECREATING.value(), null, wasKilled));
            } else if (strategy.isForceRecreate() && !wasKilled) {
                states.add(new ContainerRecreateRequestContainerRecreateState(c.getName(),
                        ContainerRecreateRequestPhase.PENDING.value(), null, false));
            } else if (replaced(c, seen, created)) {
                boolean done = seen.ready() && seen.state() == ObservedContainer.RuntimeState.RUNNING
                        && seen.startedAt() != null && Duration.between(seen.startedAt(), now).compareTo(minStarted) > 0;
                states.add(new ContainerRecreateRequestContainerRecreateState(c.getName(),
                        (done ? ContainerRecreateRequestPhase.SUCCEEDED
                                : ContainerRecreateRequestPhase.RECREATING).value(),
                        null, wasKilled));
            } else {
                states.add(new ContainerRecreateRequestContainerRecreateState(c.getName(),
                        ContainerRecreateRequestPhase.PENDING.value(), null, wasKilled));
            }
        }
        return states;
    }

    private static boolean replaced(ContainerRecreateRequestContainer c, ObservedContainer seen, Instant created) {
        if (c.getStatusContext() != null) {
            if (!Objects.equals(seen.containerId(), c.getStatusContext().getContainerID())) {
                return true;
            }
            if (seen.restartCount() > c.getStatusContext().getRestartCount()) {
                return true;
            }
        }
        return created != null && seen.startedAt() != null && seen.startedAt().isAfter(created);
    }

    private static ContainerRecreateRequestContainerRecreateState previousState(ContainerRecreateRequest crr, String name) {
        List<ContainerRecreateRequestContainerRecreateState> states = crr.status().getContainerRecreateStates();
        if (states == null) {
            return null;
        }
        for (ContainerRecreateRequestContainerRecreateState s : states) {
            if (name.equals(s.getName())) {
                return s;
            }
        }
        return null;
    }

    private static List<ContainerRecreateRequestContainerRecreateState> copy(
            List<ContainerRecreateRequestContainerRecreateState> states) {
        List<ContainerRecreateRequestContainerRecreateState> out = new ArrayList<>(states.size());
        for (ContainerRecreateRequestContainerRecreateState s : states) {
            out.add(copy(s));
        }
        return out;
    }

    private static ContainerRecreateRequestContainerRecreateState copy(ContainerRecreateRequestContainerRecreateState s) {
        return new ContainerRecreateRequestContainerRecreateState(s.getName(), s.getPhase(), s.getMessage(),
                s.getIsKilled());
    }
}
