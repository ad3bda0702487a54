package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulated kubelet does not create a container whose env reads a ConfigMap key that does not exist (a container
 * launch priority barrier): it waits in CreateContainerConfigError, as the kubelet, and starts once the key is there.
 */
class KubeletConfigMapEnvTest {
    static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

    static Kubelet kubelet() {
        return new Kubelet(image -> new ImageRule("*", Duration.ZERO, ContainerFailure.NONE), Duration.ofSeconds(1));
    }

    static Pod pod(boolean optional) {
        return new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withUid("uid-1").endMetadata()
                .withNewSpec().withNodeName("n1")
                .addNewContainer().withName("c0").withImage("a:1").addNewEnv().withName("KRUISE_CONTAINER_BARRIER")
                .withNewValueFrom().withNewConfigMapKeyRef().withName("p-barrier").withKey("p_0").endConfigMapKeyRef()
                .endValueFrom().endEnv().endContainer()
                .addNewContainer().withName("c1").withImage("b:1").addNewEnv().withName("KRUISE_CONTAINER_BARRIER")
                .withNewValueFrom().withNewConfigMapKeyRef().withName("p-barrier").withKey("p_-1")
                .withOptional(optional ? Boolean.TRUE : null).endConfigMapKeyRef().endValueFrom().endEnv()
                .endContainer().endSpec().build();
    }

    static ContainerStatus status(Kubelet.Sync sync, String name) {
        return sync.status().getContainerStatuses().stream().filter(s -> s.getName().equals(name)).findFirst()
                .orElseThrow();
    }

    static Pod withStatus(Pod pod, Kubelet.Sync sync) {
        return new PodBuilder(pod).withStatus(sync.status()).build();
    }

    @Test
    void aContainerWaitsForItsKeyAndStartsWhenItExists() {
        Kubelet k = kubelet();
        Pod pod = pod(false);
        Kubelet.Sync first = k.sync(pod, "10.0.0.1", "10.244.0.2", T0, (ns, name) -> Map.of("p_0", "true"));
        assertNotNull(status(first, "c0").getState().getRunning());
        ContainerStatus waiting = status(first, "c1");
        assertEquals("CreateContainerConfigError", waiting.getState().getWaiting().getReason());
        assertEquals("couldn't find key p_-1 in ConfigMap ns/p-barrier", waiting.getState().getWaiting().getMessage());
        assertTrue(first.recheckIn().isPresent(), "looked at again");

        // The ConfigMap vanishing does not stop a container already created; the waiting one names the missing map.
        Kubelet.Sync second = k.sync(withStatus(pod, first), "10.0.0.1", "10.244.0.2", T0.plusSeconds(1),
                (ns, name) -> null);
        assertNotNull(status(second, "c0").getState().getRunning());
        assertEquals("configmap \"p-barrier\" not found", status(second, "c1").getState().getWaiting().getMessage());

        Instant released = T0.plusSeconds(5);
        Kubelet.Sync third = k.sync(withStatus(pod, second), "10.0.0.1", "10.244.0.2", released,
                (ns, name) -> Map.of("p_0", "true", "p_-1", "true"));
        ContainerStatus started = status(third, "c1");
        assertNotNull(started.getState().getRunning());
        assertEquals("2026-11-24T10:00:05Z", started.getState().getRunning().getStartedAt());
        assertEquals("2026-11-24T10:00:00Z", status(third, "c0").getState().getRunning().getStartedAt());
    }

    @Test
    void anOptionalReferenceDoesNotHoldTheContainer() {
        Kubelet.Sync sync = kubelet().sync(pod(true), "10.0.0.1", "10.244.0.2", T0, (ns, name) -> Map.of("p_0", "t"));
        assertNotNull(status(sync, "c1").getState().getRunning());
    }

    @Test
    void withoutALookupEveryKeyIsTakenAsPresent() {
        Kubelet.Sync sync = kubelet().sync(pod(false), "10.0.0.1", "10.244.0.2", T0);
        assertNotNull(status(sync, "c0").getState().getRunning());
        assertNotNull(status(sync, "c1").getState().getRunning());
    }

    @Test
    void prefetchReadsOnlyWhileAContainerIsNotCreated() {
        List<String> reads = new ArrayList<>();
        Kubelet.ConfigMapData fetch = (ns, name) -> {
            reads.add(ns + "/" + name);
            return Map.of("p_0", "true");
        };
        Pod pod = pod(false);
        Kubelet.ConfigMapData data = Kubelet.prefetch(pod, fetch);
        assertEquals(List.of("ns/p-barrier"), reads, "one read for both containers");
        assertEquals(Map.of("p_0", "true"), data.get("ns", "p-barrier"));
        Kubelet k = kubelet();
        Kubelet.Sync all = k.sync(pod, "10.0.0.1", "10.244.0.2", T0, (ns, name) -> Map.of("p_0", "t", "p_-1", "t"));
        reads.clear();
        Kubelet.prefetch(withStatus(pod, all), fetch);
        assertEquals(List.of(), reads, "every container has a containerID: nothing to read");
    }
}
