package dev.kruisevertx.broadcastjob;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which node updates reconcile the BroadcastJobs (heartbeats must not wake every job). */
class BroadcastJobNodeEventsTest {
    static Node node() {
        return new NodeBuilder().withNewMetadata().withName("n").withResourceVersion("1").addToLabels("a", "b")
                .endMetadata().withNewSpec().endSpec().withNewStatus().addToAllocatable("cpu", new Quantity("4"))
                .addNewCondition().withType("Ready").withStatus("True").withLastHeartbeatTime("t1").endCondition()
                .endStatus().build();
    }

    @Test
    void aHeartbeatIsNotRelevant() {
        Node now = node();
        now.getMetadata().setResourceVersion("2");
        now.getStatus().getConditions().get(0).setLastHeartbeatTime("t2");
        assertFalse(BroadcastJobController.fitRelevantChange(node(), now));
    }

    @Test
    void labelsTaintsUnschedulableAllocatableAndReadinessAre() {
        Node labels = node();
        labels.getMetadata().getLabels().put("pool", "gpu");
        Node taints = node();
        taints.getSpec().setTaints(List.of(new Taint("NoSchedule", "k", null, "v")));
        Node cordoned = node();
        cordoned.getSpec().setUnschedulable(true);
        Node smaller = node();
        smaller.getStatus().getAllocatable().put("cpu", new Quantity("2"));
        Node notReady = node();
        notReady.getStatus().getConditions().get(0).setStatus("False");
        for (Node n : List.of(labels, taints, cordoned, smaller, notReady)) {
            assertTrue(BroadcastJobController.fitRelevantChange(node(), n));
        }
    }
}
