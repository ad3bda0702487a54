package dev.kruisevertx.agent.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RequestPickerTest {
    static ContainerRecreateRequest crr(String name, String created, String phase, boolean completed) {
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").withCreationTimestamp(created).build());
        ContainerRecreateRequestStatus status = new ContainerRecreateRequestStatus();
        status.setPhase(phase);
        if (completed) {
            status.setCompletionTime("2026-01-01T10:10:00Z");
        }
        crr.setStatus(status);
        return crr;
    }

    static List<String> names(List<ContainerRecreateRequest> list) {
        return list.stream().map(c -> c.getMetadata().getName()).toList();
    }

    @Test
    void theOldestNewRequestRunsAndTheOthersArePutPending() {
        RequestPicker.Picked picked = RequestPicker.pick(List.of(
                crr("newer", "2026-01-01T10:00:05Z", null, false),
                crr("oldest", "2026-01-01T10:00:01Z", null, false),
                crr("middle", "2026-01-01T10:00:03Z", null, false)));
        assertEquals("oldest", picked.running().getMetadata().getName());
        assertEquals(List.of("middle", "newer"), names(picked.toPending()));
    }

    @Test
    void aRecreatingRequestKeepsRunningEvenIfAnOlderOneWaits() {
        RequestPicker.Picked picked = RequestPicker.pick(List.of(
                crr("old-pending", "2026-01-01T10:00:01Z", ContainerRecreateRequestPhase.PENDING.value(), false),
                crr("recreating", "2026-01-01T10:00:05Z", ContainerRecreateRequestPhase.RECREATING.value(), false),
                crr("unanswered", "2026-01-01T10:00:06Z", null, false)));
        assertEquals("recreating", picked.running().getMetadata().getName());
        // Already Pending ones are not written again.
        assertEquals(List.of("unanswered"), names(picked.toPending()));
    }

    @Test
    void finishedAndDeletingRequestsAreSkipped() {
        ContainerRecreateRequest deleting = crr("deleting", "2026-01-01T10:00:00Z", null, false);
        deleting.getMetadata().setDeletionTimestamp("2026-01-01T10:05:00Z");
        RequestPicker.Picked picked = RequestPicker.pick(List.of(
                crr("done", "2026-01-01T09:00:00Z", ContainerRecreateRequestPhase.COMPLETED.value(), true),
                deleting,
                crr("next", "2026-01-01T10:00:02Z", ContainerRecreateRequestPhase.PENDING.value(), false)));
        assertEquals("next", picked.running().getMetadata().getName());
        assertEquals(List.of(), picked.toPending());
        assertNull(RequestPicker.pick(List.of(crr("done", "2026-01-01T09:00:00Z",
                ContainerRecreateRequestPhase.COMPLETED.value(), true))).running());
    }

    @Test
    void aPendingYoungerRequestNeverOvertakesAnOlderOneTheCacheShowsUnanswered() {
        // The cache has seen our Pending patch of "second" but not yet our Recreating patch of "first".
        RequestPicker.Picked picked = RequestPicker.pick(List.of(
                crr("second", "2026-01-01T10:00:02Z", ContainerRecreateRequestPhase.PENDING.value(), false),
                crr("first", "2026-01-01T10:00:01Z", null, false)));
        assertEquals("first", picked.running().getMetadata().getName());
        assertEquals(List.of(), picked.toPending());
    }
}
