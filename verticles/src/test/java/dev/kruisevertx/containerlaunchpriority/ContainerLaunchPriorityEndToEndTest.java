package dev.kruisevertx.containerlaunchpriority;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.launchpriority.LaunchPriority;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Container launch priority end to end: the pod webhook adds the barrier env, the controller releases the barrier
 * keys one priority at a time, and the simulated kubelet creates each container only once its key exists, so the
 * containers start in priority order (seen through a watch on the pod: every status event, not samples).
 */
class ContainerLaunchPriorityEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    static Pod pod(String name, Map<String, String> annotations, String... priorityEnv) {
        List<io.fabric8.kubernetes.api.model.Container> containers = new ArrayList<>();
        for (int i = 0; i < priorityEnv.length; i++) {
            io.fabric8.kubernetes.api.model.ContainerBuilder c = new io.fabric8.kubernetes.api.model.ContainerBuilder()
                    .withName("c" + i).withImage("app/c" + i + ":1");
            if (priorityEnv[i] != null) {
                c.addNewEnv().withName(LaunchPriority.PRIORITY_ENV).withValue(priorityEnv[i]).endEnv();
            }
            containers.add(c.build());
        }
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(product.namespace())
                .withAnnotations(annotations).endMetadata().withNewSpec().withContainers(containers).endSpec().build();
    }

    /** Records the order in which containers are first seen running, and which were ready at that moment. */
    static final class StartOrder implements Watcher<Pod> {
        final List<String> started = Collections.synchronizedList(new ArrayList<>());
        final List<String> violations = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void eventReceived(Action action, Pod pod) {
            if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
                return;
            }
            Set<String> ready = new LinkedHashSet<>();
            for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
                if (Boolean.TRUE.equals(s.getReady())) {
                    ready.add(s.getName());
                }
            }
            for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
                boolean running = s.getState() != null && s.getState().getRunning() != null;
                if (running && !started.contains(s.getName())) {
                    // Every container before it in the order must already be ready.
                    for (String earlier : List.copyOf(started)) {
                        if (!ready.contains(earlier)) {
                            violations.add(s.getName() + " started before " + earlier + " was ready");
                        }
                    }
                    started.add(s.getName());
                }
            }
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    }

    void runsInOrder(Pod pod, List<String> expectedOrder, List<String> expectedKeys) {
        String name = pod.getMetadata().getName();
        StartOrder order = new StartOrder();
        try (Watch w = product.client().pods().inNamespace(product.namespace()).withName(name).watch(order)) {
            Pod created = product.client().resource(pod).create();
            // The webhook added the barrier env to every container.
            for (int i = 0; i < created.getSpec().getContainers().size(); i++) {
                assertTrue(LaunchPriority.priorityOf(created.getSpec().getContainers().get(i)).isPresent(),
                        "barrier env on container " + i);
            }
            Pod done = Await.waitFor(name + " launch priority completed and all ready", WAIT,
                    () -> product.client().pods().inNamespace(product.namespace()).withName(name).get(),
                    p -> p != null && "true".equals(p.getMetadata().getAnnotations()
                            .get(LaunchPriority.COMPLETED_ANNOTATION)) && p.getStatus() != null
                            && p.getStatus().getContainerStatuses() != null && p.getStatus().getContainerStatuses()
                            .stream().allMatch(s -> Boolean.TRUE.equals(s.getReady())));
            Await.waitFor("every start seen by the watch", WAIT, () -> order.started.size() == expectedOrder.size());
            assertEquals(expectedOrder, List.copyOf(order.started));
            assertEquals(List.of(), List.copyOf(order.violations));
            ConfigMap barrier = product.client().configMaps().inNamespace(product.namespace())
                    .withName(name + "-barrier").get();
            assertEquals(Set.copyOf(expectedKeys), barrier.getData().keySet());
            assertEquals(done.getMetadata().getUid(), barrier.getMetadata().getOwnerReferences().get(0).getUid());
        }
    }

    @Test
    void orderedAnnotationStartsContainersOneAfterAnother() {
        runsInOrder(pod("ordered", Map.of(LaunchPriority.ANNOTATION, LaunchPriority.ORDERED), null, null, null),
                List.of("c0", "c1", "c2"), List.of("p_0", "p_-1", "p_-2"));
    }

    @Test
    void priorityEnvStartsHighestFirst() {
        runsInOrder(pod("by-env", Map.of(), "1", "10", "-5"), List.of("c1", "c0", "c2"),
                List.of("p_10", "p_1", "p_-5"));
    }

    @Test
    void aManagerRestartMidLaunchStillFinishesInOrder() throws Exception {
        String name = "restart";
        StartOrder order = new StartOrder();
        try (Watch w = product.client().pods().inNamespace(product.namespace()).withName(name).watch(order)) {
            product.client().resource(pod(name, Map.of(LaunchPriority.ANNOTATION, LaunchPriority.ORDERED),
                    null, null, null, null)).create();
            Await.waitFor("the first container running", WAIT, () -> !order.started.isEmpty());
            product.restartManager();
            Await.waitFor(name + " completed", WAIT, () -> {
                Pod p = product.client().pods().inNamespace(product.namespace()).withName(name).get();
                return "true".equals(p.getMetadata().getAnnotations().get(LaunchPriority.COMPLETED_ANNOTATION));
            });
            Await.waitFor("every start seen", WAIT, () -> order.started.size() == 4);
        }
        assertEquals(List.of("c0", "c1", "c2", "c3"), List.copyOf(order.started));
        assertEquals(List.of(), List.copyOf(order.violations));
    }

    @Test
    void thePodDeletedMidLaunchTakesItsBarrierAlong() {
        product.client().resource(pod("gone", Map.of(LaunchPriority.ANNOTATION, LaunchPriority.ORDERED),
                null, null)).create();
        Await.waitFor("barrier created", WAIT, () -> product.client().configMaps().inNamespace(product.namespace())
                .withName("gone-barrier").get() != null);
        product.client().pods().inNamespace(product.namespace()).withName("gone").withGracePeriod(0).delete();
        Await.waitFor("barrier collected with its pod", WAIT, () -> product.client().configMaps()
                .inNamespace(product.namespace()).withName("gone-barrier").get() == null);
    }

    @Test
    void aPriorityThatIsNoIntegerRefusesThePodWithAMessage() {
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> product.client().resource(pod("bad", Map.of(), "high", "1")).create());
        assertTrue(e.getMessage().contains("KRUISE_CONTAINER_PRIORITY must be an integer"), e.getMessage());
    }

    @Test
    void aSingleContainerOrEqualPrioritiesGetNoBarrier() {
        Pod one = product.client().resource(pod("single", Map.of(LaunchPriority.ANNOTATION, LaunchPriority.ORDERED),
                (String) null)).create();
        assertTrue(one.getSpec().getContainers().get(0).getEnv() == null
                || one.getSpec().getContainers().get(0).getEnv().isEmpty());
        Pod equal = product.client().resource(pod("equal", Map.of(), "3", "3")).create();
        assertTrue(equal.getSpec().getContainers().stream().allMatch(c -> LaunchPriority.priorityOf(c).isEmpty()));
    }
}
