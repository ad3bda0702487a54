package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicatedWorkloadKindTest {
    private static JsonNode json(String yaml) {
        return Serialization.jsonMapper().valueToTree(Serialization.unmarshal(yaml, java.util.Map.class));
    }

    @Test
    void cloneSetTypesOfEitherServedVersionNameTheStoredV1alpha1Object() {
        for (String type : new String[]{"clonesets.v1beta1.apps.kruise.io", "cloneset.v1beta1.apps.kruise.io",
                "CloneSets.v1alpha1.apps.kruise.io", "clonesets.apps.kruise.io"}) {
            WorkloadKind kind = WorkloadKinds.resolve(type);
            assertEquals("CloneSet", kind.kind(), type);
            assertEquals("v1alpha1", kind.context().getVersion(), type);
        }
        assertThrows(CliException.class, () -> WorkloadKinds.resolve("clonesets.v2.apps.kruise.io"));
    }

    @Test
    void partitionIsAnIntOrAPercentageRoundedUp() {
        assertEquals(0, ReplicatedWorkloadKind.partition(MissingNode.getInstance(), 5));
        assertEquals(2, ReplicatedWorkloadKind.partition(IntNode.valueOf(2), 5));
        assertEquals(5, ReplicatedWorkloadKind.partition(IntNode.valueOf(9), 5));
        assertEquals(2, ReplicatedWorkloadKind.partition(TextNode.valueOf("30%"), 5));
        assertEquals(0, ReplicatedWorkloadKind.partition(TextNode.valueOf("0%"), 5));
        assertThrows(CliException.class, () -> ReplicatedWorkloadKind.partition(TextNode.valueOf("x%"), 5));
    }

    @Test
    void unobservedGenerationWaits() {
        RolloutState s = ReplicatedWorkloadKind.cloneSet().rolloutState(json("""
                metadata: {name: a, generation: 4}
                spec: {replicas: 1}
                status: {observedGeneration: 3, replicas: 1, updatedReplicas: 1, updatedReadyReplicas: 1}
                """));
        assertFalse(s.done());
        assertEquals("Waiting for CloneSet spec update to be observed...", s.message());
    }

    @Test
    void surplusOldPodsAndUnreadyUpdatesWait() {
        RolloutState surplus = ReplicatedWorkloadKind.cloneSet().rolloutState(json("""
                metadata: {name: a}
                spec: {replicas: 2}
                status: {replicas: 3, updatedReplicas: 2, updatedReadyReplicas: 2}
                """));
        assertEquals("Waiting for rollout to finish: 1 old replicas are pending termination...", surplus.message());
        RolloutState unready = ReplicatedWorkloadKind.cloneSet().rolloutState(json("""
                metadata: {name: a}
                spec: {replicas: 4, updateStrategy: {partition: "50%"}}
                status: {replicas: 4, updatedReplicas: 2, updatedReadyReplicas: 1}
                """));
        assertEquals("Waiting for rollout to finish: 1 of 2 updated replicas are ready...", unready.message());
    }

    @Test
    void replicasDefaultToOne() {
        RolloutState s = ReplicatedWorkloadKind.cloneSet().rolloutState(json("""
                metadata: {name: a}
                spec: {}
                status: {replicas: 1, updatedReplicas: 1, updatedReadyReplicas: 1}
                """));
        assertTrue(s.done());
    }

    @Test
    void kindsArePluggable() {
        WorkloadKind custom = new ReplicatedWorkloadKind("UnitedDeployment", java.util.List.of("ud-test"),
                "apps.kruise.io", "v1alpha1", "uniteddeployments", java.util.List.of("spec", "paused"), java.util.List.of("spec", "partition"));
        WorkloadKinds.register(custom);
        assertEquals(custom, WorkloadKinds.resolve("UD-TEST"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadKinds.register(custom));
    }
}
