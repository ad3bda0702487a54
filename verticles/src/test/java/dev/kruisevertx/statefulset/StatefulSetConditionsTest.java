package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSetCondition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class StatefulSetConditionsTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");

    @Test
    void aFailedCreateBecomesFailedCreatePodWithTheErrorAsMessage() {
        StatefulSetConditions.Failures f = new StatefulSetConditions.Failures();
        f.createFailed(new KubernetesClientException("quota exceeded"));
        f.createFailed(new KubernetesClientException("second failure is not reported"));
        List<StatefulSetCondition> c = StatefulSetConditions.of(null, f.messages(), NOW);
        assertEquals(1, c.size());
        assertEquals("FailedCreatePod", c.get(0).getType());
        assertEquals("True", c.get(0).getStatus());
        assertNull(c.get(0).getReason());
        assertEquals("StatefulPodControl failed to create Pod error: quota exceeded", c.get(0).getMessage());
        assertEquals("2026-01-01T00:10:00Z", c.get(0).getLastTransitionTime());
    }

    @Test
    void bothTypesAndTheTransitionTimeOfAConditionAlreadyTrue() {
        StatefulSetCondition before = new StatefulSetCondition();
        before.setType("FailedUpdatePod");
        before.setStatus("True");
        before.setLastTransitionTime("2026-01-01T00:00:00Z");
        before.setMessage("older");
        StatefulSetConditions.Failures f = new StatefulSetConditions.Failures();
        f.updateFailed(new IllegalStateException("conflict"));
        f.createFailed(new IllegalStateException("forbidden"));
        List<StatefulSetCondition> c = StatefulSetConditions.of(List.of(before), f.messages(), NOW);
        assertEquals(List.of("FailedUpdatePod", "FailedCreatePod"), c.stream().map(StatefulSetCondition::getType).toList());
        assertEquals("2026-01-01T00:00:00Z", c.get(0).getLastTransitionTime(), "still failing: same transition");
        assertEquals("StatefulPodControl failed to update Pod error: conflict", c.get(0).getMessage());
        assertEquals("2026-01-01T00:10:00Z", c.get(1).getLastTransitionTime());
    }

    @Test
    void aReconcileWithoutFailuresClearsThem() {
        StatefulSetCondition before = new StatefulSetCondition();
        before.setType("FailedCreatePod");
        before.setStatus("True");
        assertNull(StatefulSetConditions.of(List.of(before), Map.of(), NOW));
    }
}
