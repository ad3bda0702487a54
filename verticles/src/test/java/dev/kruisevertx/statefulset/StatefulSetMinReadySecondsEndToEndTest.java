package dev.kruisevertx.statefulset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.InPlaceUpdateState;
import dev.kruisevertx.api.common.InPlaceUpdateStrategy;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Advanced StatefulSet rollouts that depend on time passing, on the embedded cluster: {@code minReadySeconds} (a
 * ready pod turns available later, with no event) and an in-place {@code gracePeriodSeconds} (the delayed update is
 * applied later, with no event). The controller must look again on its own; nothing touches the set after the image
 * change. One cluster for the class, one namespace per test.
 */
class StatefulSetMinReadySecondsEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final int REPLICAS = 4;
    static final int MIN_READY_SECONDS = 3;

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3).setAdmission(false))
            .controllers(() -> List.of(new StatefulSetController()))
            .flags(StatefulSetFixtures.FEATURE_GATES).build();

    @Test
    void orderedReadyRecreateRolloutWaitsOutMinReadySecondsAndCountsAvailability() {
        String ns = product.namespace();
        StatefulSetFixtures f = new StatefulSetFixtures(product.client(), ns, WAIT);
        String name = "db";
        StatefulSet set = StatefulSetFixtures.statefulSet(ns, name, REPLICAS, "nginx:1");
        StatefulSetFixtures.rollingUpdate(set.getSpec()).setMinReadySeconds(MIN_READY_SECONDS);
        try (PodWatch watch = new PodWatch(product.client(), ns, name)) {
            f.resource(name).create(set);
            allAvailable(f, name, "created");
            // OrderedReady: each pod is created once its predecessor is available, not merely ready.
            assertSpacedByMinReadySeconds(f.livePods(name), StatefulSetMinReadySecondsEndToEndTest::created,
                    "creation times");
            List<String> uids = f.livePods(name).stream().map(p -> p.getMetadata().getUid()).toList();

            armWhenCaughtUp(watch);
            f.edit(name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            StatefulSet done = allAvailable(f, name, "rolled out by recreating");
            assertEquals(done.getStatus().getUpdateRevision(), done.getStatus().getCurrentRevision());
            assertEquals(List.of(), watch.violations());
            List<Pod> after = f.livePods(name);
            assertTrue(after.stream().noneMatch(p -> uids.contains(p.getMetadata().getUid())), "every pod recreated");
            assertSpacedByMinReadySeconds(after, StatefulSetMinReadySecondsEndToEndTest::created,
                    "replacement creation times");
        }
    }

    @Test
    void parallelInPlaceRolloutWaitsOutMinReadySecondsAndCountsAvailability() {
        String ns = product.namespace();
        StatefulSetFixtures f = new StatefulSetFixtures(product.client(), ns, WAIT);
        String name = "db";
        StatefulSet set = StatefulSetFixtures.statefulSet(ns, name, REPLICAS, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        var ru = StatefulSetFixtures.rollingUpdate(set.getSpec());
        ru.setMinReadySeconds(MIN_READY_SECONDS);
        ru.setPodUpdatePolicy("InPlaceIfPossible");
        ru.setMaxUnavailable(new IntOrString(1));
        try (PodWatch watch = new PodWatch(product.client(), ns, name)) {
            f.resource(name).create(set);
            allAvailable(f, name, "created");
            Map<String, String> uids = f.livePods(name).stream()
                    .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));

            armWhenCaughtUp(watch);
            f.edit(name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            StatefulSet done = allAvailable(f, name, "rolled out in place");
            assertEquals(done.getStatus().getUpdateRevision(), done.getStatus().getCurrentRevision());
            assertEquals(List.of(), watch.violations());
            List<Pod> after = f.livePods(name);
            for (Pod p : after) {
                assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(),
                        "updated in place, not recreated: " + p.getMetadata().getName());
                assertEquals("nginx:2", p.getSpec().getContainers().get(0).getImage());
            }
            // maxUnavailable 1: a pod is updated only once the one before it was ready for minReadySeconds.
            assertSpacedByMinReadySeconds(after, p -> Pods.parseTime(state(p).getUpdateTimestamp()),
                    "in-place update times");
        }
    }

    @Test
    void anInPlaceUpdateIsAppliedWhenItsGracePeriodRunsOut() {
        String ns = product.namespace();
        StatefulSetFixtures f = new StatefulSetFixtures(product.client(), ns, WAIT);
        String name = "db";
        int grace = 2;
        StatefulSet set = StatefulSetFixtures.statefulSet(ns, name, 2, "nginx:1");
        var ru = StatefulSetFixtures.rollingUpdate(set.getSpec());
        ru.setPodUpdatePolicy("InPlaceIfPossible");
        ru.setInPlaceUpdateStrategy(new InPlaceUpdateStrategy(grace));
        f.resource(name).create(set);
        f.waitStatus(name, "created", s -> s.getStatus().getReadyReplicas() == 2
                && s.getStatus().getUpdatedReplicas() == 2);

        f.edit(name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        StatefulSet done = f.waitStatus(name, "rolled out in place after the grace periods", s ->
                s.getStatus().getUpdatedReplicas() == 2 && s.getStatus().getUpdatedReadyReplicas() == 2
                        && s.getStatus().getUpdateRevision().equals(s.getStatus().getCurrentRevision()));
        assertEquals(2, done.getStatus().getReadyReplicas());
        for (Pod p : f.livePods(name)) {
            assertEquals("nginx:2", p.getSpec().getContainers().get(0).getImage());
            InPlaceUpdateState state = state(p);
            Instant started = Pods.parseTime(state.getUpdateTimestamp());
            Instant applied = Pods.parseTime(state.getContainerBatchesRecord().get(0).getTimestamp());
            assertTrue(Duration.between(started, applied).toSeconds() >= grace,
                    p.getMetadata().getName() + " applied only after its grace period: " + started + " -> " + applied);
        }
    }

    static InPlaceUpdateState state(Pod p) {
        return InPlaceUpdateState.readFrom(p).orElseThrow(() -> new AssertionError(
                p.getMetadata().getName() + " has no in-place update state"));
    }

    static Instant created(Pod p) {
        return Pods.parseTime(p.getMetadata().getCreationTimestamp());
    }

    /**
     * Consecutive times (whole seconds, as the API writes them) at least minReadySeconds apart: the next pod goes only
     * after the previous one, acted on at t, turned ready at t or later and then waited minReadySeconds.
     */
    static void assertSpacedByMinReadySeconds(List<Pod> pods, Function<Pod, Instant> at, String what) {
        List<Instant> times = new ArrayList<>(pods.stream().map(at).toList());
        times.sort(Comparator.naturalOrder());
        for (int i = 1; i < times.size(); i++) {
            long gap = Duration.between(times.get(i - 1), times.get(i)).toSeconds();
            assertTrue(gap >= MIN_READY_SECONDS, what + " closer than minReadySeconds: " + times);
        }
    }

    /** Every pod updated, ready and available, as the status reports it and the pods confirm. */
    static StatefulSet allAvailable(StatefulSetFixtures f, String name, String what) {
        return f.waitStatus(name, name + " " + what + ": all " + REPLICAS + " updated and available", s ->
                s.getStatus().getReplicas() == REPLICAS && s.getStatus().getUpdatedReplicas() == REPLICAS
                        && s.getStatus().getReadyReplicas() == REPLICAS
                        && s.getStatus().getAvailableReplicas() == REPLICAS
                        && s.getStatus().getUpdatedAvailableReplicas() == REPLICAS
                        && f.livePods(name).size() == REPLICAS);
    }

    /** Once the watch has seen every pod ready: never fewer than replicas - 1 ready from then on. */
    static void armWhenCaughtUp(PodWatch watch) {
        Await.waitFor("the pod watch sees " + REPLICAS + " ready pods", WAIT, () -> watch.ready() == REPLICAS);
        watch.arm(REPLICAS - 1);
    }
}
