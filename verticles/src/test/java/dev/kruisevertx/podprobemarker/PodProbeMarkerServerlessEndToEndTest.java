package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarkerSpec;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * PodProbeMarker on serverless (gate EnablePodProbeMarkerOnServerless) end to end: {@code /mutate-pod} writes the
 * probes into {@code kruise.io/podprobe} of a created pod, the test plays the virtual-kubelet that runs them and
 * reports each result as the probe's pod condition, and the podprobemarker controller marks the pod by its policy.
 */
class PodProbeMarkerServerlessEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String CONDITION = "game.kruise.io/healthy";
    static final String VK_NODE = "vk-probe";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(1))
            .flags("--feature-gates=EnablePodProbeMarkerOnServerless=true")
            .build();

    @BeforeAll
    static void virtualKubeletNode() {
        product.cluster().nodes().addNode(VK_NODE, Map.of(PodProbeMarker.VIRTUAL_KUBELET_LABEL,
                PodProbeMarker.VIRTUAL_KUBELET_VALUE));
        Await.waitFor(VK_NODE + " registered", WAIT, () -> product.client().nodes().withName(VK_NODE).get() != null);
    }

    static KubernetesClient client() {
        return product.client();
    }

    static String ns() {
        return product.namespace();
    }

    static PodProbeMarker marker(String name, String app) {
        PodProbeMarker ppm = new PodProbeMarker();
        ppm.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns()).build());
        PodProbeMarkerSpec spec = new PodProbeMarkerSpec();
        spec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", app)).build());
        spec.setProbes(List.of(ProbeFixtures.probe("healthy", new ProbeBuilder().withNewExec()
                        .withCommand("/bin/sh", "-c", "/healthy.sh").endExec().withInitialDelaySeconds(0)
                        .withPeriodSeconds(5).build(), CONDITION,
                ProbeFixtures.policy("Succeeded", Map.of("healthy", "true"), Map.of("controller.kubernetes.io/pod-deletion-cost", "10")),
                ProbeFixtures.policy("Failed", Map.of("healthy", "false"), Map.of("controller.kubernetes.io/pod-deletion-cost", "-10")))));
        ppm.setSpec(spec);
        PodProbeMarker created = client().resource(ppm).create();
        // The webhook reads markers from its own informer: wait until it has this one before creating pods.
        Await.waitFor("marker " + name + " in the manager's cache", WAIT, () -> product.app().cache()
                .resource(PodProbeMarker.class).get(ns(), name) != null);
        return created;
    }

    static Pod create(String name, String app, Map<String, String> annotations) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns()).addToLabels("app", app)
                .addToAnnotations(annotations).endMetadata().withNewSpec().withNodeName(VK_NODE)
                .addNewContainer().withName("main").withImage("web:1").endContainer().endSpec().build();
        return client().pods().inNamespace(ns()).resource(pod).create();
    }

    /** What the virtual-kubelet does with a probe result: the probe's condition on the pod's status. */
    static void report(String pod, String status) {
        ConflictRetry.run(() -> client().pods().inNamespace(ns()).withName(pod).editStatus(p -> {
            List<PodCondition> conditions = new ArrayList<>(p.getStatus().getConditions() == null ? List.of()
                    : p.getStatus().getConditions());
            conditions.removeIf(c -> CONDITION.equals(c.getType()));
            conditions.add(new PodConditionBuilder().withType(CONDITION).withStatus(status).withMessage("probed").build());
            p.getStatus().setConditions(conditions);
            return p;
        }));
    }

    static Pod marked(String pod, String label, String cost) {
        return Await.waitFor("pod " + pod + " marked healthy=" + label, WAIT,
                () -> client().pods().inNamespace(ns()).withName(pod).get(),
                p -> p != null && label.equals(Pods.labels(p).get("healthy"))
                        && cost.equals(Pods.annotations(p).get("controller.kubernetes.io/pod-deletion-cost")));
    }

    @Test
    void createdPodCarriesTheProbesAndIsMarkedFromItsConditionAcrossAManagerRestart() throws Exception {
        marker("serverless", "vk");
        Pod pod = create("vk-0", "vk", Map.of());
        assertEquals("[{\"name\":\"healthy\",\"containerName\":\"main\",\"probe\":{\"exec\":{\"command\":[\"/bin/sh\","
                        + "\"-c\",\"/healthy.sh\"]},\"periodSeconds\":5},\"podConditionType\":\"" + CONDITION + "\"}]",
                Pods.annotations(pod).get(PodProbeMarker.PROBE_ANNOTATION));
        assertEquals("serverless", Pods.annotations(pod).get(PodProbeMarker.MARKER_LIST_ANNOTATION));
        Await.waitFor("vk-0 initialized", WAIT, () -> client().pods().inNamespace(ns()).withName("vk-0").get(),
                p -> Pods.conditionTrue(p, "Initialized"));

        report("vk-0", "True");
        marked("vk-0", "true", "10");

        // The manager restarts while the runtime reports a failure: the new one marks it.
        product.restartManager();
        report("vk-0", "False");
        marked("vk-0", "false", "-10");

        // A pod created after the restart is annotated by the new manager's webhook.
        Pod after = create("vk-1", "vk", Map.of());
        assertEquals("serverless", Pods.annotations(after).get(PodProbeMarker.MARKER_LIST_ANNOTATION));
    }

    @Test
    void aPodOfNoMarkerAndPodsAfterTheMarkerIsDeletedAreLeftAlone() {
        marker("short-lived", "gone");
        Pod other = create("other-0", "unmatched", Map.of());
        assertNull(Pods.annotations(other).get(PodProbeMarker.PROBE_ANNOTATION));
        Pod first = create("gone-0", "gone", Map.of());
        assertEquals("short-lived", Pods.annotations(first).get(PodProbeMarker.MARKER_LIST_ANNOTATION));

        // The marker deleted while its pods run: its finalizer goes, and later pods get no probes.
        client().resources(PodProbeMarker.class).inNamespace(ns()).withName("short-lived").delete();
        Await.waitFor("marker gone from the manager's cache", WAIT, () -> product.app().cache()
                .resource(PodProbeMarker.class).get(ns(), "short-lived") == null);
        Pod later = create("gone-1", "gone", Map.of());
        assertNull(Pods.annotations(later).get(PodProbeMarker.PROBE_ANNOTATION));
        assertNull(Pods.annotations(later).get(PodProbeMarker.MARKER_LIST_ANNOTATION));
    }

    @Test
    void aHostileMarkerListAnnotationIsAdmittedWithoutProbes() {
        marker("listed", "hostile");
        // 20,000 names of markers that do not exist (about 170 KB): each is one cache lookup, none is found.
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            names.append(i == 0 ? "" : ",").append("missing-").append(i);
        }
        Pod pod = create("hostile-0", "hostile", Map.of(PodProbeMarker.MARKER_LIST_ANNOTATION, names.toString()));
        assertFalse(Pods.annotations(pod).containsKey(PodProbeMarker.PROBE_ANNOTATION),
                "a listed pod is not matched by selector, as OpenKruise");
        assertEquals(names.toString(), Pods.annotations(pod).get(PodProbeMarker.MARKER_LIST_ANNOTATION));
    }
}
