package dev.kruisevertx.statefulset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lifecycle hooks of an Advanced StatefulSet, end to end: the whole manager with its webhooks in the embedded
 * cluster's admission path (pods carry the {@code KruisePodReady} readiness gate, so {@code markPodNotReady} shows in
 * their readiness). The test plays the user's controller that owns the hook label or finalizer.
 */
class StatefulSetLifecycleEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final String HOLD = "example.io/update-hold";
    static final String PROTECT = "example.io/protect";

    /** Two nodes; the pods carry the readiness gate, as admission is on. */
    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .flags(StatefulSetFixtures.FEATURE_GATES).build();

    static StatefulSetFixtures fixtures() {
        return new StatefulSetFixtures(product.client(), product.namespace(), WAIT);
    }

    @Test
    void inPlaceUpdateHookHoldsEachPodInPreparingUpdateUntilReleased() {
        String name = "iphook";
        StatefulSet set = statefulSet(name, 2);
        set.getSpec().getTemplate().getMetadata().getLabels().put(HOLD, "true");
        RollingUpdateStatefulSetStrategy ru = rollingUpdate(set.getSpec());
        ru.setPodUpdatePolicy("InPlaceIfPossible");
        // Both pods may be taken at once: only the hook can be what holds the second one back.
        ru.setMaxUnavailable(new IntOrString(2));
        set.getSpec().setPodManagementPolicy("Parallel");
        LifecycleHook hook = new LifecycleHook();
        hook.setLabelsHandler(Map.of(HOLD, "true"));
        hook.setMarkPodNotReady(true);
        Lifecycle lifecycle = new Lifecycle();
        lifecycle.setInPlaceUpdate(hook);
        set.getSpec().setLifecycle(lifecycle);

        try (LifecycleWatch watch = new LifecycleWatch(name, HOLD)) {
            resource(name).create(set);
            StatefulSet created = waitStatus(name, "2 pods ready and Normal", s -> s.getStatus().getReadyReplicas() == 2
                    && pods(name).size() == 2 && pods(name).stream().allMatch(p -> Pods.isReady(p)
                    && WellKnown.LIFECYCLE_STATE_NORMAL.equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL))));
            String oldRevision = created.getStatus().getUpdateRevision();
            Map<String, String> uids = new HashMap<>();
            pods(name).forEach(p -> uids.put(p.getMetadata().getName(), p.getMetadata().getUid()));

            edit(name, sp -> sp.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            for (String pod : List.of("iphook-0", "iphook-1")) {
                Pod held = waitPod(pod, "PreparingUpdate, marked not ready", p ->
                        WellKnown.LIFECYCLE_STATE_PREPARING_UPDATE.equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL))
                                && !Pods.conditionTrue(p, WellKnown.KRUISE_POD_READY_CONDITION));
                assertEquals("nginx:1", image(held), pod + " not updated while hooked");
                assertEquals(oldRevision, Pods.label(held, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
            }

            // The user's controller releases iphook-0 only: it is updated in place, iphook-1 stays held.
            editPod("iphook-0", p -> {
                p.getMetadata().getLabels().remove(HOLD);
                return p;
            });
            Pod updated = waitPod("iphook-0", "updated in place and Updated", p -> "nginx:2".equals(image(p))
                    && WellKnown.LIFECYCLE_STATE_UPDATED.equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL)));
            assertEquals(uids.get("iphook-0"), updated.getMetadata().getUid(), "same pod object");
            StatefulSet mid = resource(name).get();
            assertEquals(mid.getStatus().getUpdateRevision(), Pods.label(updated, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
            Pod stillHeld = product.client().pods().inNamespace(product.namespace()).withName("iphook-1").get();
            assertEquals("nginx:1", image(stillHeld), "iphook-1 is still hooked");
            assertEquals(WellKnown.LIFECYCLE_STATE_PREPARING_UPDATE, Pods.label(stillHeld, WellKnown.LIFECYCLE_STATE_LABEL));

            // Updated waits for the hook to be put back; then the pod is Normal and ready again.
            editPod("iphook-0", p -> {
                p.getMetadata().getLabels().put(HOLD, "true");
                return p;
            });
            waitPod("iphook-0", "Normal and ready on nginx:2", p -> normalAndReady(p) && "nginx:2".equals(image(p)));
            assertEquals("nginx:1", image(product.client().pods().inNamespace(product.namespace()).withName("iphook-1").get()));

            editPod("iphook-1", p -> {
                p.getMetadata().getLabels().remove(HOLD);
                return p;
            });
            waitPod("iphook-1", "updated in place and Updated", p -> "nginx:2".equals(image(p))
                    && WellKnown.LIFECYCLE_STATE_UPDATED.equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL)));
            editPod("iphook-1", p -> {
                p.getMetadata().getLabels().put(HOLD, "true");
                return p;
            });
            StatefulSet done = waitStatus(name, "rollout finished", s -> s.getStatus().getUpdatedReadyReplicas() == 2
                    && s.getStatus().getUpdateRevision().equals(s.getStatus().getCurrentRevision())
                    && pods(name).size() == 2 && pods(name).stream().allMatch(p -> normalAndReady(p)
                    && "nginx:2".equals(image(p))));
            for (Pod p : pods(name)) {
                assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(), "same pod object");
                assertEquals(done.getStatus().getUpdateRevision(), Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
            }

            // What the watch saw, event by event: no pod replaced, none changed while hooked, the states in order.
            assertTrue(watch.violations().isEmpty(), watch.violations().toString());
            for (String pod : List.of("iphook-0", "iphook-1")) {
                List<String> states = watch.states(pod);
                assertTrue(inOrder(states, List.of("Normal", "PreparingUpdate", "Updated", "Normal")),
                        pod + " went through " + states);
                assertEquals(Set.of(uids.get(pod)), watch.uids(pod), pod + " kept its uid");
            }
        }
    }

    @Test
    void preDeleteFinalizerHoldsACondemnedPodUntilTheUsersControllerRemovesIt() {
        String name = "pdfin";
        StatefulSet set = statefulSet(name, 2);
        set.getSpec().setPodManagementPolicy("Parallel");
        LifecycleHook hook = new LifecycleHook();
        hook.setFinalizersHandler(List.of(PROTECT));
        Lifecycle lifecycle = new Lifecycle();
        lifecycle.setPreDelete(hook);
        set.getSpec().setLifecycle(lifecycle);

        try (LifecycleWatch watch = new LifecycleWatch(name, null)) {
            resource(name).create(set);
            waitStatus(name, "2 pods ready and Normal", s -> s.getStatus().getReadyReplicas() == 2
                    && pods(name).size() == 2 && pods(name).stream().allMatch(StatefulSetLifecycleEndToEndTest::normalAndReady));
            // The user's controller protects its pods with the hook's finalizer.
            for (String pod : List.of("pdfin-0", "pdfin-1")) {
                editPod(pod, p -> {
                    p.getMetadata().getFinalizers().add(PROTECT);
                    return p;
                });
            }

            edit(name, sp -> sp.setReplicas(1));
            Pod held = waitPod("pdfin-1", "PreparingDelete", p ->
                    WellKnown.LIFECYCLE_STATE_PREPARING_DELETE.equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL)));
            assertFalse(Pods.isTerminating(held), "not deleted while the finalizer is there");
            waitStatus(name, "the scale-down observed", s -> true);
            assertFalse(Pods.isTerminating(product.client().pods().inNamespace(product.namespace()).withName("pdfin-1").get()));

            editPod("pdfin-1", p -> {
                p.getMetadata().getFinalizers().remove(PROTECT);
                return p;
            });
            waitStatus(name, "scaled down to pdfin-0", s -> s.getStatus().getReplicas() == 1
                    && product.client().pods().inNamespace(product.namespace()).withName("pdfin-1").get() == null);
            Pod kept = product.client().pods().inNamespace(product.namespace()).withName("pdfin-0").get();
            assertEquals(WellKnown.LIFECYCLE_STATE_NORMAL, Pods.label(kept, WellKnown.LIFECYCLE_STATE_LABEL));
            assertTrue(watch.violations().isEmpty(), watch.violations().toString());
            assertTrue(inOrder(watch.states("pdfin-1"), List.of("Normal", "PreparingDelete")),
                    "pdfin-1 went through " + watch.states("pdfin-1"));
            // Deleted only once released: the first terminating version seen carried no finalizer of the hook.
            assertFalse(watch.terminatingWhileHooked("pdfin-1"), "deleted while still protected");
            editPod("pdfin-0", p -> {
                p.getMetadata().getFinalizers().remove(PROTECT);
                return p;
            });
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    static boolean normalAndReady(Pod p) {
        return WellKnown.LIFECYCLE_STATE_NORMAL.equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL))
                && Pods.conditionTrue(p, WellKnown.KRUISE_POD_READY_CONDITION) && Pods.isReady(p);
    }

    static String image(Pod p) {
        return p.getSpec().getContainers().get(0).getImage();
    }

    /** Whether {@code expected} occurs in {@code seen} as a subsequence. */
    static boolean inOrder(List<String> seen, List<String> expected) {
        int i = 0;
        for (String s : seen) {
            if (i < expected.size() && expected.get(i).equals(s)) {
                i++;
            }
        }
        return i == expected.size();
    }

    static StatefulSet statefulSet(String name, int replicas) {
        return StatefulSetFixtures.statefulSet(product.namespace(), name, replicas, "nginx:1");
    }

    static RollingUpdateStatefulSetStrategy rollingUpdate(StatefulSetSpec spec) {
        return StatefulSetFixtures.rollingUpdate(spec);
    }

    static Resource<StatefulSet> resource(String name) {
        return fixtures().resource(name);
    }

    static List<Pod> pods(String app) {
        return fixtures().livePods(app);
    }

    static void edit(String name, Consumer<StatefulSetSpec> change) {
        fixtures().edit(name, change);
    }

    /** Edits a pod as the user's controller would, retrying when the product wrote it meanwhile. */
    static void editPod(String name, UnaryOperator<Pod> change) {
        retryOnConflict(() -> product.client().pods().inNamespace(product.namespace()).withName(name).edit(change));
    }

    static void retryOnConflict(Runnable write) {
        StatefulSetFixtures.retryOnConflict(write);
    }

    static Pod waitPod(String name, String what, java.util.function.Predicate<Pod> done) {
        return Await.waitFor(name + " " + what, WAIT, () -> product.client().pods().inNamespace(product.namespace()).withName(name).get(),
                p -> p != null && !Pods.isTerminating(p) && done.test(p));
    }

    static StatefulSet waitStatus(String name, String what, java.util.function.Predicate<StatefulSet> done) {
        return fixtures().waitStatus(name, name + ": " + what, done);
    }

    /**
     * Watches one app's pods and checks every event as it arrives (events of one pod come in order): a pod whose
     * hook label was never seen removed must still run the old image; no pod of the set is deleted while it carries
     * the preDelete finalizer. Also records each pod's lifecycle states and uids.
     */
    static final class LifecycleWatch implements AutoCloseable {
        private final String holdLabel;
        private final Map<String, List<String>> states = new HashMap<>();
        private final Map<String, Set<String>> uids = new HashMap<>();
        private final Set<String> released = new HashSet<>();
        private final Map<String, String> firstImage = new HashMap<>();
        private final Set<String> terminatingWhileHooked = new HashSet<>();
        private final List<String> violations = new ArrayList<>();
        private final Watch watch;

        LifecycleWatch(String app, String holdLabel) {
            this.holdLabel = holdLabel;
            this.watch = product.client().pods().inNamespace(product.namespace()).withLabel("app", app).watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    onEvent(action, pod);
                }

                @Override
                public void onClose(WatcherException cause) {
                    synchronized (LifecycleWatch.this) {
                        violations.add("pod watch closed: " + cause);
                    }
                }
            });
        }

        private synchronized void onEvent(Watcher.Action action, Pod pod) {
            String name = pod.getMetadata().getName();
            uids.computeIfAbsent(name, n -> new HashSet<>()).add(pod.getMetadata().getUid());
            String state = Pods.label(pod, WellKnown.LIFECYCLE_STATE_LABEL);
            List<String> seen = states.computeIfAbsent(name, n -> new ArrayList<>());
            if (state != null && (seen.isEmpty() || !seen.get(seen.size() - 1).equals(state))) {
                seen.add(state);
            }
            String image = image(pod);
            firstImage.putIfAbsent(name, image);
            if (holdLabel != null) {
                if (!Pods.labels(pod).containsKey(holdLabel)) {
                    released.add(name);
                } else if (!released.contains(name) && !image.equals(firstImage.get(name))) {
                    violations.add(action + " " + name + ": image " + image + " while still hooked");
                }
            }
            if (Pods.isTerminating(pod) && pod.getMetadata().getFinalizers() != null
                    && pod.getMetadata().getFinalizers().contains(PROTECT)) {
                terminatingWhileHooked.add(name);
            }
            if (action == Watcher.Action.DELETED && pod.getMetadata().getFinalizers() != null
                    && pod.getMetadata().getFinalizers().contains(PROTECT)) {
                violations.add("DELETED " + name + " with the hook's finalizer");
            }
        }

        synchronized List<String> states(String pod) {
            return List.copyOf(states.getOrDefault(pod, List.of()));
        }

        synchronized Set<String> uids(String pod) {
            return Set.copyOf(uids.getOrDefault(pod, Set.of()));
        }

        synchronized boolean terminatingWhileHooked(String pod) {
            return terminatingWhileHooked.contains(pod);
        }

        synchronized List<String> violations() {
            return List.copyOf(violations);
        }

        @Override
        public void close() {
            watch.close();
        }
    }
}
