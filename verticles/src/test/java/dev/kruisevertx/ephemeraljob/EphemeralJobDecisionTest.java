package dev.kruisevertx.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralContainerTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobSpec;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobStatus;
import dev.kruisevertx.api.apps.v1beta1.JobCondition;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.EphemeralContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ephemeral job progress table: one decision per case, as OpenKruise v1.9.0's reconcile would act. */
class EphemeralJobDecisionTest {
    static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
    static final String UID = "job-uid";

    static EphemeralJob job(Consumer<EphemeralJobSpec> spec) {
        EphemeralJob j = new EphemeralJob();
        j.setMetadata(new ObjectMetaBuilder().withName("ej").withNamespace("ns").withUid(UID)
                .withFinalizers(EphemeralJobDecision.FINALIZER).withResourceVersion("1")
                .withCreationTimestamp("2026-11-24T11:00:00Z").build());
        EphemeralJobSpec s = new EphemeralJobSpec();
        s.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build());
        EphemeralContainerTemplateSpec t = new EphemeralContainerTemplateSpec();
        t.setEphemeralContainers(List.of(new EphemeralContainerBuilder().withName("debugger").withImage("busybox")
                .withImagePullPolicy("IfNotPresent").withTerminationMessagePolicy("File").build()));
        s.setTemplate(t);
        spec.accept(s);
        j.setSpec(s);
        return j;
    }

    static EphemeralJob job() {
        return job(s -> { });
    }

    /** A running pod created {@code age} seconds before NOW, labelled app=web. */
    static PodBuilder pod(String name, int age) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withLabels(Map.of("app", "web"))
                .withCreationTimestamp(NOW.minusSeconds(age).toString()).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus();
    }

    static EphemeralContainer ours() {
        return new EphemeralContainerBuilder().withName("debugger").withImage("busybox")
                .withEnv(new EnvVar(EphemeralJob.JOB_ID_ENV, UID, null)).build();
    }

    /** A pod that has our container, in the given state. */
    static Pod injected(String name, int age, ContainerStatus status) {
        return pod(name, age).editSpec().withEphemeralContainers(ours()).endSpec()
                .editStatus().withEphemeralContainerStatuses(status).endStatus().build();
    }

    static ContainerStatus running() {
        return new ContainerStatusBuilder().withName("debugger").withState(new ContainerStateBuilder().withNewRunning()
                .withStartedAt("2026-11-24T11:59:00Z").endRunning().build()).build();
    }

    static ContainerStatus exited(int code) {
        return new ContainerStatusBuilder().withName("debugger").withState(new ContainerStateBuilder().withNewTerminated()
                .withExitCode(code).withFinishedAt("2026-11-24T11:59:30Z").endTerminated().build()).build();
    }

    static ContainerStatus waiting(String reason) {
        return new ContainerStatusBuilder().withName("debugger").withState(new ContainerStateBuilder().withNewWaiting()
                .withReason(reason).endWaiting().build()).build();
    }

    static EphemeralJobPlan decide(EphemeralJob job, Pod... pods) {
        return EphemeralJobDecision.decide(job, List.of(pods), NOW);
    }

    static List<String> conditions(EphemeralJobStatus s) {
        List<String> out = new ArrayList<>();
        for (JobCondition c : s.getConditions()) {
            out.add(c.getType() + "/" + c.getReason());
        }
        return out;
    }

    @Test
    void deletionReleasesTheFinalizerAndDoesNothingElse() {
        EphemeralJob j = job();
        j.getMetadata().setDeletionTimestamp(NOW.toString());
        EphemeralJobPlan plan = decide(j, pod("a", 10).build());
        assertTrue(plan.removeFinalizer());
        assertEquals(List.of(), plan.injectInto());
        assertNull(plan.status());
    }

    @Test
    void deletionWithoutOurFinalizerIsLeftAlone() {
        EphemeralJob j = job();
        j.getMetadata().setDeletionTimestamp(NOW.toString());
        j.getMetadata().setFinalizers(List.of("someone.else/keep"));
        EphemeralJobPlan plan = decide(j);
        assertFalse(plan.removeFinalizer());
        assertFalse(plan.addFinalizer());
    }

    @Test
    void aNewJobGetsTheFinalizerStartTimeAndItsFirstPod() {
        EphemeralJob j = job();
        j.getMetadata().setFinalizers(null);
        EphemeralJobPlan plan = decide(j, pod("a", 10).build());
        assertTrue(plan.addFinalizer());
        assertEquals("2026-11-24T12:00:00Z", plan.status().getStartTime());
        assertEquals(List.of("Initialized/Initialized"), conditions(plan.status()));
        assertEquals(List.of("a"), plan.injectInto());
        assertEquals(1, plan.status().getMatch());
        assertEquals("Unknown", plan.status().getPhase(), "matched but nothing reported yet, as OpenKruise");
    }

    @Test
    void noMatchingPodIsWaitingWithMatchedEmpty() {
        EphemeralJobPlan plan = decide(job(), pod("other", 10).withNewMetadataLike(pod("other", 10).build().getMetadata())
                .withLabels(Map.of("app", "db")).endMetadata().build());
        assertEquals("Waiting", plan.status().getPhase());
        assertEquals(0, plan.status().getMatch());
        assertEquals(List.of("Initialized/Initialized", "MatchedEmpty/MatchEmpty"), conditions(plan.status()));
        assertEquals(List.of(), plan.injectInto());
    }

    @Test
    void defaultParallelismIsOneOldestPodFirst() {
        EphemeralJobPlan plan = decide(job(), pod("young", 5).build(), pod("old", 50).build(), pod("mid", 20).build());
        assertEquals(List.of("old"), plan.injectInto());
        assertEquals(3, plan.status().getMatch());
    }

    @Test
    void parallelismCountsRunningContainers() {
        EphemeralJobPlan plan = decide(job(s -> s.setParallelism(2)), injected("a", 50, running()), pod("b", 40).build(),
                pod("c", 30).build());
        assertEquals(List.of("b"), plan.injectInto());
        assertEquals(1, plan.status().getRunning());
        assertEquals("Running", plan.status().getPhase());
    }

    @Test
    void moreRunningThanParallelismAddsNothing() {
        EphemeralJobPlan plan = decide(job(s -> s.setParallelism(1)), injected("a", 50, running()),
                injected("b", 40, running()), pod("c", 30).build());
        assertEquals(List.of(), plan.injectInto());
    }

    @Test
    void replicasLimitsTheTargetsToTheOldest() {
        EphemeralJobPlan plan = decide(job(s -> {
            s.setReplicas(2);
            s.setParallelism(5);
        }), pod("c", 10).build(), pod("a", 30).build(), pod("b", 20).build());
        assertEquals(2, plan.status().getMatch());
        assertEquals(List.of("a", "b"), plan.injectInto());
    }

    @Test
    void aPodWithAForeignContainerOfTheSameNameIsSkipped() {
        Pod foreign = pod("a", 50).editSpec().withEphemeralContainers(new EphemeralContainerBuilder()
                .withName("debugger").withImage("busybox").build()).endSpec().build();
        EphemeralJobPlan plan = decide(job(), foreign, pod("b", 10).build());
        assertEquals(1, plan.status().getMatch());
        assertEquals(List.of("b"), plan.injectInto());
    }

    @Test
    void finishedAndTerminatingPodsAreNotTargets() {
        Pod done = pod("done", 50).editStatus().withPhase("Succeeded").endStatus().build();
        Pod leaving = pod("leaving", 40).editMetadata().withDeletionTimestamp(NOW.toString()).endMetadata().build();
        EphemeralJobPlan plan = decide(job(), done, leaving);
        assertEquals(0, plan.status().getMatch());
        assertEquals(List.of(), plan.injectInto());
    }

    @Test
    void allSucceededCompletesTheJob() {
        EphemeralJobPlan plan = decide(job(), injected("a", 50, exited(0)), injected("b", 40, exited(0)));
        assertEquals("Succeeded", plan.status().getPhase());
        assertEquals(2, plan.status().getSucceeded());
        assertEquals("2026-11-24T12:00:00Z", plan.status().getCompletionTime());
        assertTrue(conditions(plan.status()).contains("JobSucceeded/JobSucceeded"));
        assertEquals(List.of(), plan.injectInto());
        assertEquals(Duration.ofSeconds(EphemeralJob.DEFAULT_TTL_SECONDS), plan.requeueAfter());
    }

    @Test
    void aFailedContainerIsCountedAndConditionedButTheJobGoesOn() {
        EphemeralJobPlan plan = decide(job(), injected("a", 50, exited(2)), pod("b", 40).build());
        assertEquals(1, plan.status().getFailed());
        assertEquals("Unknown", plan.status().getPhase());
        assertTrue(conditions(plan.status()).contains("JobFailed/CreateFailed"));
        assertEquals(List.of("b"), plan.injectInto());
        assertNull(plan.status().getCompletionTime());
    }

    @Test
    void allFailedFailsTheJob() {
        EphemeralJobPlan plan = decide(job(), injected("a", 50, exited(1)), injected("b", 40, waiting("RunContainerError")));
        assertEquals("Failed", plan.status().getPhase());
        assertEquals(2, plan.status().getFailed());
        assertNotNull(plan.status().getCompletionTime());
        assertTrue(conditions(plan.status()).contains("JobFailed/CreateFailed"),
                "the later CreateFailed replaces JobFailed's reason, as OpenKruise's addConditions");
    }

    @Test
    void waitingContainersAreWaiting() {
        EphemeralJobPlan plan = decide(job(), injected("a", 50, waiting("ContainerCreating")));
        assertEquals(1, plan.status().getWaiting());
        assertEquals("Waiting", plan.status().getPhase());
    }

    @Test
    void pausedCountsButAddsNothing() {
        EphemeralJobPlan plan = decide(job(s -> s.setPaused(true)), injected("a", 50, running()), pod("b", 40).build());
        assertEquals("Paused", plan.status().getPhase());
        assertEquals(1, plan.status().getRunning());
        assertEquals(List.of(), plan.injectInto());
    }

    @Test
    void deadlinePassedFailsTheJobAndAddsNothing() {
        EphemeralJob j = job(s -> s.setActiveDeadlineSeconds(60L));
        EphemeralJobStatus st = new EphemeralJobStatus();
        st.setStartTime("2026-11-24T11:58:00Z");
        j.setStatus(st);
        EphemeralJobPlan plan = decide(j, injected("a", 50, running()), pod("b", 40).build());
        assertEquals("Failed", plan.status().getPhase());
        assertTrue(conditions(plan.status()).contains("JobFailed/DeadlineExceeded"));
        assertEquals(List.of(), plan.injectInto());
    }

    @Test
    void deadlineAheadIsWhenToLookAgain() {
        EphemeralJob j = job(s -> s.setActiveDeadlineSeconds(600L));
        EphemeralJobStatus st = new EphemeralJobStatus();
        st.setStartTime("2026-11-24T11:58:00Z");
        j.setStatus(st);
        EphemeralJobPlan plan = decide(j, pod("a", 10).build());
        assertEquals(Duration.ofSeconds(480), plan.requeueAfter());
        assertEquals(List.of("a"), plan.injectInto());
    }

    @Test
    void anEmptyTemplateIsAnError() {
        EphemeralJobPlan plan = decide(job(s -> s.getTemplate().setEphemeralContainers(List.of())), pod("a", 10).build());
        assertEquals("Error", plan.status().getPhase());
        assertTrue(conditions(plan.status()).contains("JobError/Error"));
        assertEquals(List.of(), plan.injectInto());
    }

    @Test
    void aFinishedJobWaitsForItsTtl() {
        EphemeralJob j = job(s -> s.setTtlSecondsAfterFinished(100));
        EphemeralJobStatus st = new EphemeralJobStatus();
        st.setCompletionTime("2026-11-24T11:59:00Z");
        j.setStatus(st);
        EphemeralJobPlan plan = decide(j, pod("a", 10).build());
        assertFalse(plan.deleteJob());
        assertEquals(Duration.ofSeconds(40), plan.requeueAfter());
        assertNull(plan.status());
        assertEquals(List.of(), plan.injectInto());
    }

    @Test
    void aFinishedJobIsDeletedAfterItsTtlDefault1800() {
        EphemeralJob j = job();
        EphemeralJobStatus st = new EphemeralJobStatus();
        st.setCompletionTime("2026-11-24T11:30:00Z");
        j.setStatus(st);
        assertTrue(decide(j).deleteJob());
        st.setCompletionTime("2026-11-24T11:31:00Z");
        assertFalse(decide(j).deleteJob());
    }

    @Test
    void anUnchangedStatusIsNotWrittenAgain() {
        EphemeralJob j = job();
        Pod a = injected("a", 50, running());
        EphemeralJobPlan first = decide(j, a);
        j.setStatus(first.status());
        EphemeralJobPlan second = EphemeralJobDecision.decide(j, List.of(a), NOW.plusSeconds(30));
        assertNull(second.status(), "conditions keep their times while nothing changes");
        assertEquals(List.of(), second.injectInto());
    }

    @Test
    void hostileSpecsDecideWithoutFailing() {
        EphemeralJobPlan negative = decide(job(s -> {
            s.setReplicas(-3);
            s.setParallelism(-1);
            s.setActiveDeadlineSeconds(-5L);
        }), pod("a", 10).build());
        assertEquals(0, negative.status().getMatch());
        assertEquals(List.of(), negative.injectInto());
        EphemeralJobPlan noSelector = decide(job(s -> s.setSelector(null)), pod("a", 10).build());
        assertEquals(0, noSelector.status().getMatch());
        EphemeralJobPlan badOperator = decide(job(s -> s.setSelector(new LabelSelectorBuilder().addNewMatchExpression()
                .withKey("app").withOperator("Sometimes").endMatchExpression().build())), pod("a", 10).build());
        assertEquals(0, badOperator.status().getMatch());
        EphemeralJob garbled = job();
        EphemeralJobStatus st = new EphemeralJobStatus();
        st.setStartTime("not a time");
        garbled.setStatus(st);
        assertEquals("2026-11-24T12:00:00Z", decide(garbled, pod("a", 10).build()).status().getStartTime());
    }

    /** {@code kubectl kruise why}: a job whose selector matches no active pod is held by NoMatchingPods. */
    @Test
    void aJobWithoutPodsIsHeldByNoMatchingPods() {
        EphemeralJobPlan idle = decide(job());
        assertEquals(List.of("NoMatchingPods: spec.selector matches no active pod"),
                idle.holds().stream().map(r -> r.code() + ": " + r.message()).toList());
        assertEquals(List.of(), decide(job(), pod("a", 10).build()).holds());
    }
}
