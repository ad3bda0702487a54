package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.NEW;
import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.NOW;
import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.OLD;
import static dev.kruisevertx.statefulset.StatefulSetPlannerTest.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The status counts the pods that exist, whatever replicas asks for. */
class StatefulSetStatusCalculatorTest {
    static final Function<Pod, String> REVISION = p -> Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL);

    static StatefulSetStatus status(List<Pod> pods, int desiredReplicas) {
        StatefulSet set = StatefulSetFixtures.statefulSet("default", "web", desiredReplicas, "nginx:1");
        set.getMetadata().setGeneration(3L);
        return StatefulSetStatusCalculator.calculate(set, pods, REVISION, OLD, NEW, desiredReplicas, 0, NOW, 0,
                null, null);
    }

    @Test
    void theLargestReplicasCountOnlyThePodsThatExist() {
        List<Pod> pods = List.of(pod(0, NEW, "ready"), pod(1, NEW, "pending"), pod(2, OLD, "ready"),
                pod(3, NEW, "terminating"));
        StatefulSetStatus s = status(pods, Integer.MAX_VALUE);
        assertEquals(4, s.getReplicas());
        assertEquals(2, s.getReadyReplicas());
        assertEquals(2, s.getAvailableReplicas());
        assertEquals(2, s.getUpdatedReplicas(), "terminating pods are not counted as updated");
        assertEquals(1, s.getUpdatedReadyReplicas());
        assertEquals(1, s.getCurrentReplicas());
        assertEquals(OLD, s.getCurrentRevision());
        assertEquals(NEW, s.getUpdateRevision());
        assertEquals(3L, s.getObservedGeneration());

        // Every pod updated and ready, but 2147483644 still missing: the update is not complete.
        List<Pod> updated = List.of(pod(0, NEW, "ready"), pod(1, NEW, "ready"), pod(2, NEW, "ready"));
        assertEquals(OLD, status(updated, Integer.MAX_VALUE).getCurrentRevision());
        StatefulSetStatus complete = status(updated, 3);
        assertEquals(NEW, complete.getCurrentRevision());
        assertEquals(3, complete.getCurrentReplicas());
    }
}
