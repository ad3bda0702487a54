package dev.kruisevertx.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class PlanStalenessTest {
    private static ConfigMap object(String uid, long generation, String deletionTimestamp) {
        return new ConfigMapBuilder().withNewMetadata().withName("web").withNamespace("default").withUid(uid)
                .withGeneration(generation).withDeletionTimestamp(deletionTimestamp).withResourceVersion("7")
                .endMetadata().build();
    }

    @Test
    void aPlanGoesOnWhileTheOwnerIsTheSameAndUnchanged() {
        ConfigMap planned = object("u1", 3, null);
        assertNull(PlanStaleness.reason(planned, planned));
        // Metadata and status writes (a new resourceVersion, same generation) do not make a plan stale.
        ConfigMap statusWritten = new ConfigMapBuilder(planned).editMetadata().withResourceVersion("9").endMetadata().build();
        assertNull(PlanStaleness.reason(planned, statusWritten));
    }

    @Test
    void aPlanStopsWhenTheOwnerWentWasReplacedIsBeingDeletedOrChanged() {
        ConfigMap planned = object("u1", 3, null);
        assertEquals("the owner was deleted", PlanStaleness.reason(planned, null));
        assertEquals("the owner was replaced (uid u1 -> u2)", PlanStaleness.reason(planned, object("u2", 1, null)));
        assertEquals("the owner is being deleted",
                PlanStaleness.reason(planned, object("u1", 3, "2026-01-01T00:00:00Z")));
        assertEquals("the owner's spec changed (generation 3 -> 4)", PlanStaleness.reason(planned, object("u1", 4, null)));
    }
}
