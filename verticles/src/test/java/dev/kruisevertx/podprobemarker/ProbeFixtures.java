package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.ContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarkerSpec;
import dev.kruisevertx.api.apps.v1alpha1.ProbeMarkerPolicy;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Markers, pods, nodes and NodePodProbes for the PodProbeMarker decision tables. */
public final class ProbeFixtures {
    public static final String NS = "ns";

    private ProbeFixtures() {
    }

    public static Probe exec() {
        return new ProbeBuilder().withNewExec().withCommand("/bin/sh", "-c", "/healthy.sh").endExec().build();
    }

    public static Probe tcp(IntOrString port) {
        return new ProbeBuilder().withNewTcpSocket().withPort(port).endTcpSocket().build();
    }

    public static Probe http(IntOrString port) {
        return new ProbeBuilder().withNewHttpGet().withPath("/h").withScheme("HTTP").withPort(port).endHttpGet().build();
    }

    public static PodContainerProbe probe(String name, Probe probe, String conditionType, ProbeMarkerPolicy... policies) {
        PodContainerProbe p = new PodContainerProbe();
        p.setName(name);
        p.setContainerName("main");
        p.setProbe(probe);
        p.setPodConditionType(conditionType);
        p.setMarkerPolicy(policies.length == 0 ? null : List.of(policies));
        return p;
    }

    public static ProbeMarkerPolicy policy(String state, Map<String, String> labels, Map<String, String> annotations) {
        ProbeMarkerPolicy p = new ProbeMarkerPolicy();
        p.setState(state);
        p.setLabels(labels);
        p.setAnnotations(annotations);
        return p;
    }

    public static PodProbeMarker marker(String name, PodContainerProbe... probes) {
        PodProbeMarker ppm = new PodProbeMarker();
        ppm.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).withGeneration(1L)
                .withFinalizers(PodProbeMarker.FINALIZER).build());
        PodProbeMarkerSpec spec = new PodProbeMarkerSpec();
        spec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build());
        spec.setProbes(List.of(probes));
        ppm.setSpec(spec);
        return ppm;
    }

    public static Pod pod(String name, String node) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).withUid("uid-" + name)
                .withLabels(Map.of("app", "web")).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("main").addNewPort().withName("http")
                .withContainerPort(8080).endPort().endContainer().endSpec()
                .withNewStatus().withPhase("Running").withPodIP("10.0.0." + Math.abs(name.hashCode() % 200))
                .addNewCondition().withType("Initialized").withStatus("True").endCondition().endStatus().build();
    }

    public static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    public static Node virtualNode(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(Map.of("type", "virtual-kubelet"))
                .endMetadata().build();
    }

    public static NodePodProbe npp(String node, PodProbe... podProbes) {
        NodePodProbe npp = new NodePodProbe();
        npp.setMetadata(new ObjectMetaBuilder().withName(node).withResourceVersion("7").build());
        NodePodProbeSpec spec = new NodePodProbeSpec();
        spec.setPodProbes(podProbes.length == 0 ? null : new ArrayList<>(List.of(podProbes)));
        npp.setSpec(spec);
        return npp;
    }

    public static PodProbe podProbe(String pod, String ip, ContainerProbe... probes) {
        PodProbe p = new PodProbe();
        p.setName(pod);
        p.setNamespace(NS);
        p.setUid("uid-" + pod);
        p.setIp(ip);
        p.setProbes(probes.length == 0 ? null : List.of(probes));
        return p;
    }

    public static ContainerProbe containerProbe(String name, Probe probe) {
        ContainerProbe c = new ContainerProbe();
        c.setName(name);
        c.setContainerName("main");
        c.setProbe(probe);
        return c;
    }
}
