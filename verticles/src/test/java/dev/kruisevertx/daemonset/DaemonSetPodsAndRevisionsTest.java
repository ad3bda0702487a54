package dev.kruisevertx.daemonset;

import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonSetPodsAndRevisionsTest {

    @Test
    void aNewPodIsPinnedTaggedOwnedAndTolerant() {
        DaemonSet set = DaemonSetPlannerTest.set("inplace");
        Pod pod = DaemonSetPods.forNode(set, "h1", "n7", true);
        assertEquals("ds-", pod.getMetadata().getGenerateName());
        assertEquals("h1", pod.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        assertEquals("d", pod.getMetadata().getLabels().get("app"));
        assertEquals("ds-uid", pod.getMetadata().getOwnerReferences().get(0).getUid());
        assertTrue(pod.getMetadata().getOwnerReferences().get(0).getController());
        assertEquals(Optional.of("n7"), DaemonPlacement.targetNode(pod.getSpec()));
        assertNull(pod.getSpec().getNodeName(), "the scheduler binds it");
        assertEquals(6, pod.getSpec().getTolerations().size());
        assertTrue(Pods.hasReadinessGate(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION));
        assertTrue(set.getSpec().getTemplate().getSpec().getTolerations() == null
                || set.getSpec().getTemplate().getSpec().getTolerations().isEmpty(), "template untouched");
        assertNull(set.getSpec().getTemplate().getSpec().getAffinity(), "template untouched");

        Pod direct = DaemonSetPods.forNode(DaemonSetPlannerTest.set(""), "h1", "n7", false);
        assertEquals("n7", direct.getSpec().getNodeName(), "--assign-pods-by-scheduler=false");
        assertNull(direct.getSpec().getAffinity());
        assertFalse(Pods.hasReadinessGate(direct, WellKnown.INPLACE_UPDATE_READY_CONDITION), "Standard: no gate");
    }

    @Test
    void revisionsAreNamedByHashReusedAndRenumberedOnRollback() {
        DaemonSet v1 = DaemonSetPlannerTest.set("");
        TemplateRevisions.Resolution r1 = DaemonSetRevisions.resolve(v1, List.of());
        assertEquals(r1.update(), r1.toCreate());
        assertEquals("ds-" + r1.hash(), r1.update().getMetadata().getName());
        assertEquals(r1.hash(), r1.update().getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        assertEquals(1L, r1.update().getRevision());
        assertEquals(r1, DaemonSetRevisions.resolve(v1, List.of()), "deterministic");

        DaemonSet v2 = DaemonSetPlannerTest.set("");
        v2.getSpec().getTemplate().getSpec().setHostNetwork(true);
        TemplateRevisions.Resolution r2 = DaemonSetRevisions.resolve(v2, List.of(r1.update()));
        assertNotEquals(r1.hash(), r2.hash());
        assertEquals(2L, r2.update().getRevision());

        // back to v1: the old revision is reused and renumbered, nothing is created
        TemplateRevisions.Resolution back = DaemonSetRevisions.resolve(v1, List.of(r1.update(), r2.update()));
        assertNull(back.toCreate());
        assertEquals(r1.hash(), back.hash());
        assertEquals(3L, back.update().getRevision());
        assertEquals(r1.update(), back.renumber());

        // a name taken by other data: the collision count moves on
        ControllerRevision squatter = new ControllerRevisionBuilder(r1.update()).withData(java.util.Map.of("other", 1)).build();
        TemplateRevisions.Resolution collided = DaemonSetRevisions.afterConflict(v1, r1, squatter);
        assertEquals(1, collided.collisionCount());
        assertNotEquals(r1.hash(), collided.hash());
        assertEquals(r1.hash(), DaemonSetRevisions.afterConflict(v1, r1, r1.update()).hash(), "same data: ours");

        assertEquals(List.of(r1.update()), DaemonSetRevisions.toPrune(List.of(r1.update(), r2.update()), Set.of(r2.hash()), 0));
        assertEquals(List.of(), DaemonSetRevisions.toPrune(List.of(r1.update(), r2.update()), Set.of(r2.hash()), 10));
    }

    @Test
    void nodeHeartbeatsEnqueueNothingButLabelsAndTaintsDo() {
        Node node = new NodeBuilder().withNewMetadata().withName("n1").addToLabels("a", "b").endMetadata()
                .withNewSpec().endSpec().withNewStatus().addNewCondition().withType("Ready").withStatus("True")
                .withLastHeartbeatTime("t1").endCondition().endStatus().build();
        Node heartbeat = new NodeBuilder(node).editStatus().editFirstCondition().withLastHeartbeatTime("t2")
                .endCondition().endStatus().build();
        assertFalse(DaemonSetController.EventHandlers.placementChanged(node, heartbeat));
        Node relabelled = new NodeBuilder(node).editMetadata().addToLabels("a", "c").endMetadata().build();
        assertTrue(DaemonSetController.EventHandlers.placementChanged(node, relabelled));
        Node cordoned = new NodeBuilder(node).editSpec().withUnschedulable(true).endSpec().build();
        assertTrue(DaemonSetController.EventHandlers.placementChanged(node, cordoned));
        assertEquals(CacheEvent.Type.UPDATED, new CacheEvent<>(CacheEvent.Type.UPDATED, node, heartbeat, false).type());
    }
}
