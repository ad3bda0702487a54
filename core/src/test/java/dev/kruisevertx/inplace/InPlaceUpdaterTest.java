package dev.kruisevertx.inplace;

import dev.kruisevertx.api.common.InPlaceUpdateContainerBatch;
import dev.kruisevertx.api.common.InPlaceUpdateState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.kruisevertx.inplace.InPlaceFixtures.container;
import static dev.kruisevertx.inplace.InPlaceFixtures.envFromAnnotation;
import static dev.kruisevertx.inplace.InPlaceFixtures.envFromLabel;
import static dev.kruisevertx.inplace.InPlaceFixtures.json;
import static dev.kruisevertx.inplace.InPlaceFixtures.map;
import static dev.kruisevertx.inplace.InPlaceFixtures.pod;
import static dev.kruisevertx.inplace.InPlaceFixtures.restarted;
import static dev.kruisevertx.inplace.InPlaceFixtures.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InPlaceUpdaterTest {
    private static final Instant T0 = Instant.parse("2026-03-22T09:06:55Z");
    private final InPlaceUpdater updater = new InPlaceUpdater(RevisionLabels.cloneSet(false));

    private static PodTemplateSpec v1() {
        return template(map("app", "demo"), map(), container("main", "nginx:1.0", null),
                container("sidecar", "busybox:1.0", null));
    }

    private static PodTemplateSpec v2() {
        return template(map("app", "demo", "tier", "web"), map(), container("main", "nginx:2.0", null),
                container("sidecar", "busybox:1.0", null));
    }

    private static InPlaceUpdateState state(Pod pod) {
        return InPlaceUpdateState.readFrom(pod).orElseThrow();
    }

    private static String condition(Pod pod, String type) {
        return Pods.condition(pod, type).map(PodCondition::getStatus).orElse(null);
    }

    private static io.fabric8.kubernetes.api.model.Container specOf(Pod pod, String name) {
        return pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(name)).findFirst().orElseThrow();
    }

    private static String image(Pod pod, String container) {
        return pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(container)).findFirst()
                .orElseThrow().getImage();
    }

    @Test
    void prepareWritesEverythingOnACopy() {
        Pod pod = pod(v1(), "demo-11111");
        String before = json(pod);
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-22222", InPlaceUpdateOptions.defaults());

        Pod updated = updater.prepare(pod, spec, T0);

        assertEquals(before, json(pod), "the cached input must not change");
        assertEquals("demo-22222", Pods.label(updated, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        assertEquals("22222", Pods.label(updated, WellKnown.POD_TEMPLATE_HASH_LABEL));
        assertEquals("web", Pods.label(updated, "tier"));
        assertEquals("nginx:2.0", image(updated, "main"));
        assertEquals("busybox:1.0", image(updated, "sidecar"));
        assertEquals("False", condition(updated, WellKnown.INPLACE_UPDATE_READY_CONDITION));
        assertEquals(InPlaceUpdater.START_REASON, Pods.condition(updated, WellKnown.INPLACE_UPDATE_READY_CONDITION)
                .orElseThrow().getReason());
        assertEquals("False", condition(updated, "Ready"), "a gate set False takes the pod out of endpoints");

        InPlaceUpdateState st = state(updated);
        assertEquals("demo-22222", st.getRevision());
        assertEquals("2026-03-22T09:06:55Z", st.getUpdateTimestamp());
        assertTrue(st.isUpdateImages());
        assertEquals("docker-pullable://nginx:1.0@sha256:old-main", st.getLastContainerStatuses().get("main").getImageID());
        assertEquals(1, st.getLastContainerStatuses().size());
        assertNull(st.getNextContainerImages());
        assertNull(st.getPreCheckBeforeNext());
        assertEquals(List.of(new InPlaceUpdateContainerBatch("2026-03-22T09:06:55Z", List.of("main"))),
                st.getContainerBatchesRecord());
        assertFalse(Pods.annotations(updated).containsKey(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION));
    }

    @Test
    void prepareRejectsAMissingSpec() {
        assertThrows(IllegalArgumentException.class, () -> updater.prepare(pod(v1(), "demo-1"), null, T0));
    }

    @Test
    void shortHashGateWritesTheBareHash() {
        Pod pod = pod(v1(), "demo-11111");
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-22222", InPlaceUpdateOptions.defaults());
        Pod updated = new InPlaceUpdater(RevisionLabels.cloneSet(true)).prepare(pod, spec, T0);
        assertEquals("22222", Pods.label(updated, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        assertTrue(RevisionLabels.cloneSet(true).matches(updated, "demo-22222"));
        assertFalse(RevisionLabels.plain().matches(updated, "demo-22222"));
    }

    @Test
    void completionFollowsTheImageId() {
        Pod pod = pod(v1(), "demo-1");
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-2", InPlaceUpdateOptions.defaults());
        Pod updated = updater.prepare(pod, spec, T0);

        CompletionCheck pending = updater.checkCompleted(updated);
        assertFalse(pending.done());
        assertEquals("container main imageID not changed", pending.message());
        assertEquals(RefreshOutcome.Action.NONE, updater.refresh(updated, T0).action());

        Pod running = restarted(updated, "main", true);
        assertTrue(updater.checkCompleted(running).done());
        RefreshOutcome ready = updater.refresh(running, T0.plusSeconds(5));
        assertEquals(RefreshOutcome.Action.UPDATE_STATUS, ready.action());
        assertEquals("True", condition(ready.pod(), WellKnown.INPLACE_UPDATE_READY_CONDITION));
        assertEquals(RefreshOutcome.Action.NONE, updater.refresh(ready.pod(), T0).action(), "nothing left to do");
    }

    @Test
    void sameImageIdCountsWhenTheStatusShowsTheSpecImage() {
        Pod updated = updater.prepare(pod(v1(), "demo-1"),
                InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-2", InPlaceUpdateOptions.defaults()), T0);
        Pod sameDigest = new PodBuilder(updated).build();
        sameDigest.getStatus().getContainerStatuses().get(0).setImage("nginx:2.0");
        assertTrue(updater.checkCompleted(sameDigest).done());
    }

    @Test
    void missingStatusIsNotDone() {
        Pod updated = updater.prepare(pod(v1(), "demo-1"),
                InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-2", InPlaceUpdateOptions.defaults()), T0);
        Pod noStatus = new PodBuilder(updated).editStatus().withContainerStatuses(List.of()).endStatus().build();
        CompletionCheck c = updater.checkCompleted(noStatus);
        assertFalse(c.done());
        assertTrue(c.message().startsWith("not found statuses of containers"), c.message());
    }

    @Test
    void podWithoutStateIsComplete() {
        assertTrue(updater.checkCompleted(pod(v1(), "demo-1")).done());
    }

    @Test
    void containersAreUpdatedInPriorityBatches() {
        PodTemplateSpec old = template(map("app", "demo"), map(), container("sidecar", "sidecar:1", 10),
                container("main", "main:1", 0));
        PodTemplateSpec next = template(map("app", "demo"), map(), container("sidecar", "sidecar:2", 10),
                container("main", "main:2", 0));
        Pod pod = pod(old, "demo-1");
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(old, next, "demo-2", InPlaceUpdateOptions.defaults());

        Pod batch1 = updater.prepare(pod, spec, T0);
        assertEquals("sidecar:2", image(batch1, "sidecar"));
        assertEquals("main:1", image(batch1, "main"));
        InPlaceUpdateState st = state(batch1);
        assertEquals(Map.of("main", "main:2"), st.getNextContainerImages());
        assertEquals(List.of("sidecar"), st.getPreCheckBeforeNext().getContainersRequiredReady());
        CompletionCheck check = updater.checkCompleted(batch1);
        assertFalse(check.done());
        assertTrue(check.nextBatchNeeded());

        // The sidecar restarted but is not ready yet: wait.
        Pod sidecarStarting = restarted(batch1, "sidecar", false);
        RefreshOutcome wait = updater.refresh(sidecarStarting, T0.plusSeconds(10));
        assertEquals(RefreshOutcome.Action.NONE, wait.action());
        assertEquals("waiting container sidecar to be ready", wait.message());

        Pod sidecarReady = restarted(batch1, "sidecar", true);
        RefreshOutcome next2 = updater.refresh(sidecarReady, T0.plusSeconds(25));
        assertEquals(RefreshOutcome.Action.UPDATE_POD, next2.action());
        Pod batch2 = next2.pod();
        assertEquals("main:2", image(batch2, "main"));
        InPlaceUpdateState st2 = state(batch2);
        assertNull(st2.getNextContainerImages());
        assertNull(st2.getPreCheckBeforeNext());
        assertEquals(2, st2.getContainerBatchesRecord().size());
        assertEquals(List.of("main"), st2.getContainerBatchesRecord().get(1).getContainers());
        assertEquals("2026-03-22T09:07:20Z", st2.getContainerBatchesRecord().get(1).getTimestamp());
        assertEquals(Map.of("sidecar", "docker-pullable://sidecar:1@sha256:old-sidecar",
                        "main", "docker-pullable://main:1@sha256:old-main"),
                Map.of("sidecar", st2.getLastContainerStatuses().get("sidecar").getImageID(),
                        "main", st2.getLastContainerStatuses().get("main").getImageID()));

        Pod done = restarted(batch2, "main", true);
        assertTrue(updater.checkCompleted(done).done());
        assertSame(done, updater.nextBatch(done, T0), "no batch left");
    }

    @Test
    void containersWithoutPriorityGoInTheFirstBatch() {
        PodTemplateSpec old = template(map(), map(), container("a", "a:1", 5), container("b", "b:1", null),
                container("c", "c:1", 1));
        PodTemplateSpec next = template(map(), map(), container("a", "a:2", 5), container("b", "b:2", null),
                container("c", "c:2", 1));
        Pod batch1 = updater.prepare(pod(old, "x-1"),
                InPlaceUpdateCalculator.calculate(old, next, "x-2", InPlaceUpdateOptions.defaults()), T0);
        assertEquals(List.of("a", "b"), state(batch1).getContainerBatchesRecord().get(0).getContainers());
        assertEquals(Map.of("c", "c:2"), state(batch1).getNextContainerImages());
    }

    @Test
    void orderedAnnotationGivesEarlierContainersPriority() {
        PodTemplateSpec old = template(map(), map(WellKnown.CONTAINER_LAUNCH_PRIORITY_ANNOTATION, "Ordered"),
                container("first", "f:1", null), container("second", "s:1", null));
        PodTemplateSpec next = template(map(), map(WellKnown.CONTAINER_LAUNCH_PRIORITY_ANNOTATION, "Ordered"),
                container("first", "f:2", null), container("second", "s:2", null));
        Pod batch1 = updater.prepare(pod(old, "x-1"),
                InPlaceUpdateCalculator.calculate(old, next, "x-2", InPlaceUpdateOptions.defaults()), T0);
        assertEquals("f:2", image(batch1, "first"));
        assertEquals("s:1", image(batch1, "second"));
    }

    @Test
    void envFromMetadataIsAppliedWithItsContainerBatch() {
        PodTemplateSpec old = template(map("app", "demo"), map("app-config", "v1"),
                envFromAnnotation(container("sidecar", "sidecar:1", 10), "APP_CONFIG", "app-config"),
                container("main", "main:1", 0));
        PodTemplateSpec next = template(map("app", "demo"), map("app-config", "v2"),
                envFromAnnotation(container("sidecar", "sidecar:1", 10), "APP_CONFIG", "app-config"),
                container("main", "main:2", 0));
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(old, next, "demo-2", InPlaceUpdateOptions.defaults());
        Pod batch1 = updater.prepare(pod(old, "demo-1"), spec, T0);
        assertEquals("v2", Pods.annotations(batch1).get("app-config"));
        assertEquals("main:1", image(batch1, "main"));
        InPlaceUpdateState st = state(batch1);
        assertTrue(st.isUpdateEnvFromMetadata());
        assertEquals(Map.of("main", "main:2"), st.getNextContainerImages());
        assertEquals(List.of("sidecar"), st.getContainerBatchesRecord().get(0).getContainers());

        CompletionCheck noMeta = updater.checkContainersCompleted(batch1, st);
        assertFalse(noMeta.done());
        assertEquals("waiting for all containers hash consistent, but runtime-container-meta not found", noMeta.message());

        // The restarted sidecar reported without its env hash (or with the old one): not done yet.
        Pod withoutEnvHash = new PodBuilder(restarted(batch1, "sidecar", true)).editMetadata()
                .addToAnnotations(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION,
                        "{\"containers\":[{\"name\":\"sidecar\",\"containerID\":\"containerd://sidecar-2\",\"restartCount\":1,"
                                + "\"hashes\":{\"plainHash\":1}},{\"name\":\"main\",\"containerID\":\"containerd://main-1\","
                                + "\"restartCount\":0,\"hashes\":{\"plainHash\":2}}]}")
                .endMetadata().build();
        assertEquals("waiting for all containers hash consistent",
                updater.checkContainersCompleted(withoutEnvHash, st).message());

        long sidecarHash = EnvFromMetadataHash.expected(specOf(batch1, "sidecar"), Pods.labels(batch1),
                Pods.annotations(batch1));
        long mainHash = EnvFromMetadataHash.expected(specOf(batch1, "main"), Pods.labels(batch1),
                Pods.annotations(batch1));
        Pod reported = new PodBuilder(restarted(batch1, "sidecar", true)).editMetadata()
                .addToAnnotations(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION,
                        "{\"containers\":[{\"name\":\"sidecar\",\"containerID\":\"containerd://sidecar-2\",\"restartCount\":1,"
                                + "\"hashes\":{\"plainHash\":1,\"extractedEnvFromMetadataHash\":" + sidecarHash + "}},"
                                + "{\"name\":\"main\",\"containerID\":\"containerd://main-1\","
                                + "\"restartCount\":0,\"hashes\":{\"plainHash\":2,\"extractedEnvFromMetadataHash\":" + mainHash
                                + "}}]}")
                .endMetadata().build();
        assertTrue(updater.checkContainersCompleted(reported, st).done());
        assertEquals(RefreshOutcome.Action.UPDATE_POD, updater.refresh(reported, T0.plusSeconds(3)).action());
    }

    @Test
    void containersSharingAChangedLabelAreUpdatedTogether() {
        PodTemplateSpec old = template(map("version", "1"), map(),
                envFromLabel(container("high", "h:1", 10), "V", "version"),
                envFromLabel(container("low", "l:1", 1), "V", "version"));
        PodTemplateSpec next = template(map("version", "2"), map(),
                envFromLabel(container("high", "h:1", 10), "V", "version"),
                envFromLabel(container("low", "l:1", 1), "V", "version"));
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(old, next, "x-2", InPlaceUpdateOptions.defaults());
        Pod batch1 = updater.prepare(pod(old, "x-1"), spec, T0);
        assertEquals(List.of("high", "low"), state(batch1).getContainerBatchesRecord().get(0).getContainers());
        assertNull(state(batch1).getNextContainerRefMetadata());
        assertEquals("2", Pods.label(batch1, "version"));
    }

    @Test
    void gracePeriodDelaysTheContainerChange() {
        Pod pod = pod(v1(), "demo-1");
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-2",
                InPlaceUpdateOptions.defaults().withGracePeriodSeconds(30));
        Pod delayed = updater.prepare(pod, spec, T0);
        assertEquals("nginx:1.0", image(delayed, "main"));
        assertNull(Pods.label(delayed, "tier"), "the metadata patch waits too");
        assertEquals("demo-2", Pods.label(delayed, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        assertEquals("False", condition(delayed, WellKnown.INPLACE_UPDATE_READY_CONDITION));
        assertNotNull(Pods.annotations(delayed).get(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION));
        assertEquals("still in grace period of in-place update", updater.checkCompleted(delayed).message());

        GraceCheck early = updater.graceDue(delayed, T0.plusMillis(10_500));
        assertEquals(GraceCheck.Action.WAIT, early.action());
        assertEquals(Duration.ofSeconds(20), early.remaining());
        RefreshOutcome waiting = updater.refresh(delayed, T0.plusSeconds(10));
        assertEquals(RefreshOutcome.Action.NONE, waiting.action());
        assertEquals(Duration.ofSeconds(20), waiting.requeue());

        GraceCheck due = updater.graceDue(delayed, T0.plusSeconds(30));
        assertEquals(GraceCheck.Action.APPLY, due.action());
        Pod applied = due.pod();
        assertEquals("nginx:2.0", image(applied, "main"));
        assertEquals("web", Pods.label(applied, "tier"));
        assertFalse(Pods.annotations(applied).containsKey(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION));
        assertEquals("docker-pullable://nginx:1.0@sha256:old-main",
                state(applied).getLastContainerStatuses().get("main").getImageID());
        assertEquals("2026-03-22T09:06:55Z", state(applied).getUpdateTimestamp());
    }

    @Test
    void nextGraceDueIsTheShortestGracePeriodStillRunning() {
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-2",
                InPlaceUpdateOptions.defaults().withGracePeriodSeconds(30));
        Pod first = updater.prepare(pod(v1(), "demo-1"), spec, T0);
        Pod second = updater.prepare(pod(v1(), "demo-1"), spec, T0.plusSeconds(12));
        Pod plain = pod(v1(), "demo-1");
        assertEquals(Duration.ofSeconds(20), updater.nextGraceDue(List.of(second, plain, first), T0.plusSeconds(10)));
        // first is due at T0 + 30 s: from then on only second still waits, until T0 + 42 s.
        assertEquals(Duration.ofSeconds(12), updater.nextGraceDue(List.of(second, plain, first), T0.plusSeconds(30)));
        assertEquals(Duration.ZERO, updater.nextGraceDue(List.of(second, first), T0.plusSeconds(42)),
                "both due: the refresh applies them, nothing to wait for");
        assertEquals(Duration.ZERO, updater.nextGraceDue(List.of(plain), T0));
    }

    @Test
    void obsoleteGraceIsDropped() {
        Pod pod = pod(v1(), "demo-1");
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-2",
                InPlaceUpdateOptions.defaults().withGracePeriodSeconds(30));
        Pod delayed = updater.prepare(pod, spec, T0);
        Pod rolledBack = new PodBuilder(delayed).editMetadata()
                .addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, "demo-3").endMetadata().build();
        GraceCheck drop = updater.graceDue(rolledBack, T0.plusSeconds(1));
        assertEquals(GraceCheck.Action.DROP, drop.action());
        assertFalse(Pods.annotations(drop.pod()).containsKey(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION));
        assertEquals("nginx:1.0", image(drop.pod(), "main"));
    }

    @Test
    void oldAnnotationNamesAreStillRead() {
        Pod pod = pod(v1(), "demo-1");
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(v1(), v2(), "demo-2",
                InPlaceUpdateOptions.defaults().withGracePeriodSeconds(5));
        Pod delayed = updater.prepare(pod, spec, T0);
        Map<String, String> a = delayed.getMetadata().getAnnotations();
        a.put(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION_OLD, a.remove(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION));
        a.put(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION_OLD, a.remove(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION));
        GraceCheck due = updater.graceDue(delayed, T0.plusSeconds(6));
        assertEquals(GraceCheck.Action.APPLY, due.action());
        Map<String, String> after = due.pod().getMetadata().getAnnotations();
        assertFalse(after.containsKey(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION_OLD));
        assertFalse(after.containsKey(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION_OLD));
        assertTrue(after.containsKey(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION), "rewritten under the current key");
    }

    @Test
    void invalidAnnotationsAreReportedNotThrown() {
        Pod pod = new PodBuilder(pod(v1(), "demo-1")).editMetadata()
                .addToAnnotations(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION, "{broken").endMetadata().build();
        RefreshOutcome outcome = updater.refresh(pod, T0);
        assertEquals(RefreshOutcome.Action.ERROR, outcome.action());
        assertTrue(outcome.message().contains(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION), outcome.message());
        assertFalse(updater.checkCompleted(pod).done());

        Pod graceWithoutState = new PodBuilder(pod(v1(), "demo-1")).editMetadata()
                .addToAnnotations(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION, "{\"revision\":\"demo-1\"}").endMetadata().build();
        GraceCheck g = updater.graceDue(graceWithoutState, T0);
        assertEquals(GraceCheck.Action.INVALID, g.action());
        assertTrue(g.error().contains("not found"), g.error());
    }

    @Test
    void readinessGateAndConditions() {
        Pod pod = pod(v1(), "demo-1");
        assertTrue(Pods.hasReadinessGate(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION));
        Pod noGate = new PodBuilder(pod).editSpec().withReadinessGates(List.of()).endSpec().build();
        assertSame(noGate, updater.markUpdateStarting(noGate, T0));
        assertSame(noGate, updater.finish(noGate, T0));

        Pod starting = updater.markUpdateStarting(pod, T0);
        assertEquals("False", condition(starting, WellKnown.INPLACE_UPDATE_READY_CONDITION));
        assertEquals("True", condition(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION), "input untouched");
        assertSame(starting, updater.markUpdateStarting(starting, T0.plusSeconds(1)), "already marked");

        Pod finished = updater.finish(starting, T0.plusSeconds(2));
        assertEquals("True", condition(finished, WellKnown.INPLACE_UPDATE_READY_CONDITION));
        assertSame(finished, updater.finish(finished, T0));

        Pod newPod = new PodBuilder().withNewMetadata().withName("n").endMetadata().withNewSpec().endSpec().build();
        InPlaceUpdater.injectReadinessGate(newPod.getSpec());
        InPlaceUpdater.injectReadinessGate(newPod.getSpec());
        assertEquals(1, newPod.getSpec().getReadinessGates().size());
        RefreshOutcome first = updater.refresh(newPod, T0);
        assertEquals(RefreshOutcome.Action.UPDATE_STATUS, first.action(), "a new pod gets InPlaceUpdateReady=True");
    }

    @Test
    void revisionLabelsCompareShortAndLongForms() {
        RevisionLabels cs = RevisionLabels.cloneSet(false);
        Pod pod = pod(v1(), "demo-7d5f8");
        assertTrue(cs.matches(pod, "demo-7d5f8"));
        Pod shortForm = new PodBuilder(pod).editMetadata()
                .addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, "7d5f8").endMetadata().build();
        assertTrue(cs.matches(shortForm, "demo-7d5f8"));
        assertFalse(cs.matches(shortForm, "demo-99999"));
        assertFalse(RevisionLabels.plain().matches(shortForm, "demo-7d5f8"));
        assertEquals("7d5f8", RevisionLabels.shortHashOf("my-demo-7d5f8"));
    }
}
