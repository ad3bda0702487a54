package dev.kruisevertx.launchpriority;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Priority parsing (OpenKruise v1.9.0's webhook step and util tests, ported as facts) and barrier progression (its
 * controller's handle/findNextPriorities).
 */
class LaunchPriorityTest {
    static Container c(String name, String priorityEnv) {
        ContainerBuilder b = new ContainerBuilder().withName(name).withImage("img");
        if (priorityEnv != null) {
            b.addNewEnv().withName(LaunchPriority.PRIORITY_ENV).withValue(priorityEnv).endEnv();
        }
        return b.build();
    }

    static Pod pod(String annotation, Container... containers) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec()
                .withContainers(containers).endSpec();
        if (annotation != null) {
            b.editMetadata().addToAnnotations(LaunchPriority.ANNOTATION, annotation).endMetadata();
        }
        return b.build();
    }

    static Stream<Arguments> parsing() {
        return Stream.of(
                Arguments.of("one container: nothing", pod(LaunchPriority.ORDERED, c("a", null)), null),
                Arguments.of("Ordered: by position", pod(LaunchPriority.ORDERED, c("a", null), c("b", null), c("c", null)),
                        new int[]{0, -1, -2}),
                Arguments.of("Ordered wins over env", pod(LaunchPriority.ORDERED, c("a", "-5"), c("b", "9")),
                        new int[]{0, -1}),
                Arguments.of("another annotation value is ignored", pod("ordered", c("a", null), c("b", null)), null),
                Arguments.of("no annotation, no env", pod(null, c("a", null), c("b", null)), null),
                Arguments.of("env on every container", pod(null, c("a", "10"), c("b", "5"), c("c", "-1")),
                        new int[]{10, 5, -1}),
                Arguments.of("env on one container, others 0", pod(null, c("a", null), c("b", "3")), new int[]{0, 3}),
                Arguments.of("all env 0", pod(null, c("a", "0"), c("b", "0")), null),
                Arguments.of("all env equal and non-zero", pod(null, c("a", "4"), c("b", "4")), null),
                Arguments.of("negative only", pod(null, c("a", "-1"), c("b", null)), new int[]{-1, 0}),
                Arguments.of("spaces around the number", pod(null, c("a", " 2 "), c("b", null)), new int[]{2, 0}),
                Arguments.of("largest int", pod(null, c("a", "2147483647"), c("b", "-2147483648")),
                        new int[]{Integer.MAX_VALUE, Integer.MIN_VALUE}),
                Arguments.of("no containers", pod(LaunchPriority.ORDERED), null),
                Arguments.of("empty annotation", pod("", c("a", null), c("b", null)), null),
                Arguments.of("three, two equal", pod(null, c("a", "1"), c("b", "1"), c("c", "2")), new int[]{1, 1, 2}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsing")
    void parses(String name, Pod pod, int[] expected) {
        Optional<int[]> got = LaunchPriority.priorities(pod);
        assertEquals(expected == null ? "none" : Arrays.toString(expected), got.map(Arrays::toString).orElse("none"));
    }

    @Test
    void aPriorityThatIsNoIntegerIsAClearError() {
        for (String bad : List.of("high", "1.5", "", "99999999999", "0x10")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LaunchPriority.priorities(pod(null, c("a", bad), c("b", "1"))), bad);
            assertTrue(e.getMessage().contains("KRUISE_CONTAINER_PRIORITY must be an integer"), e.getMessage());
        }
    }

    @Test
    void barrierEnvAndItsPriorityRoundTrip() {
        Container c = new ContainerBuilder().withName("a").withEnv(LaunchPriority.barrierEnv(-3, "web-0")).build();
        assertEquals("web-0-barrier", c.getEnv().get(0).getValueFrom().getConfigMapKeyRef().getName());
        assertEquals("p_-3", c.getEnv().get(0).getValueFrom().getConfigMapKeyRef().getKey());
        assertEquals(Optional.of(-3), LaunchPriority.priorityOf(c));
        assertEquals(Optional.empty(), LaunchPriority.priorityOf(new ContainerBuilder().withName("b").build()));
    }

    /** A pod with Ordered barriers on n containers; {@code ready} names the ready ones. */
    static Pod ordered(int n, List<String> ready, boolean completed, boolean containersReady) {
        List<Container> cs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            cs.add(new ContainerBuilder().withName("c" + i).withImage("img").withEnv(LaunchPriority.barrierEnv(-i, "p"))
                    .build());
        }
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().withContainers(cs).endSpec().withNewStatus().endStatus();
        for (int i = 0; i < n; i++) {
            b.editStatus().addToContainerStatuses(new ContainerStatusBuilder().withName("c" + i)
                    .withReady(ready.contains("c" + i)).build()).endStatus();
        }
        if (completed) {
            b.editMetadata().addToAnnotations(LaunchPriority.COMPLETED_ANNOTATION, "true").endMetadata();
        }
        if (containersReady) {
            b.editStatus().addNewCondition().withType("ContainersReady").withStatus("True").endCondition().endStatus();
        }
        return b.build();
    }

    static ConfigMap barrier(String... keys) {
        Map<String, String> data = new HashMap<>();
        for (String k : keys) {
            data.put(k, "true");
        }
        return new ConfigMapBuilder().withNewMetadata().withName("p-barrier").endMetadata().withData(data).build();
    }

    static Stream<Arguments> progression() {
        return Stream.of(
                Arguments.of("no barrier yet", ordered(3, List.of(), false, false), null,
                        BarrierDecision.Action.CREATE_BARRIER, null),
                Arguments.of("empty barrier: release the first container", ordered(3, List.of(), false, false),
                        barrier(), BarrierDecision.Action.RELEASE, "p_0"),
                Arguments.of("first released, not ready: wait", ordered(3, List.of(), false, false), barrier("p_0"),
                        BarrierDecision.Action.NONE, null),
                Arguments.of("first ready: release the second", ordered(3, List.of("c0"), false, false),
                        barrier("p_0"), BarrierDecision.Action.RELEASE, "p_-1"),
                Arguments.of("second released, not ready: wait", ordered(3, List.of("c0"), false, false),
                        barrier("p_0", "p_-1"), BarrierDecision.Action.NONE, null),
                Arguments.of("two ready: release the last and complete", ordered(3, List.of("c0", "c1"), false, false),
                        barrier("p_0", "p_-1"), BarrierDecision.Action.RELEASE_AND_COMPLETE, "p_-2"),
                Arguments.of("last already released: complete", ordered(3, List.of("c0", "c1"), false, false),
                        barrier("p_0", "p_-1", "p_-2"), BarrierDecision.Action.COMPLETE, null),
                Arguments.of("all ready: complete", ordered(3, List.of("c0", "c1", "c2"), false, false),
                        barrier("p_0", "p_-1", "p_-2"), BarrierDecision.Action.COMPLETE, null),
                Arguments.of("all ready, no barrier: complete", ordered(2, List.of("c0", "c1"), false, false), null,
                        BarrierDecision.Action.COMPLETE, null),
                Arguments.of("already completed: nothing", ordered(3, List.of(), true, false), barrier(),
                        BarrierDecision.Action.NONE, null),
                Arguments.of("first restarted (not ready) after all released: complete",
                        ordered(3, List.of("c1", "c2"), false, false), barrier("p_0", "p_-1", "p_-2"),
                        BarrierDecision.Action.COMPLETE, null),
                Arguments.of("a later one ready before an earlier: release the earlier",
                        ordered(3, List.of("c2"), false, false), barrier(), BarrierDecision.Action.RELEASE, "p_0"),
                Arguments.of("two containers: release first", ordered(2, List.of(), false, false), barrier(),
                        BarrierDecision.Action.RELEASE, "p_0"),
                Arguments.of("two containers, first ready: last and complete", ordered(2, List.of("c0"), false, false),
                        barrier("p_0"), BarrierDecision.Action.RELEASE_AND_COMPLETE, "p_-1"),
                Arguments.of("unrelated keys in the barrier are ignored", ordered(2, List.of(), false, false),
                        barrier("p_7", "other"), BarrierDecision.Action.RELEASE, "p_0"),
                Arguments.of("null pod", null, null, BarrierDecision.Action.NONE, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("progression")
    void progresses(String name, Pod pod, ConfigMap barrier, BarrierDecision.Action action, String key) {
        BarrierDecision.Plan plan = BarrierDecision.decide(pod, barrier);
        assertEquals(action, plan.action(), plan.reason());
        assertEquals(key, plan.key());
    }

    @Test
    void theEventFilterSkipsDoneAndReadyPods() {
        assertTrue(BarrierDecision.concerns(ordered(3, List.of(), false, false)));
        assertEquals(false, BarrierDecision.concerns(ordered(3, List.of(), true, false)));
        assertEquals(false, BarrierDecision.concerns(ordered(3, List.of(), false, true)));
        assertEquals(false, BarrierDecision.concerns(ordered(3, List.of("c0", "c1", "c2"), false, false)));
        assertEquals(false, BarrierDecision.concerns(pod(null, c("a", null), c("b", null))));
    }
}
