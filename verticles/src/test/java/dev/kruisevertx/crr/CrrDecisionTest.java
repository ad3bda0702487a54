package dev.kruisevertx.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStatus;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.kruisevertx.crr.CrrPlan.Kind.ACQUIRE_UNREADY;
import static dev.kruisevertx.crr.CrrPlan.Kind.COMPLETE;
import static dev.kruisevertx.crr.CrrPlan.Kind.DELETE;
import static dev.kruisevertx.crr.CrrPlan.Kind.DROP_ACTIVE_LABEL;
import static dev.kruisevertx.crr.CrrPlan.Kind.RELEASE_UNREADY;
import static dev.kruisevertx.crr.CrrPlan.Kind.SYNC_STATUSES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class CrrDecisionTest {
    static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");

    static ContainerRecreateRequest crr(String phase) {
        ContainerRecreateRequestSpec spec = new ContainerRecreateRequestSpec();
        spec.setPodName("pod");
        spec.setContainers(List.of(new ContainerRecreateRequestContainer("app")));
        spec.setStrategy(new ContainerRecreateRequestStrategy());
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withName("crr").withNamespace("ns")
                .withCreationTimestamp(CREATED.toString())
                .addToLabels(WellKnown.CRR_POD_UID_LABEL, "uid-1")
                .addToLabels(WellKnown.CRR_ACTIVE_LABEL, "true").build());
        crr.setSpec(spec);
        ContainerRecreateRequestStatus status = new ContainerRecreateRequestStatus();
        status.setPhase(phase);
        crr.setStatus(status);
        return crr;
    }

    static Pod pod(String startedAt) {
        return new PodBuilder().withNewMetadata().withName("pod").withNamespace("ns").withUid("uid-1").endMetadata()
                .withNewStatus().addNewContainerStatus().withName("app").withContainerID("containerd://new")
                .withRestartCount(1).withReady(true).withNewState().withNewRunning().withStartedAt(startedAt)
                .endRunning().endState().endContainerStatus().endStatus().build();
    }

    static List<CrrPlan.Kind> kinds(CrrPlan plan) {
        return plan.steps().stream().map(CrrPlan.Step::kind).toList();
    }

    @Test
    void aRequestWhosePodIsGoneIsCompleted() {
        CrrPlan missing = CrrDecision.decide(crr("Recreating"), null, CREATED.plusSeconds(1));
        assertEquals(List.of(COMPLETE), kinds(missing));
        assertEquals("pod has gone", missing.steps().get(0).message());
        Pod replaced = new PodBuilder(pod("2026-01-01T09:00:00Z")).editMetadata().withUid("uid-2").endMetadata().build();
        assertEquals("pod has gone", CrrDecision.decide(crr("Recreating"), replaced, CREATED).steps().get(0).message());
        Pod terminating = new PodBuilder(pod("2026-01-01T09:00:00Z")).editMetadata()
                .withDeletionTimestamp("2026-01-01T10:00:01Z").endMetadata().build();
        assertEquals(List.of(COMPLETE), kinds(CrrDecision.decide(crr("Recreating"), terminating, CREATED)));
    }

    @Test
    void anUnansweredRequestIsCompletedAfterAMinute() {
        CrrPlan early = CrrDecision.decide(crr(null), pod("2026-01-01T09:00:00Z"), CREATED.plusSeconds(20));
        assertEquals(List.of(), kinds(early));
        assertEquals(Duration.ofSeconds(40), early.requeueAfter());
        CrrPlan late = CrrDecision.decide(crr(null), pod("2026-01-01T09:00:00Z"), CREATED.plusSeconds(60));
        assertEquals("daemon has not responded for a long time", late.steps().get(0).message());
    }

    @Test
    void activeDeadlineSecondsEndsTheRequest() {
        ContainerRecreateRequest crr = crr("Recreating");
        crr.getSpec().setActiveDeadlineSeconds(30L);
        CrrPlan before = CrrDecision.decide(crr, pod("2026-01-01T09:00:00Z"), CREATED.plusSeconds(10));
        assertEquals(Duration.ofSeconds(20), before.requeueAfter());
        CrrPlan after = CrrDecision.decide(crr, pod("2026-01-01T09:00:00Z"), CREATED.plusSeconds(30));
        assertEquals(List.of(COMPLETE), kinds(after));
        assertEquals("recreating has exceeded the activeDeadlineSeconds", after.steps().get(0).message());
    }

    @Test
    void theRecreatedContainersStatusIsCopiedForTheAgent() {
        CrrPlan plan = CrrDecision.decide(crr("Recreating"), pod("2026-01-01T10:00:05Z"), CREATED.plusSeconds(10));
        assertEquals(List.of(SYNC_STATUSES), kinds(plan));
        assertEquals("[{\"name\":\"app\",\"ready\":true,\"restartCount\":1,\"containerID\":\"containerd://new\"}]",
                plan.steps().get(0).syncStatuses());
        // A container that started before the request is history: nothing to copy.
        CrrPlan old = CrrDecision.decide(crr("Recreating"), pod("2026-01-01T09:00:00Z"), CREATED.plusSeconds(10));
        assertEquals("[]", old.steps().get(0).syncStatuses());
        // Nothing to write when the annotation already says it.
        ContainerRecreateRequest synced = crr("Recreating");
        synced.getMetadata().setAnnotations(Map.of(WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION, "[]"));
        assertEquals(List.of(), kinds(CrrDecision.decide(synced, pod("2026-01-01T09:00:00Z"), CREATED)));
    }

    @Test
    void theUnreadyGraceIsAcquiredOnceWhileRecreating() {
        ContainerRecreateRequest crr = crr("Recreating");
        crr.getSpec().getStrategy().setUnreadyGracePeriodSeconds(3L);
        crr.getMetadata().setAnnotations(Map.of(WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION, "[]"));
        assertEquals(List.of(ACQUIRE_UNREADY), kinds(CrrDecision.decide(crr, pod("2026-01-01T09:00:00Z"), CREATED)));
        // Not before the agent has picked the request.
        ContainerRecreateRequest pending = crr("Pending");
        pending.getSpec().getStrategy().setUnreadyGracePeriodSeconds(3L);
        assertEquals(List.of(), kinds(CrrDecision.decide(pending, pod("2026-01-01T09:00:00Z"), CREATED)));
        crr.getMetadata().setAnnotations(Map.of(WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION, "[]",
                WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER, "2026-01-01T10:00:01Z"));
        assertEquals(List.of(), kinds(CrrDecision.decide(crr, pod("2026-01-01T09:00:00Z"), CREATED)));
    }

    @Test
    void aFinishedRequestGivesReadinessBackDropsTheActiveLabelAndExpires() {
        ContainerRecreateRequest done = crr("Completed");
        done.getStatus().setCompletionTime("2026-01-01T10:01:00Z");
        done.getSpec().setTtlSecondsAfterFinished(30);
        done.getMetadata().setFinalizers(List.of(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER));
        assertEquals(List.of(RELEASE_UNREADY, DROP_ACTIVE_LABEL),
                kinds(CrrDecision.decide(done, pod("2026-01-01T09:00:00Z"), CREATED.plusSeconds(61))));

        done.getMetadata().setFinalizers(List.of());
        done.getMetadata().setLabels(Map.of(WellKnown.CRR_POD_UID_LABEL, "uid-1"));
        CrrPlan waiting = CrrDecision.decide(done, null, Instant.parse("2026-01-01T10:01:10Z"));
        assertEquals(List.of(), kinds(waiting));
        assertEquals(Duration.ofSeconds(20), waiting.requeueAfter());
        assertEquals(List.of(DELETE), kinds(CrrDecision.decide(done, null, Instant.parse("2026-01-01T10:01:30Z"))));

        done.getSpec().setTtlSecondsAfterFinished(null);
        CrrPlan kept = CrrDecision.decide(done, null, Instant.parse("2026-01-01T11:00:00Z"));
        assertEquals(List.of(), kinds(kept));
        assertNull(kept.requeueAfter());
    }

    @Test
    void aDeletedRequestOnlyReleasesThePod() {
        ContainerRecreateRequest deleting = crr("Recreating");
        deleting.getMetadata().setDeletionTimestamp("2026-01-01T10:00:10Z");
        deleting.getMetadata().setFinalizers(List.of(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER));
        assertEquals(List.of(RELEASE_UNREADY), kinds(CrrDecision.decide(deleting, pod("2026-01-01T09:00:00Z"), CREATED)));
    }
}
