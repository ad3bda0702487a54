package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.demo.SimNodeAgents;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A CloneSet in-place update that changes only env taken from metadata (a template label an env {@code fieldRef}
 * reads) completes on the embedded cluster: the node agent's container-meta job on each simulated node reads the
 * running container's env through the simulated runtime's ExecSync, stops the container whose values are stale, the
 * simulated kubelet starts it again with the pod's current values, and the reported hash lets the manager finish.
 */
class CloneSetEnvFromMetadataEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(150);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2).setCriServers(true))
            .build();

    static Vertx agentVertx;
    static KubernetesClient agentClient;
    static SimNodeAgents agents;

    @BeforeAll
    static void startNodeAgents() throws Exception {
        agentVertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        agentClient = product.cluster().newClient();
        agents = SimNodeAgents.start(agentVertx, agentClient, product.cluster().criServers(), Duration.ofSeconds(1))
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopNodeAgents() throws Exception {
        if (agents != null) {
            agents.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        if (agentClient != null) {
            agentClient.close();
        }
        if (agentVertx != null) {
            agentVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    static CloneSet cloneSet(String ns, String name, int replicas) {
        CloneSet cs = CloneSetEndToEndTest.cloneSet(ns, name, replicas, "nginx:1");
        cs.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        cs.getSpec().getTemplate().getMetadata().getLabels().put("version", "v1");
        cs.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(List.of(new EnvVarBuilder()
                .withName("APP_VERSION").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.labels['version']")
                .endFieldRef().endValueFrom().build()));
        return cs;
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
        return Await.waitFor(what, WAIT, () -> resource(ns, name).get(), cs -> cs != null && cs.getStatus() != null
                && cs.getMetadata().getGeneration() != null
                && cs.getStatus().getObservedGeneration() == cs.getMetadata().getGeneration() && done.test(cs));
    }

    static List<Pod> livePods(String ns, String app) {
        return product.client().pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }

    static ContainerStatus main(Pod p) {
        return p.getStatus().getContainerStatuses().stream().filter(s -> s.getName().equals("main")).findFirst()
                .orElseThrow();
    }

    static void rollsOutEnvChangeInPlace(boolean restartManagerMidway) throws Exception {
        String ns = product.namespace();
        String name = "web";
        int replicas = 3;
        resource(ns, name).create(cloneSet(ns, name, replicas));
        waitStatus(ns, name, "created and ready", c -> c.getStatus().getReadyReplicas() == replicas
                && c.getStatus().getUpdatedReplicas() == replicas);
        // The node agents report every pod's containers, with the hash of the env the container runs with.
        List<Pod> before = Await.waitFor("runtime-containers-meta on every pod", WAIT, () -> livePods(ns, name),
                pods -> pods.size() == replicas && pods.stream().allMatch(p -> Pods.annotations(p)
                        .getOrDefault(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION, "").contains("extractedEnvFromMetadataHash")));
        Map<String, String> uids = before.stream().collect(Collectors.toMap(p -> p.getMetadata().getName(),
                p -> p.getMetadata().getUid()));
        Map<String, String> containerIds = before.stream().collect(Collectors.toMap(p -> p.getMetadata().getName(),
                p -> main(p).getContainerID()));

        edit(ns, name, s -> s.getTemplate().getMetadata().getLabels().put("version", "v2"));
        if (restartManagerMidway) {
            Await.waitFor("the first pod updating in place", WAIT, () -> livePods(ns, name),
                    pods -> pods.stream().anyMatch(p -> "v2".equals(Pods.labels(p).get("version"))));
            product.restartManager();
        }
        CloneSet done = waitStatus(ns, name, "rolled out in place", c -> c.getStatus().getUpdatedReplicas() == replicas
                && c.getStatus().getUpdatedReadyReplicas() == replicas
                && c.getStatus().getUpdateRevision().equals(c.getStatus().getCurrentRevision()));
        assertEquals(replicas, done.getStatus().getReadyReplicas());
        for (Pod p : livePods(ns, name)) {
            String pod = p.getMetadata().getName();
            assertEquals(uids.get(pod), p.getMetadata().getUid(), "updated in place, not recreated: " + pod);
            assertEquals("v2", Pods.labels(p).get("version"));
            assertNotEquals(containerIds.get(pod), main(p).getContainerID(),
                    "the container was started again with the new value: " + pod);
            assertTrue(main(p).getRestartCount() >= 1, pod + " restart count " + main(p).getRestartCount());
            assertTrue(Pods.conditionTrue(p, "InPlaceUpdateReady"), pod);
            String meta = Pods.annotations(p).get(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION);
            assertNotNull(meta, pod);
            assertTrue(meta.contains(main(p).getContainerID()), pod + " reports its current container");
        }
    }

    @Test
    void anEnvFromMetadataChangeCompletesInPlace() throws Exception {
        rollsOutEnvChangeInPlace(false);
    }

    @Test
    void anEnvFromMetadataChangeCompletesAcrossAManagerRestart() throws Exception {
        rollsOutEnvChangeInPlace(true);
    }
}
