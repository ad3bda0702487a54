package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Advanced DaemonSet controller in the manager against the embedded cluster. Each test adds its own nodes,
 * labelled with its namespace, and selects them with the DaemonSet's nodeSelector, so tests do not see each other's
 * nodes.
 */
class DaemonSetEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String POOL = "e2e.kruise-vertx.dev/pool";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(1).setAdmission(false))
            .controllers(() -> List.of(new DaemonSetController())).build();

    static MixedOperation<DaemonSet, ?, Resource<DaemonSet>> sets() {
        return product.client().resources(DaemonSet.class);
    }

    static Resource<DaemonSet> resource(String name) {
        return sets().inNamespace(product.namespace()).withName(name);
    }

    static String pool() {
        return product.namespace();
    }

    static List<String> addNodes(String prefix, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = prefix + "-" + pool() + "-" + i;
            product.cluster().nodes().addNode(name, Map.of(POOL, pool()));
            names.add(name);
        }
        return names;
    }

    static DaemonSet daemonSet(String name, String image, Consumer<DaemonSetSpec> change) {
        return daemonSetIn(product.namespace(), name, image, change);
    }

    /** A DaemonSet for the nodes labelled with the namespace's pool (see {@link #addNodes}). */
    static DaemonSet daemonSetIn(String namespace, String name, String image, Consumer<DaemonSetSpec> change) {
        DaemonSet ds = new DaemonSet();
        ds.getMetadata().setName(name);
        ds.getMetadata().setNamespace(namespace);
        DaemonSetSpec spec = new DaemonSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addToNodeSelector(POOL, namespace).withTerminationGracePeriodSeconds(0L)
                .addNewContainer().withName("main").withImage(image).endContainer().endSpec().build());
        DaemonSetUpdateStrategy us = new DaemonSetUpdateStrategy();
        us.setType("RollingUpdate");
        RollingUpdateDaemonSet ru = new RollingUpdateDaemonSet();
        ru.setRollingUpdateType("Standard");
        ru.setMaxUnavailable(new IntOrString(1));
        us.setRollingUpdate(ru);
        spec.setUpdateStrategy(us);
        spec.setRevisionHistoryLimit(10);
        spec.setMinReadySeconds(1);
        ds.setSpec(spec);
        change.accept(spec);
        return ds;
    }

    static List<Pod> livePods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }

    static Map<String, Pod> podsByNode(String app) {
        Map<String, Pod> out = new HashMap<>();
        for (Pod p : livePods(app)) {
            out.put(DaemonPlacement.targetNode(p.getSpec()).orElse("?"), p);
        }
        return out;
    }

    static DaemonSet waitStatus(String name, String what, Predicate<DaemonSet> done) {
        return Await.waitFor(what, WAIT, () -> resource(name).get(),
                s -> s != null && s.getStatus() != null && done.test(s));
    }

    static void edit(String name, Consumer<DaemonSetSpec> change) {
        ConflictRetry.run(() -> resource(name).edit(ds -> {
            change.accept(ds.getSpec());
            return ds;
        }));
    }

    /** Every listed node runs exactly one ready pod at the update revision, and no other node runs one. */
    static DaemonSet settledOn(String name, Set<String> nodes) {
        return waitStatus(name, name + " settled on " + nodes, s -> {
            List<Pod> pods = livePods(name);
            Set<String> on = pods.stream().map(p -> DaemonPlacement.targetNode(p.getSpec()).orElse("?")).collect(Collectors.toSet());
            int n = nodes.size();
            return s.getStatus().getDesiredNumberScheduled() == n && s.getStatus().getNumberAvailable() == n
                    && s.getStatus().getUpdatedNumberScheduled() == n && pods.size() == n && on.equals(nodes)
                    && pods.stream().allMatch(Pods::isReady)
                    && s.getStatus().getObservedGeneration() == s.getMetadata().getGeneration();
        });
    }

    /** Checks {@code condition} keeps holding for {@code period} (a "nothing happens" check, polled). */
    static void holdsFor(String what, Duration period, java.util.concurrent.Callable<Boolean> condition) {
        long end = System.nanoTime() + period.toNanos();
        try {
            while (System.nanoTime() < end) {
                assertTrue(condition.call(), what);
                Thread.sleep(200);
            }
        } catch (Exception e) {
            throw new AssertionError(what, e);
        }
    }

    /**
     * Upstream's ClaimPods: an orphan matching the selector is adopted (and, on its node, counts as that node's pod);
     * an owned pod relabelled out of the selector is released (its controller reference goes, the pod stays) and
     * its node gets a new pod. OnDelete, so the adopted pod (at no revision) is not replaced by a rolling update.
     */
    @Test
    void adoptsMatchingOrphansAndReleasesPodsThatStopMatching() {
        List<String> nodes = addNodes("claim", 2);
        Pod orphan = product.client().pods().inNamespace(product.namespace()).resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName("claim-orphan").addToLabels("app", "claim").endMetadata()
                .withNewSpec().withNodeName(nodes.get(0)).withTerminationGracePeriodSeconds(0L)
                .addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build()).create();
        DaemonSet ds = sets().inNamespace(product.namespace()).resource(daemonSet("claim", "nginx:1", s -> {
            s.getUpdateStrategy().setType("OnDelete");
            s.getUpdateStrategy().setRollingUpdate(null);
        })).create();
        String uid = ds.getMetadata().getUid();
        Await.waitFor("orphan adopted, the other node given a pod", WAIT, () -> {
            Map<String, Pod> byNode = podsByNode("claim");
            Pod adopted = byNode.get(nodes.get(0));
            return byNode.size() == 2 && byNode.containsKey(nodes.get(1)) && adopted != null
                    && orphan.getMetadata().getUid().equals(adopted.getMetadata().getUid())
                    && Pods.controllerOf(adopted).map(r -> uid.equals(r.getUid()) && "DaemonSet".equals(r.getKind()))
                    .orElse(false);
        });

        Pod owned = podsByNode("claim").get(nodes.get(1));
        // The kubelet may write the new pod's status in between: a conflict is retried from the live pod.
        Await.waitFor("the owned pod relabelled", WAIT, () -> {
            try {
                product.client().pods().inNamespace(product.namespace()).withName(owned.getMetadata().getName())
                        .edit(p -> new io.fabric8.kubernetes.api.model.PodBuilder(p).editMetadata()
                                .addToLabels("app", "released").endMetadata().build());
                return true;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                return false;
            }
        });
        Await.waitFor("relabelled pod released", WAIT, () -> {
            Pod p = product.client().pods().inNamespace(product.namespace()).withName(owned.getMetadata().getName()).get();
            return p != null && !Pods.isTerminating(p) && p.getMetadata().getOwnerReferences().stream()
                    .noneMatch(r -> uid.equals(r.getUid()));
        });
        Await.waitFor("the node of the released pod given a new one", WAIT, () -> {
            Pod p = podsByNode("claim").get(nodes.get(1));
            return p != null && !p.getMetadata().getName().equals(owned.getMetadata().getName())
                    && Pods.controllerOf(p).map(r -> uid.equals(r.getUid())).orElse(false);
        });
        DaemonSet settled = waitStatus("claim", "two pods scheduled", s -> s.getStatus().getCurrentNumberScheduled() == 2
                && s.getStatus().getDesiredNumberScheduled() == 2);
        assertEquals(2, livePods("claim").size(), "the released pod is no longer one of the set's");
        assertEquals(0, settled.getStatus().getNumberMisscheduled());
    }

    @Test
    void onePodPerEligibleNodeFollowingNodesAddedRelabelledTaintedAndRemoved() {
        List<String> nodes = addNodes("place", 3);
        resource("agent").create(daemonSet("agent", "nginx:1", s -> { }));
        settledOn("agent", new HashSet<>(nodes));
        for (Pod p : livePods("agent")) {
            assertTrue(p.getSpec().getNodeName() != null, "scheduled: " + p.getMetadata().getName());
            assertEquals(p.getSpec().getNodeName(), DaemonPlacement.targetNode(p.getSpec()).orElseThrow(),
                    "placed by the scheduler on the node its affinity names");
            assertTrue(p.getSpec().getTolerations().stream().anyMatch(t -> DaemonPlacement.TAINT_UNREACHABLE.equals(t.getKey())));
            assertEquals(1, p.getMetadata().getOwnerReferences().size());
        }

        String extra = addNodes("late", 1).get(0);
        Set<String> expected = new HashSet<>(nodes);
        expected.add(extra);
        settledOn("agent", expected);

        // relabelled out of the pool: its pod goes
        product.cluster().nodes().setNodeLabels(nodes.get(0), new HashMap<>(Map.of(POOL, "elsewhere")));
        expected.remove(nodes.get(0));
        settledOn("agent", expected);

        // an untolerated NoExecute taint: its pod goes too
        product.cluster().nodes().setNodeTaints(nodes.get(1), List.of(new Taint("NoExecute", "dedicated", null, "x")));
        expected.remove(nodes.get(1));
        settledOn("agent", expected);

        // a deleted node's pod is collected
        product.cluster().nodes().removeNode(extra);
        expected.remove(extra);
        settledOn("agent", expected);

        // a NoSchedule taint keeps the running pod, counted as misscheduled as upstream counts it
        Pod before = podsByNode("agent").get(nodes.get(2));
        product.cluster().nodes().setNodeTaints(nodes.get(2), List.of(new Taint("NoSchedule", "dedicated", null, "x")));
        waitStatus("agent", "the NoSchedule node no longer desired", s -> s.getStatus().getDesiredNumberScheduled() == 0
                && s.getStatus().getNumberMisscheduled() == 1);
        holdsFor("the running pod stays", Duration.ofSeconds(2), () -> livePods("agent").size() == 1
                && before.getMetadata().getUid().equals(podsByNode("agent").get(nodes.get(2)).getMetadata().getUid()));
    }

    @Test
    void partitionedInPlaceRolloutThenTheRest() {
        List<String> nodes = addNodes("ip", 3);
        resource("inplace").create(daemonSet("inplace", "nginx:1", s -> {
            s.getUpdateStrategy().getRollingUpdate().setRollingUpdateType("InPlaceIfPossible");
            s.getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString(1));
        }));
        settledOn("inplace", new HashSet<>(nodes));
        Map<String, String> uids = livePods("inplace").stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
        assertTrue(livePods("inplace").stream().allMatch(p -> Pods.hasReadinessGate(p, WellKnown.INPLACE_UPDATE_READY_CONDITION)));

        edit("inplace", s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        DaemonSet partial = waitStatus("inplace", "two of three updated", s -> s.getStatus().getUpdatedNumberScheduled() == 2
                && s.getStatus().getNumberAvailable() == 3
                && s.getStatus().getObservedGeneration() == s.getMetadata().getGeneration());
        assertEquals(3, partial.getStatus().getDesiredNumberScheduled());
        List<Pod> pods = livePods("inplace");
        assertEquals(2, pods.stream().filter(p -> "nginx:2".equals(p.getSpec().getContainers().get(0).getImage())).count());
        pods.forEach(p -> assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(),
                "updated in place, not recreated: " + p.getMetadata().getName()));

        edit("inplace", s -> s.getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString(0)));
        settledOn("inplace", new HashSet<>(nodes));
        livePods("inplace").forEach(p -> assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid()));
    }

    @Test
    void pausedHoldsTheRolloutAndPreDeleteHookHoldsThePod() {
        List<String> nodes = addNodes("hook", 2);
        resource("held").create(daemonSet("held", "nginx:1", s -> {
            s.getTemplate().getMetadata().getLabels().put("hold", "true");
            Lifecycle l = new Lifecycle();
            LifecycleHook h = new LifecycleHook();
            h.setLabelsHandler(Map.of("hold", "true"));
            l.setPreDelete(h);
            s.setLifecycle(l);
            s.getUpdateStrategy().getRollingUpdate().setPaused(true);
        }));
        settledOn("held", new HashSet<>(nodes));

        edit("held", s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        waitStatus("held", "the new generation observed", s -> s.getStatus().getObservedGeneration() == s.getMetadata().getGeneration());
        holdsFor("paused: no pod is updated", Duration.ofSeconds(3),
                () -> resource("held").get().getStatus().getUpdatedNumberScheduled() == 0
                        && livePods("held").stream().noneMatch(Pods::isPreparingDelete));

        edit("held", s -> s.getUpdateStrategy().getRollingUpdate().setPaused(false));
        Pod marked = Await.waitFor("a pod marked PreparingDelete", WAIT, () -> livePods("held").stream()
                .filter(Pods::isPreparingDelete).findFirst().orElse(null), p -> p != null);
        holdsFor("the hook holds the pod", Duration.ofSeconds(3),
                () -> livePods("held").stream().anyMatch(p -> p.getMetadata().getUid().equals(marked.getMetadata().getUid()))
                        && resource("held").get().getStatus().getUpdatedNumberScheduled() == 0);

        // released by removing the hook's label: it is deleted and replaced, and the rollout goes on
        ConflictRetry.run(() -> product.client().pods().inNamespace(product.namespace())
                .withName(marked.getMetadata().getName())
                .edit(p -> {
                    p.getMetadata().getLabels().remove("hold");
                    return p;
                }));
        Await.waitFor("the second pod marked", WAIT, () -> livePods("held").stream()
                .filter(p -> Pods.isPreparingDelete(p) && !p.getMetadata().getUid().equals(marked.getMetadata().getUid()))
                .findFirst().orElse(null), p -> p != null).getMetadata().getName();
        for (Pod p : livePods("held")) {
            if (Pods.isPreparingDelete(p)) {
                ConflictRetry.run(() -> product.client().pods().inNamespace(product.namespace()).withName(p.getMetadata().getName()).edit(x -> {
                    x.getMetadata().getLabels().remove("hold");
                    return x;
                }));
            }
        }
        settledOn("held", new HashSet<>(nodes));
    }

    @Test
    void surgeRolloutStartsTheNewPodFirst() {
        List<String> nodes = addNodes("surge", 2);
        resource("surge").create(daemonSet("surge", "nginx:1", s -> {
            s.getUpdateStrategy().getRollingUpdate().setMaxUnavailable(new IntOrString(0));
            s.getUpdateStrategy().getRollingUpdate().setMaxSurge(new IntOrString(1));
        }));
        settledOn("surge", new HashSet<>(nodes));
        edit("surge", s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        Await.waitFor("two pods on one node during the surge", WAIT, () -> livePods("surge").size() == 3);
        settledOn("surge", new HashSet<>(nodes));
        assertTrue(livePods("surge").stream().allMatch(p -> "nginx:2".equals(p.getSpec().getContainers().get(0).getImage())));
    }

    @Test
    void aManagerRestartMidRolloutFinishesIt() throws Exception {
        List<String> nodes = addNodes("restart", 4);
        resource("restart").create(daemonSet("restart", "nginx:1", s -> s.setMinReadySeconds(2)));
        settledOn("restart", new HashSet<>(nodes));
        edit("restart", s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        waitStatus("restart", "the rollout under way", s -> s.getStatus().getUpdatedNumberScheduled() >= 1);
        product.restartManager();
        settledOn("restart", new HashSet<>(nodes));
    }

    @Test
    void theOwnerDeletedMidCreationStopsAndItsPodsAreCollected() {
        List<String> nodes = addNodes("gone", 6);
        resource("gone").create(daemonSet("gone", "nginx:1", s -> { }));
        Await.waitFor("the first pods", WAIT, () -> !livePods("gone").isEmpty());
        resource("gone").delete();
        Await.waitFor("the set gone", WAIT, () -> resource("gone").get() == null);
        Await.waitFor("every pod collected", WAIT, () -> product.client().pods().inNamespace(product.namespace())
                .withLabel("app", "gone").list().getItems().isEmpty());
        holdsFor("no pod created after the set went", Duration.ofSeconds(2), () -> product.client().pods()
                .inNamespace(product.namespace()).withLabel("app", "gone").list().getItems().isEmpty());
        assertEquals(6, nodes.size());
    }

    @Test
    void aConflictingWriterOnThePodsDoesNotStopAnInPlaceRollout() throws Exception {
        List<String> nodes = addNodes("race", 3);
        resource("race").create(daemonSet("race", "nginx:1", s -> {
            s.getUpdateStrategy().getRollingUpdate().setRollingUpdateType("InPlaceIfPossible");
            s.getUpdateStrategy().getRollingUpdate().setMaxUnavailable(new IntOrString(2));
        }));
        settledOn("race", new HashSet<>(nodes));
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger();
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                for (Pod p : livePods("race")) {
                    try {
                        product.client().pods().inNamespace(product.namespace()).withName(p.getMetadata().getName())
                                .edit(x -> {
                                    x.getMetadata().getAnnotations().put("other-writer", String.valueOf(writes.incrementAndGet()));
                                    return x;
                                });
                    } catch (RuntimeException conflictOrGone) {
                        // the other writer loses races too; it just tries again
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        writer.start();
        try {
            edit("race", s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            settledOn("race", new HashSet<>(nodes));
        } finally {
            stop.set(true);
            writer.join(10_000);
        }
        assertTrue(writes.get() > 0);
        assertTrue(livePods("race").stream().allMatch(p -> "nginx:2".equals(p.getSpec().getContainers().get(0).getImage())));
    }

    @Test
    void hostileSpecsThatSkippedTheWebhookDoNotStopTheController() {
        List<String> nodes = addNodes("hostile", 2);
        // Admission is off in this cluster, as for objects written while the webhook was down.
        resource("bad").create(daemonSet("bad", "nginx:1", s -> {
            s.getUpdateStrategy().getRollingUpdate().setMaxUnavailable(new IntOrString("lots%"));
            s.getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString(-5));
            s.setBurstReplicas(new IntOrString("x%"));
            s.setMinReadySeconds(-3);
            s.setRevisionHistoryLimit(-1);
        }));
        resource("nothing").create(daemonSet("nothing", "nginx:1", s -> s.getSelector().setMatchLabels(Map.of())));
        resource("good").create(daemonSet("good", "nginx:1", s -> { }));
        settledOn("good", new HashSet<>(nodes));
        waitStatus("bad", "the hostile set got a status", s -> s.getStatus().getDesiredNumberScheduled() == 2);
        assertTrue(livePods("nothing").isEmpty(), "a set selecting everything does nothing");
        edit("good", s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        settledOn("good", new HashSet<>(nodes));
    }
}
