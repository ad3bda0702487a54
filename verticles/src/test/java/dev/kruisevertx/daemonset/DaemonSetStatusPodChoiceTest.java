package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which of a node's pods the status counts when a surge pod stands beside the old one: as OpenKruise's
 * updateDaemonSetStatus, the node's first pod by podByCreationTimestampAndPhase (scheduled first, then the oldest,
 * then by name). Creation timestamps have whole seconds, so a surge pod created within the old pod's second is
 * ordered by name alone: that, not the order pods are listed in, decides whether it counts. Each case is decided
 * with the pods listed in both orders.
 */
class DaemonSetStatusPodChoiceTest {
    static final String SURGE = "ms=1 mu=0";

    /** The status with an old pod and a surge pod on node n1, both listed orders; fails if the orders disagree. */
    static DaemonSetStatus status(String oldName, String oldCreated, String newName, String newCreated,
                                  boolean newScheduled) {
        List<Pod> pods = DaemonSetPlannerTest.pods(oldName + "@n1:old:avail," + newName + "@n1:new:"
                + (newScheduled ? "notready" : "pending"));
        pods.get(0).getMetadata().setCreationTimestamp(oldCreated);
        pods.get(1).getMetadata().setCreationTimestamp(newCreated);
        DaemonSetStatus listed = decide(pods);
        List<Pod> reversedOrder = new ArrayList<>(pods);
        Collections.reverse(reversedOrder);
        DaemonSetStatus reversed = decide(reversedOrder);
        assertEquals(listed.getUpdatedNumberScheduled(), reversed.getUpdatedNumberScheduled(),
                "the count does not depend on the order the pods are listed in");
        assertEquals(listed.getNumberReady(), reversed.getNumberReady());
        return listed;
    }

    static DaemonSetStatus decide(List<Pod> pods) {
        return DaemonSetPlanner.decide(new DaemonSetSnapshot(DaemonSetPlannerTest.set(SURGE),
                DaemonSetPlannerTest.nodes("n1"), pods, DaemonSetPlannerTest.NEW, p -> true,
                DaemonSetPlannerTest.NOW)).status();
    }

    @Test
    void aSurgePodCreatedLaterIsNotTheNodesPod() {
        DaemonSetStatus s = status("z-old", "2026-01-01T00:01:00Z", "a-new", "2026-01-01T00:01:01Z", true);
        assertEquals(0, s.getUpdatedNumberScheduled());
        assertEquals(1, s.getNumberReady(), "the old, ready pod is the node's pod");
    }

    @Test
    void withinTheSameSecondTheNameDecides() {
        DaemonSetStatus first = status("z-old", "2026-01-01T00:01:00Z", "a-new", "2026-01-01T00:01:00Z", true);
        assertEquals(1, first.getUpdatedNumberScheduled(), "a-new sorts before z-old");
        assertEquals(0, first.getNumberReady(), "the node's pod is the surge pod, not ready yet");
        DaemonSetStatus second = status("a-old", "2026-01-01T00:01:00Z", "z-new", "2026-01-01T00:01:00Z", true);
        assertEquals(0, second.getUpdatedNumberScheduled(), "a-old sorts before z-new");
        assertEquals(1, second.getNumberReady());
    }

    @Test
    void anUnscheduledSurgePodComesAfterAScheduledOneWhateverItsName() {
        DaemonSetStatus s = status("z-old", "2026-01-01T00:01:00Z", "a-new", "2026-01-01T00:00:00Z", false);
        assertEquals(0, s.getUpdatedNumberScheduled());
    }

    @Test
    void aPodWithoutCreationTimestampIsTheOldestAsKubesZeroTime() {
        DaemonSetStatus s = status("z-old", "2026-01-01T00:01:00Z", "a-new", null, true);
        assertEquals(1, s.getUpdatedNumberScheduled(), "no creationTimestamp is Go's zero time, before any other");
        DaemonSetStatus both = status("z-old", null, "a-new", null, true);
        assertEquals(1, both.getUpdatedNumberScheduled(), "two zero times tie and the name decides");
    }
}
