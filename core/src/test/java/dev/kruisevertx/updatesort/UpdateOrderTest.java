package dev.kruisevertx.updatesort;

import dev.kruisevertx.api.common.UpdatePriorityOrderTerm;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.kruisevertx.updatesort.TestPods.ints;
import static dev.kruisevertx.updatesort.TestPods.pods;
import static org.junit.jupiter.api.Assertions.assertEquals;

class UpdateOrderTest {
    @Test
    void priorityThenScatterThenPreparingUpdateFirst() {
        List<Pod> pods = pods("o=1", "o=2,lifecycle.apps.kruise.io/state=PreparingUpdate", "o=3", "o=4");
        UpdatePriorityStrategy priority = new UpdatePriorityStrategy();
        priority.setOrderPriority(List.of(new UpdatePriorityOrderTerm("o")));
        assertEquals(ints(1, 3, 2, 0), UpdateOrder.sort(pods, ints(0, 1, 2, 3), priority, null));
        assertEquals(ints(1, 0, 2, 3), UpdateOrder.sort(pods, ints(0, 1, 2, 3), null, null));
    }

    @Test
    void sortersAlsoSortPodLists() {
        List<Pod> pods = pods("o=1", "o=3", "o=2");
        UpdatePriorityStrategy priority = new UpdatePriorityStrategy();
        priority.setOrderPriority(List.of(new UpdatePriorityOrderTerm("o")));
        List<Pod> sorted = new PrioritySorter(priority).sortPods(pods);
        assertEquals(List.of(pods.get(1), pods.get(2), pods.get(0)), sorted);
    }

    @Test
    void scatterAppliesAfterPriority() {
        List<Pod> pods = pods("", "", "", "", "a=x", "a=x");
        assertEquals(ints(4, 0, 1, 2, 3, 5),
                UpdateOrder.sort(pods, ints(0, 1, 2, 3, 4, 5), null, List.of(new UpdateScatterTerm("a", "x"))));
    }
}
