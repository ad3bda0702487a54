package dev.kruisevertx.agent.crr;

import dev.kruisevertx.agent.crr.ObservedContainer.RuntimeState;
import dev.kruisevertx.agent.crr.RecreatePlan.Action;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerContext;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerRecreateState;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestFailurePolicy;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStatus;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase.FAILED;
import static dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase.PENDING;
import static dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase.RECREATING;
import static dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase.SUCCEEDED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RecreatePlannerTest {
    static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");
    static final Instant NOW = CREATED.plusSeconds(60);

    /** A Recreating request for containers a and b (ids old-a, old-b, restart count 0) with the given states. */
    static ContainerRecreateRequest crr(Consumer<ContainerRecreateRequestStrategy> strategy, String... states) {
        ContainerRecreateRequestSpec spec = new ContainerRecreateRequestSpec();
        spec.setPodName("pod");
        List<ContainerRecreateRequestContainer> containers = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            ContainerRecreateRequestContainer c = new ContainerRecreateRequestContainer(name);
            c.setStatusContext(new ContainerRecreateRequestContainerContext("containerd://old-" + name, 0));
            containers.add(c);
        }
        spec.setContainers(containers);
        ContainerRecreateRequestStrategy s = new ContainerRecreateRequestStrategy();
        s.setFailurePolicy(ContainerRecreateRequestFailurePolicy.FAIL.value());
        strategy.accept(s);
        spec.setStrategy(s);
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withName("crr").withNamespace("ns")
                .withCreationTimestamp(CREATED.toString()).build());
        crr.setSpec(spec);
        ContainerRecreateRequestStatus status = new ContainerRecreateRequestStatus();
        status.setPhase(RECREATING.value());
        if (states.length > 0) {
            status.setContainerRecreateStates(parse(states));
        }
        crr.setStatus(status);
        return crr;
    }

    /** "a=Pending", "a=Recreating!" (killed), "a=Failed:msg". */
    static List<ContainerRecreateRequestContainerRecreateState> parse(String... states) {
        List<ContainerRecreateRequestContainerRecreateState> out = new ArrayList<>();
        for (String s : states) {
            String[] nameRest = s.split("=", 2);
            String rest = nameRest[1];
            String message = null;
            int colon = rest.indexOf(':');
            if (colon >= 0) {
                message = rest.substring(colon + 1);
                rest = rest.substring(0, colon);
            }
            boolean killed = rest.endsWith("!");
            out.add(new ContainerRecreateRequestContainerRecreateState(nameRest[0],
                    killed ? rest.substring(0, rest.length() - 1) : rest, message, killed));
        }
        return out;
    }

    static ObservedContainer old(String name) {
        return new ObservedContainer("containerd://old-" + name, 0, true, RuntimeState.RUNNING, CREATED.minusSeconds(600));
    }

    static ObservedContainer exited(String name) {
        return new ObservedContainer("containerd://old-" + name, 0, false, RuntimeState.EXITED, CREATED.minusSeconds(600));
    }

    static ObservedContainer fresh(String name, boolean ready, Instant startedAt) {
        return new ObservedContainer("containerd://new-" + name, 1, ready, RuntimeState.RUNNING, startedAt);
    }

    static Map<String, ObservedContainer> seen(ObservedContainer a, ObservedContainer b) {
        Map<String, ObservedContainer> m = new LinkedHashMap<>();
        if (a != null) {
            m.put("a", a);
        }
        if (b != null) {
            m.put("b", b);
        }
        return m;
    }

    static final Consumer<ContainerRecreateRequestStrategy> DEFAULTS = s -> {
    };

    @Test
    void aNewRequestIsMovedToRecreatingFirst() {
        ContainerRecreateRequest crr = crr(DEFAULTS);
        crr.getStatus().setPhase(null);
        assertEquals(Action.START, RecreatePlanner.plan(crr, seen(old("a"), old("b")), NOW).action());
        crr.getStatus().setPhase(PENDING.value());
        assertEquals(Action.START, RecreatePlanner.plan(crr, seen(old("a"), old("b")), NOW).action());
    }

    @Test
    void theFirstStatesAreWrittenBeforeAnythingIsStopped() {
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS), seen(old("a"), old("b")), NOW);
        assertEquals(Action.PATCH_STATES, plan.action());
        assertEquals(parse("a=Pending", "b=Pending"), plan.states());
    }

    @Test
    void stopsOneContainerPerStepAndMarksItKilled() {
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Pending", "b=Pending"), seen(old("a"), old("b")), NOW);
        assertEquals(Action.KILL, plan.action());
        assertEquals("a", plan.container());
        assertEquals(parse("a=Recreating!", "b=Pending"), plan.states());
    }

    @Test
    void withoutOrderTheNextContainerIsStoppedWhileThePreviousOneIsStillRecreating() {
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Recreating!", "b=Pending"),
                seen(exited("a"), old("b")), NOW);
        assertEquals(Action.KILL, plan.action());
        assertEquals("b", plan.container());
        assertEquals(parse("a=Recreating!", "b=Recreating!"), plan.states());
    }

    @Test
    void orderedRecreationWaitsForThePreviousContainer() {
        ContainerRecreateRequest crr = crr(s -> s.setOrderedRecreate(true), "a=Recreating!", "b=Pending");
        RecreatePlan plan = RecreatePlanner.plan(crr, seen(exited("a"), old("b")), NOW);
        assertEquals(Action.WAIT, plan.action());
        assertNull(plan.recheckIn());
    }

    @Test
    void orderedRecreationGoesOnOnceThePreviousContainerSucceeded() {
        ContainerRecreateRequest crr = crr(s -> s.setOrderedRecreate(true), "a=Succeeded!", "b=Pending");
        RecreatePlan plan = RecreatePlanner.plan(crr, seen(fresh("a", true, NOW.minusSeconds(5)), old("b")), NOW);
        assertEquals(Action.KILL, plan.action());
        assertEquals("b", plan.container());
    }

    @Test
    void anExitedContainerIsRecreating() {
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Recreating!", "b=Recreating!"),
                seen(exited("a"), fresh("b", false, NOW.minusSeconds(1))), NOW);
        assertEquals(Action.WAIT, plan.action());
    }

    @Test
    void aNewContainerSucceedsOnlyWhenReadyAndStartedForMinStartedSeconds() {
        Consumer<ContainerRecreateRequestStrategy> min3 = s -> s.setMinStartedSeconds(3);
        // Started 1 s ago: still Recreating; the agent looks again after minStartedSeconds.
        RecreatePlan young = RecreatePlanner.plan(crr(min3, "a=Recreating!", "b=Succeeded!"),
                seen(fresh("a", true, NOW.minusSeconds(1)), fresh("b", true, NOW.minusSeconds(9))), NOW);
        assertEquals(Action.WAIT, young.action());
        assertEquals(Duration.ofSeconds(3), young.recheckIn());
        // Started long enough ago but not ready: still Recreating.
        RecreatePlan unready = RecreatePlanner.plan(crr(min3, "a=Recreating!", "b=Succeeded!"),
                seen(fresh("a", false, NOW.minusSeconds(9)), fresh("b", true, NOW.minusSeconds(9))), NOW);
        assertEquals(Action.WAIT, unready.action());
        // Ready and old enough: Succeeded.
        RecreatePlan done = RecreatePlanner.plan(crr(min3, "a=Recreating!", "b=Succeeded!"),
                seen(fresh("a", true, NOW.minusSeconds(4)), fresh("b", true, NOW.minusSeconds(9))), NOW);
        assertEquals(Action.PATCH_STATES, done.action());
        assertEquals(parse("a=Succeeded!", "b=Succeeded!"), done.states());
    }

    @Test
    void allContainersFinishedCompletesTheRequest() {
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Succeeded!", "b=Succeeded!"),
                seen(fresh("a", true, NOW), fresh("b", true, NOW)), NOW);
        assertEquals(Action.COMPLETE, plan.action());
        assertEquals("", plan.message());
    }

    @Test
    void aFinishedStateIsNeverRecomputed() {
        // The container crashed after it had succeeded: the request keeps its result.
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Succeeded!", "b=Failed!:kill container error: x"),
                seen(exited("a"), old("b")), NOW);
        assertEquals(Action.COMPLETE, plan.action());
    }

    @Test
    void failurePolicyFailEndsAtTheFirstFailedContainer() {
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Failed!:kill container error: boom", "b=Pending"),
                seen(old("a"), old("b")), NOW);
        assertEquals(Action.COMPLETE, plan.action());
    }

    @Test
    void failurePolicyIgnoreGoesOnToTheNextContainer() {
        ContainerRecreateRequest crr = crr(
                s -> s.setFailurePolicy(ContainerRecreateRequestFailurePolicy.IGNORE.value()),
                "a=Failed!:kill container error: boom", "b=Pending");
        RecreatePlan plan = RecreatePlanner.plan(crr, seen(old("a"), old("b")), NOW);
        assertEquals(Action.KILL, plan.action());
        assertEquals("b", plan.container());
        assertEquals(FAILED.value(), plan.states().get(0).getPhase());
    }

    @Test
    void aContainerStartedAfterTheRequestIsNotStoppedAgain() {
        ObservedContainer starting = new ObservedContainer("containerd://old-a", 0, false, RuntimeState.RUNNING,
                CREATED.plusSeconds(2));
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Pending", "b=Succeeded!"), seen(starting, old("b")), NOW);
        assertEquals(Action.PATCH_STATES, plan.action());
        assertEquals(parse("a=Recreating", "b=Succeeded!"), plan.states());
    }

    @Test
    void forceRecreateStopsAContainerThatIsStillStarting() {
        ObservedContainer starting = new ObservedContainer("containerd://old-a", 0, false, RuntimeState.RUNNING,
                CREATED.plusSeconds(2));
        ContainerRecreateRequest crr = crr(s -> s.setForceRecreate(true), "a=Pending", "b=Succeeded!");
        RecreatePlan plan = RecreatePlanner.plan(crr, seen(starting, old("b")), NOW);
        assertEquals(Action.KILL, plan.action());
        assertEquals("a", plan.container());
        // Once stopped by this request, the new container is not stopped a second time.
        ContainerRecreateRequest killed = crr(s -> s.setForceRecreate(true), "a=Recreating!", "b=Succeeded!");
        RecreatePlan after = RecreatePlanner.plan(killed, seen(fresh("a", false, NOW.minusSeconds(1)), old("b")), NOW);
        assertEquals(Action.WAIT, after.action());
    }

    @Test
    void aRestartCountAboveTheContextMeansAlreadyRecreated() {
        ObservedContainer restarted = new ObservedContainer("containerd://old-a", 1, false, RuntimeState.RUNNING,
                CREATED.minusSeconds(5));
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS, "a=Pending", "b=Succeeded!"), seen(restarted, old("b")), NOW);
        assertEquals(parse("a=Recreating", "b=Succeeded!"), plan.states());
    }

    @Test
    void aContainerTheNodeDoesNotKnowStaysPendingAndNothingIsStopped() {
        RecreatePlan plan = RecreatePlanner.plan(crr(DEFAULTS), seen(null, old("b")), NOW);
        assertEquals(Action.PATCH_STATES, plan.action());
        assertEquals(parse("a=Pending:" + RecreatePlanner.NOT_FOUND_MESSAGE, "b=Pending"), plan.states());
        RecreatePlan next = RecreatePlanner.plan(crr(DEFAULTS, "a=Pending:" + RecreatePlanner.NOT_FOUND_MESSAGE,
                "b=Pending"), seen(null, old("b")), NOW);
        assertEquals(Action.WAIT, next.action());
    }

    @Test
    void theUnreadyGraceHoldsTheRequestUntilItHasPassed() {
        Consumer<ContainerRecreateRequestStrategy> grace = s -> s.setUnreadyGracePeriodSeconds(5L);
        ContainerRecreateRequest notAcquired = crr(grace, "a=Pending", "b=Pending");
        RecreatePlan waiting = RecreatePlanner.plan(notAcquired, seen(old("a"), old("b")), NOW);
        assertEquals(Action.WAIT_UNREADY, waiting.action());
        assertNull(waiting.recheckIn());

        ContainerRecreateRequest acquired = crr(grace, "a=Pending", "b=Pending");
        acquired.getMetadata().setAnnotations(Map.of(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER,
                NOW.minusSeconds(2).toString()));
        RecreatePlan inGrace = RecreatePlanner.plan(acquired, seen(old("a"), old("b")), NOW);
        assertEquals(Action.WAIT_UNREADY, inGrace.action());
        assertEquals(Duration.ofMillis(3100), inGrace.recheckIn());

        RecreatePlan after = RecreatePlanner.plan(acquired, seen(old("a"), old("b")), NOW.plusSeconds(4));
        assertEquals(Action.KILL, after.action());
    }

    @Test
    void anUnreadableUnreadyTimeEndsTheRequest() {
        ContainerRecreateRequest crr = crr(s -> s.setUnreadyGracePeriodSeconds(5L));
        crr.getMetadata().setAnnotations(Map.of(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER, "yesterday"));
        RecreatePlan plan = RecreatePlanner.plan(crr, seen(old("a"), old("b")), NOW);
        assertEquals(Action.COMPLETE, plan.action());
        assertEquals(true, plan.message().startsWith("failed to parse unready time yesterday"), plan.message());
    }

    @Test
    void completedPhaseConstantMatchesOpenKruise() {
        assertEquals("Completed", ContainerRecreateRequestPhase.COMPLETED.value());
        assertEquals(List.of("Pending", "Recreating", "Succeeded", "Failed"),
                List.of(PENDING.value(), RECREATING.value(), SUCCEEDED.value(), FAILED.value()));
    }
}
