package dev.kruisevertx.cloneset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.common.InPlaceUpdateState;
import dev.kruisevertx.api.common.InPlaceUpdateStrategy;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CloneSet rollouts with {@code minReadySeconds} on the embedded cluster, driven by the whole manager. A pod that
 * became ready turns available only by the passing of time, which no watch event announces: the controller has to
 * look again on its own, both to let the rollout go on within maxUnavailable and to count the pod in
 * {@code availableReplicas}/{@code updatedAvailableReplicas}. Nothing in these tests touches the CloneSet after the
 * image change. One cluster for the class, one namespace per test.
 */
class CloneSetMinReadySecondsEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final int REPLICAS = 6;
    static final int MIN_READY_SECONDS = 3;

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    @Test
    void inPlaceRolloutWaitsOutMinReadySecondsAndCountsAvailabilityWithoutFurtherEvents() {
        String ns = product.namespace();
        String name = "web";
        CloneSet cs = cloneSet(ns, name);
        cs.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        try (ClusterWatch watch = new ClusterWatch(product.client(), ns, name)) {
            resource(ns, name).create(cs);
            allAvailable(ns, name, "created");
            Map<String, String> uids = livePods(ns, name).stream()
                    .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
            armWhenCaughtUp(watch);
            edit(ns, name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            CloneSet done = allAvailable(ns, name, "rolled out in place");
            assertEquals(done.getStatus().getUpdateRevision(), done.getStatus().getCurrentRevision());
            assertEquals(List.of(), watch.violations(), watch.describe());
            List<Pod> after = livePods(ns, name);
            for (Pod p : after) {
                assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(),
                        "updated in place, not recreated: " + p.getMetadata().getName());
                assertEquals("nginx:2", p.getSpec().getContainers().get(0).getImage());
            }
            // maxUnavailable 1: a pod is updated only once the one before it was ready for minReadySeconds.
            assertSpacedByMinReadySeconds(after, p -> Pods.parseTime(InPlaceUpdateState.readFrom(p).orElseThrow()
                    .getUpdateTimestamp()), "in-place update times");
        }
    }

    @Test
    void recreateRolloutWaitsOutMinReadySecondsAndCountsAvailabilityWithoutFurtherEvents() {
        String ns = product.namespace();
        String name = "web";
        try (ClusterWatch watch = new ClusterWatch(product.client(), ns, name)) {
            resource(ns, name).create(cloneSet(ns, name));
            allAvailable(ns, name, "created");
            List<String> before = livePods(ns, name).stream().map(p -> p.getMetadata().getName()).toList();
            // Recreate without surge: the deleted pod is down until its replacement is ready.
            armWhenCaughtUp(watch);
            edit(ns, name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            CloneSet done = allAvailable(ns, name, "rolled out by recreating");
            assertEquals(done.getStatus().getUpdateRevision(), done.getStatus().getCurrentRevision());
            assertEquals(List.of(), watch.violations(), watch.describe());
            List<Pod> after = livePods(ns, name);
            assertTrue(after.stream().noneMatch(p -> before.contains(p.getMetadata().getName())), "every pod replaced: "
                    + before + " -> " + after.stream().map(p -> p.getMetadata().getName()).toList());
            assertSpacedByMinReadySeconds(after, p -> Pods.parseTime(p.getMetadata().getCreationTimestamp()),
                    "replacement creation times");
        }
    }

    @Test
    void anInPlaceUpdateIsAppliedWhenItsGracePeriodRunsOut() {
        String ns = product.namespace();
        String name = "web";
        int grace = 2;
        CloneSet cs = CloneSetEndToEndTest.cloneSet(ns, name, 2, "nginx:1");
        cs.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        cs.getSpec().getUpdateStrategy().setInPlaceUpdateStrategy(new InPlaceUpdateStrategy(grace));
        resource(ns, name).create(cs);
        waitStatus(ns, name, "created", c -> c.getStatus().getReadyReplicas() == 2
                && c.getStatus().getUpdatedReplicas() == 2);

        edit(ns, name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        CloneSet done = waitStatus(ns, name, "rolled out in place after the grace periods", c ->
                c.getStatus().getUpdatedReplicas() == 2 && c.getStatus().getUpdatedReadyReplicas() == 2
                        && c.getStatus().getUpdateRevision().equals(c.getStatus().getCurrentRevision()));
        assertEquals(2, done.getStatus().getReadyReplicas());
        for (Pod p : livePods(ns, name)) {
            assertEquals("nginx:2", p.getSpec().getContainers().get(0).getImage());
            InPlaceUpdateState state = InPlaceUpdateState.readFrom(p).orElseThrow();
            Instant started = Pods.parseTime(state.getUpdateTimestamp());
            Instant applied = Pods.parseTime(state.getContainerBatchesRecord().get(0).getTimestamp());
            assertTrue(Duration.between(started, applied).toSeconds() >= grace,
                    p.getMetadata().getName() + " applied only after its grace period: " + started + " -> " + applied);
        }
    }

    /** Once the watch has seen every pod ready: never fewer than replicas - maxUnavailable ready from then on. */
    static void armWhenCaughtUp(ClusterWatch watch) {
        Await.waitFor("the pod watch sees " + REPLICAS + " ready pods", WAIT,
                () -> watch.ready() == REPLICAS && watch.total() == REPLICAS);
        watch.arm(REPLICAS - 1, REPLICAS);
    }

    /**
     * Consecutive update times (whole seconds, as the API writes them) at least minReadySeconds apart: the next pod
     * goes only after the previous one, updated at t, turned ready at t or later and then waited minReadySeconds.
     */
    static void assertSpacedByMinReadySeconds(List<Pod> pods, Function<Pod, Instant> updatedAt, String what) {
        List<Instant> times = new ArrayList<>(pods.stream().map(updatedAt).toList());
        times.sort(Comparator.naturalOrder());
        for (int i = 1; i < times.size(); i++) {
            long gap = Duration.between(times.get(i - 1), times.get(i)).toSeconds();
            assertTrue(gap >= MIN_READY_SECONDS, what + " closer than minReadySeconds: " + times);
        }
    }

    static CloneSet cloneSet(String ns, String name) {
        CloneSet cs = CloneSetEndToEndTest.cloneSet(ns, name, REPLICAS, "nginx:1");
        cs.getSpec().setMinReadySeconds(MIN_READY_SECONDS);
        return cs;
    }

    /** Every pod updated, ready and available, as the status reports it and the pods confirm. */
    static CloneSet allAvailable(String ns, String name, String what) {
        return waitStatus(ns, name, name + " " + what + ": all " + REPLICAS + " updated and available", cs ->
                cs.getStatus().getReplicas() == REPLICAS && cs.getStatus().getUpdatedReplicas() == REPLICAS
                        && cs.getStatus().getReadyReplicas() == REPLICAS
                        && cs.getStatus().getAvailableReplicas() == REPLICAS
                        && cs.getStatus().getUpdatedAvailableReplicas() == REPLICAS
                        && livePods(ns, name).size() == REPLICAS);
    }

    static Resource<CloneSet> resource(String ns, String name) {
        return product.client().resources(CloneSet.class).inNamespace(ns).withName(name);
    }

    static void edit(String ns, String name, Consumer<CloneSetSpec> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                resource(ns, name).edit(cs -> {
                    change.accept(cs.getSpec());
                    return cs;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 20) {
                    throw e;
                }
            }
        }
    }

    static CloneSet waitStatus(String ns, String name, String what, Predicate<CloneSet> done) {
        return Await.waitFor(what, WAIT, () -> new Observed(resource(ns, name).get()), o -> o.cs() != null
                && o.cs().getStatus() != null && o.cs().getMetadata().getGeneration() != null
                && o.cs().getStatus().getObservedGeneration() == o.cs().getMetadata().getGeneration()
                && done.test(o.cs())).cs();
    }

    /** A CloneSet as a timeout reports it: its generation and status, not its spec. */
    record Observed(CloneSet cs) {
        @Override
        public String toString() {
            return cs == null ? "no CloneSet" : "generation " + cs.getMetadata().getGeneration() + ", " + cs.getStatus();
        }
    }

    static List<Pod> livePods(String ns, String app) {
        return product.client().pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }
}
