package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.agent.podprobe.PodProbeAgent;
import dev.kruisevertx.api.apps.v1alpha1.ContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarkerSpec;
import dev.kruisevertx.demo.SimNodeAgents;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PodProbeMarker end to end on the embedded cluster: the manager (webhook, podprobemarker and nodepodprobe
 * controllers) and, per simulated node, the node agent's prober running exec probes through the CRI on the node's
 * simulated runtime (whose exec results the test scripts with {@code setExecExitCode}).
 */
class PodProbeMarkerEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String CONDITION = "game.kruise.io/healthy";

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

    static KubernetesClient client() {
        return product.client();
    }

    static String ns() {
        return product.namespace();
    }

    /** A probe command unique to the test, so scripting its result affects no other test. */
    static List<String> command() {
        return List.of("/bin/sh", "-c", "/healthy.sh " + ns());
    }

    static Pod runningPod(String name) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns()).addToLabels("app", "web")
                .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("web:1").endContainer()
                .endSpec().build();
        client().pods().inNamespace(ns()).resource(pod).create();
        return Await.waitFor("pod " + name + " ready", WAIT, () -> client().pods().inNamespace(ns()).withName(name).get(),
                p -> p != null && Pods.conditionTrue(p, "Ready"));
    }

    static PodProbeMarker marker(String name) {
        PodProbeMarker ppm = new PodProbeMarker();
        ppm.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns()).build());
        PodProbeMarkerSpec spec = new PodProbeMarkerSpec();
        spec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build());
        spec.setProbes(List.of(ProbeFixtures.probe("healthy", new ProbeBuilder().withNewExec().withCommand(command())
                        .endExec().withPeriodSeconds(1).build(), CONDITION,
                ProbeFixtures.policy("Succeeded", Map.of("healthy", "true"), Map.of("controller.kubernetes.io/pod-deletion-cost", "10")),
                ProbeFixtures.policy("Failed", Map.of("healthy", "false"), Map.of("controller.kubernetes.io/pod-deletion-cost", "-10")))));
        ppm.setSpec(spec);
        return client().resource(ppm).create();
    }

    static Pod podWith(String name, String conditionStatus, String label) {
        return Await.waitFor("pod " + name + " with " + CONDITION + "=" + conditionStatus + " and healthy=" + label, WAIT,
                () -> client().pods().inNamespace(ns()).withName(name).get(),
                p -> p != null && Pods.condition(p, CONDITION).map(c -> conditionStatus.equals(c.getStatus())).orElse(false)
                        && label.equals(Pods.labels(p).get("healthy")));
    }

    static boolean probed(String node, String pod, String markerName) {
        NodePodProbe npp = client().resources(NodePodProbe.class).withName(node).get();
        if (npp == null) {
            return false;
        }
        for (PodProbe p : npp.podProbes()) {
            if (ns().equals(p.getNamespace()) && pod.equals(p.getName())) {
                for (ContainerProbe c : p.getProbes() == null ? List.<ContainerProbe>of() : p.getProbes()) {
                    if (c.getName().startsWith(markerName + "#")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Test
    void failingProbeFlipsTheConditionAndTheMarkerLabelAcrossAManagerRestart() throws Exception {
        Pod pod = runningPod("web-0");
        String node = pod.getSpec().getNodeName();
        marker("healthy-marker");
        Pod healthy = podWith("web-0", "True", "true");
        assertEquals("10", Pods.annotations(healthy).get("controller.kubernetes.io/pod-deletion-cost"));
        PodProbeMarker ppm = Await.waitFor("marker status and finalizer", WAIT,
                () -> client().resources(PodProbeMarker.class).inNamespace(ns()).withName("healthy-marker").get(),
                m -> m.getStatus() != null && Long.valueOf(1).equals(m.getStatus().getMatchedPods())
                        && m.getMetadata().getFinalizers().contains(PodProbeMarker.FINALIZER));
        assertEquals(ppm.getMetadata().getGeneration(), ppm.getStatus().getObservedGeneration());
        assertTrue(probed(node, "web-0", "healthy-marker"));

        product.cluster().nodes().setExecExitCode(command(), 1);
        Pod failed = podWith("web-0", "False", "false");
        assertEquals("-10", Pods.annotations(failed).get("controller.kubernetes.io/pod-deletion-cost"));

        // The manager restarts while the probe recovers: the new one picks the result up.
        product.restartManager();
        product.cluster().nodes().setExecExitCode(command(), 0);
        podWith("web-0", "True", "true");
    }

    @Test
    void deletedPodDropsItsProbeAndDeletedMarkerCleansNodePodProbes() {
        Pod a = runningPod("web-a");
        Pod b = runningPod("web-b");
        marker("cleanup-marker");
        Await.waitFor("both pods probed", WAIT, () -> probed(a.getSpec().getNodeName(), "web-a", "cleanup-marker")
                && probed(b.getSpec().getNodeName(), "web-b", "cleanup-marker"));

        client().pods().inNamespace(ns()).withName("web-a").withGracePeriod(0).delete();
        Await.waitFor("the deleted pod's probe dropped", WAIT,
                () -> !probed(a.getSpec().getNodeName(), "web-a", "cleanup-marker"));
        assertTrue(probed(b.getSpec().getNodeName(), "web-b", "cleanup-marker"));

        // Deleted while its probes run: the finalizer holds it until every NodePodProbe is clean.
        client().resources(PodProbeMarker.class).inNamespace(ns()).withName("cleanup-marker").delete();
        Await.waitFor("marker gone", WAIT,
                () -> client().resources(PodProbeMarker.class).inNamespace(ns()).withName("cleanup-marker").get() == null);
        assertTrue(!probed(b.getSpec().getNodeName(), "web-b", "cleanup-marker"), "probes of the deleted marker remain");
    }

    @Test
    void hostileMarkersAreRefusedWithTheReason() {
        PodProbeMarker bad = new PodProbeMarker();
        bad.setMetadata(new ObjectMetaBuilder().withName("bad").withNamespace(ns()).build());
        PodProbeMarkerSpec spec = new PodProbeMarkerSpec();
        spec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build());
        spec.setProbes(List.of(ProbeFixtures.probe("p", new ProbeBuilder().withNewExec().withCommand("true").endExec()
                .withPeriodSeconds(-3).withFailureThreshold(Integer.MIN_VALUE).build(), CONDITION)));
        bad.setSpec(spec);
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client().resource(bad).create());
        assertEquals(422, e.getCode());
        assertTrue(e.getMessage().contains("spec.probe.periodSeconds: Invalid value: -3: must be greater than or equal to 0"),
                e.getMessage());
        assertTrue(e.getMessage().contains("spec.probe.failureThreshold"), e.getMessage());

        PodProbeMarker noProbes = new PodProbeMarker();
        noProbes.setMetadata(new ObjectMetaBuilder().withName("empty").withNamespace(ns()).build());
        PodProbeMarkerSpec emptySpec = new PodProbeMarkerSpec();
        emptySpec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build());
        emptySpec.setProbes(List.of());
        noProbes.setSpec(emptySpec);
        KubernetesClientException empty = assertThrows(KubernetesClientException.class,
                () -> client().resource(noProbes).create());
        assertTrue(empty.getMessage().contains("empty probes is not valid for PodProbeMarker."), empty.getMessage());
    }

    /**
     * Conflicting writers: another client flips the pod's probe condition and marker label and strips the pod's probes
     * from its NodePodProbe; the controllers put back what the marker and the probe result say.
     */
    @Test
    void anotherWriterFlippingTheConditionAndEditingTheNodePodProbeIsCorrected() {
        Pod pod = runningPod("web-cw");
        String node = pod.getSpec().getNodeName();
        marker("contested-marker");
        podWith("web-cw", "True", "true");
        Await.waitFor("web-cw probed", WAIT, () -> probed(node, "web-cw", "contested-marker"));

        // Another writer strips this pod's probes from the NodePodProbe (keeping the other pods' entries).
        ConflictRetry.run(() -> client().resources(NodePodProbe.class).withName(node).edit(npp -> {
            npp.getSpec().getPodProbes().removeIf(p -> ns().equals(p.getNamespace()) && "web-cw".equals(p.getName()));
            return npp;
        }));
        Await.waitFor("the probes put back", WAIT, () -> probed(node, "web-cw", "contested-marker"));

        // And flips the label and the condition the marker owns.
        ConflictRetry.run(() -> client().pods().inNamespace(ns()).withName("web-cw").edit(p -> {
            p.getMetadata().getLabels().put("healthy", "false");
            return p;
        }));
        ConflictRetry.run(() -> client().pods().inNamespace(ns()).withName("web-cw").editStatus(p -> {
            p.getStatus().getConditions().stream().filter(c -> CONDITION.equals(c.getType()))
                    .forEach(c -> {
                        c.setStatus("False");
                        c.setMessage("written by someone else");
                    });
            return p;
        }));
        podWith("web-cw", "True", "true");
    }
}
