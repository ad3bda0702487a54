package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.ContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarkerStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.kruisevertx.podprobemarker.ProbeFixtures.containerProbe;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.exec;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.http;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.marker;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.node;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.npp;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.pod;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.podProbe;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.policy;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.probe;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.tcp;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.virtualNode;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The podprobemarker decision as a table: which pods count, how their probes are aggregated into each node's
 * NodePodProbe (new entries, merges, replaced and dropped probes, named ports), the finalizer, the status, deletion
 * and the serverless marks.
 */
class PodProbeMarkerDecisionTest {

    /** One scenario: inputs and the expected plan, rendered as text for a readable diff. */
    record Case(String name, PodProbeMarker ppm, List<Pod> pods, List<Node> nodes, List<NodePodProbe> npps,
                boolean serverless, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static String render(PodProbeMarkerPlan plan) {
        StringBuilder b = new StringBuilder();
        if (plan.addFinalizer()) {
            b.append("+finalizer;");
        }
        for (PodProbeMarkerPlan.NodeWrite w : plan.nodeWrites()) {
            b.append(w.create() ? "create " : "update ").append(w.node()).append('[');
            List<String> entries = new ArrayList<>();
            for (PodProbe p : w.spec().getPodProbes() == null ? List.<PodProbe>of() : w.spec().getPodProbes()) {
                List<String> probes = new ArrayList<>();
                for (ContainerProbe c : p.getProbes() == null ? List.<ContainerProbe>of() : p.getProbes()) {
                    String port = c.getProbe().getTcpSocket() != null ? ":" + c.getProbe().getTcpSocket().getPort().getIntVal()
                            : c.getProbe().getHttpGet() != null ? ":" + c.getProbe().getHttpGet().getPort().getIntVal() : "";
                    probes.add(c.getName() + port);
                }
                entries.add(p.getName() + "@" + p.getIp() + "=" + String.join(",", probes));
            }
            b.append(String.join(" ", entries)).append("];");
        }
        for (PodProbeMarkerPlan.PodMarks m : plan.serverlessMarks()) {
            b.append("mark ").append(m.name()).append(' ').append(m.labels()).append(m.annotations()).append(';');
        }
        if (plan.status() != null) {
            b.append("status ").append(plan.status().observedGeneration()).append('/').append(plan.status().matchedPods())
                    .append(';');
        }
        if (plan.removeFinalizer()) {
            b.append("-finalizer;");
        }
        return b.toString();
    }

    static <T> T with(T t, Consumer<T> change) {
        change.accept(t);
        return t;
    }

    static PodProbeMarker healthy() {
        return marker("m", probe("healthy", exec(), "game.io/healthy"));
    }

    static PodProbeMarker settled(PodProbeMarker ppm, long matched) {
        PodProbeMarkerStatus s = new PodProbeMarkerStatus();
        s.setObservedGeneration(1L);
        s.setMatchedPods(matched);
        ppm.setStatus(s);
        return ppm;
    }

    static Pod ip(Pod pod, String ip) {
        return new PodBuilder(pod).editStatus().withPodIP(ip).endStatus().build();
    }

    static Stream<Case> cases() {
        Pod a = ip(pod("a", "n1"), "10.0.0.1");
        Pod b = ip(pod("b", "n1"), "10.0.0.2");
        Pod c = ip(pod("c", "n2"), "10.0.0.3");
        List<Node> nodes = List.of(node("n1"), node("n2"));
        NodePodProbe n1 = npp("n1");
        NodePodProbe n2 = npp("n2");
        return Stream.of(
                new Case("no pods: finalizer and status only", with(healthy(), p -> p.getMetadata().setFinalizers(null)),
                        List.of(), nodes, List.of(n1), false, "+finalizer;status 1/0;"),
                new Case("one pod gets an entry in its node's NodePodProbe", healthy(), List.of(a), nodes, List.of(n1, n2),
                        false, "update n1[a@10.0.0.1=m#healthy];status 1/1;"),
                new Case("pods of two nodes: one write per node", healthy(), List.of(a, b, c), nodes, List.of(n1, n2),
                        false, "update n1[a@10.0.0.1=m#healthy b@10.0.0.2=m#healthy];update n2[c@10.0.0.3=m#healthy];status 1/3;"),
                new Case("a node without a NodePodProbe gets one created", healthy(), List.of(c), nodes, List.of(n1), false,
                        "create n2[c@10.0.0.3=m#healthy];status 1/1;"),
                new Case("already aggregated and status current: nothing", settled(healthy(), 1), List.of(a), nodes,
                        List.of(npp("n1", podProbe("a", "10.0.0.1", containerProbe("m#healthy", exec())))), false, ""),
                new Case("another marker's probe of the pod is kept", settled(healthy(), 1), List.of(a), nodes,
                        List.of(npp("n1", podProbe("a", "10.0.0.1", containerProbe("other#x", exec())))), false,
                        "update n1[a@10.0.0.1=other#x,m#healthy];"),
                new Case("a changed probe is replaced in place", settled(marker("m",
                        probe("healthy", tcp(new IntOrString(81)), "game.io/healthy")), 1), List.of(a), nodes,
                        List.of(npp("n1", podProbe("a", "10.0.0.1", containerProbe("m#healthy", exec())))), false,
                        "update n1[a@10.0.0.1=m#healthy:81];"),
                new Case("a probe the marker no longer has is dropped", settled(healthy(), 1), List.of(a), nodes,
                        List.of(npp("n1", podProbe("a", "10.0.0.1", containerProbe("m#healthy", exec()),
                                containerProbe("m#gone", exec())))), false, "update n1[a@10.0.0.1=m#healthy];"),
                new Case("an entry without IP gets the pod's", settled(healthy(), 1), List.of(a), nodes,
                        List.of(npp("n1", podProbe("a", "", containerProbe("m#healthy", exec())))), false,
                        "update n1[a@10.0.0.1=m#healthy];"),
                new Case("a named tcp port is resolved from the container", marker("m",
                        probe("p", tcp(new IntOrString("http")), "game.io/p")), List.of(a), nodes, List.of(n1), false,
                        "update n1[a@10.0.0.1=m#p:8080];status 1/1;"),
                new Case("a named http port is resolved from the container", marker("m",
                        probe("p", http(new IntOrString("http")), "game.io/p")), List.of(a), nodes, List.of(n1), false,
                        "update n1[a@10.0.0.1=m#p:8080];status 1/1;"),
                new Case("an unknown named port leaves the probe out", marker("m",
                        probe("p", tcp(new IntOrString("nope")), "game.io/p"), probe("q", exec(), "game.io/q")),
                        List.of(a), nodes, List.of(n1), false, "update n1[a@10.0.0.1=m#q];status 1/1;"),
                new Case("pods not matching the selector are ignored", healthy(), List.of(new PodBuilder(a).editMetadata()
                        .withLabels(Map.of("app", "db")).endMetadata().build()), nodes, List.of(n1), false, "status 1/0;"),
                new Case("pods not Initialized are ignored", healthy(), List.of(new PodBuilder(a).editStatus()
                        .withConditions().endStatus().build()), nodes, List.of(n1), false, "status 1/0;"),
                new Case("finished and terminating pods are ignored", healthy(), List.of(
                        new PodBuilder(a).editStatus().withPhase("Succeeded").endStatus().build(),
                        new PodBuilder(b).editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build()),
                        nodes, List.of(n1), false, "status 1/0;"),
                new Case("unscheduled pods and pods of missing nodes are ignored", healthy(), List.of(
                        new PodBuilder(a).editSpec().withNodeName(null).endSpec().build(),
                        new PodBuilder(b).editSpec().withNodeName("n9").endSpec().build()), nodes, List.of(n1), false,
                        "status 1/0;"),
                new Case("a new generation updates the status", with(settled(healthy(), 0),
                        p -> p.getMetadata().setGeneration(2L)), List.of(), nodes, List.of(n1), false, "status 2/0;"),
                new Case("deleted: probes removed, empty entries dropped, then the finalizer",
                        with(healthy(), p -> p.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z")), List.of(a),
                        nodes, List.of(npp("n1", podProbe("a", "10.0.0.1", containerProbe("m#healthy", exec())),
                                podProbe("b", "10.0.0.2", containerProbe("m#healthy", exec()),
                                        containerProbe("other#x", exec()))), npp("n2")),
                        false, "update n1[b@10.0.0.2=other#x];-finalizer;"),
                new Case("deleted: a marker whose name prefixes another's leaves that one alone",
                        with(healthy(), p -> p.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z")), List.of(),
                        nodes, List.of(npp("n1", podProbe("a", "10.0.0.1", containerProbe("mm#healthy", exec())))),
                        false, "-finalizer;"),
                new Case("deleted without our finalizer: nothing",
                        with(healthy(), p -> {
                            p.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
                            p.getMetadata().setFinalizers(null);
                        }), List.of(a), nodes, List.of(npp("n1", podProbe("a", "10.0.0.1",
                        containerProbe("m#healthy", exec())))), false, ""),
                new Case("serverless pod counted, not aggregated, no marks with the gate off", healthy(),
                        List.of(pod("s", "vk")), List.of(virtualNode("vk")), List.of(), false, "status 1/1;"),
                new Case("serverless pod marked from its condition with the gate on", marker("m",
                        probe("healthy", exec(), "game.io/healthy",
                                policy("Succeeded", Map.of("healthy", "true"), Map.of("cost", "10")),
                                policy("Failed", Map.of("healthy", "false"), null))),
                        List.of(new PodBuilder(pod("s", "vk")).editStatus().addNewCondition().withType("game.io/healthy")
                                .withStatus("True").endCondition().endStatus().build()),
                        List.of(virtualNode("vk")), List.of(), true, "mark s {healthy=true}{cost=10};status 1/1;"),
                new Case("serverless pod without the condition is not marked", marker("m",
                        probe("healthy", exec(), "game.io/healthy", policy("Failed", Map.of("healthy", "false"), null))),
                        List.of(pod("s", "vk")), List.of(virtualNode("vk")), List.of(), true, "status 1/1;"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(Case c) {
        Map<String, Node> nodes = new HashMap<>();
        c.nodes().forEach(n -> nodes.put(n.getMetadata().getName(), n));
        PodProbeMarkerPlan plan = PodProbeMarkerDecision.decide(c.ppm(), c.pods(), nodes::get, c.npps(), c.serverless());
        assertEquals(c.expected(), render(plan));
    }

    /** {@code kubectl kruise why}: a marker that matches no pod it can probe says so; one that does holds nothing. */
    @org.junit.jupiter.api.Test
    void aMarkerWithoutPodsIsHeldByNoMatchingPods() {
        Map<String, Node> nodes = Map.of("n1", node("n1"));
        PodProbeMarkerPlan idle = PodProbeMarkerDecision.decide(healthy(), List.of(), nodes::get, List.of(), false);
        assertEquals(List.of("NoMatchingPods: spec.selector matches no active, initialized and scheduled pod"),
                idle.holds().stream().map(r -> r.code() + ": " + r.message()).toList());
        assertEquals(List.of("NoMatchingPods: spec.selector matches no active, initialized and scheduled pod"),
                idle.debugSummary().reasons().stream().map(r -> r.code() + ": " + r.message()).toList());
        PodProbeMarkerPlan busy = PodProbeMarkerDecision.decide(healthy(), List.of(ip(pod("a", "n1"), "10.0.0.1")),
                nodes::get, List.of(), false);
        assertEquals(List.of(), busy.holds());
    }
}
