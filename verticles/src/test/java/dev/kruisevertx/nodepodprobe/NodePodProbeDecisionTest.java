package dev.kruisevertx.nodepodprobe;

import dev.kruisevertx.api.apps.v1alpha1.ContainerProbeState;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeStatus;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static dev.kruisevertx.podprobemarker.ProbeFixtures.NS;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.containerProbe;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.exec;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.marker;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.node;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.npp;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.pod;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.podProbe;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.policy;
import static dev.kruisevertx.podprobemarker.ProbeFixtures.probe;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The nodepodprobe decision as a table: NodePodProbe created and deleted with its node, gone pods dropped, and probe
 * states turned into the pod condition and the markerPolicy labels/annotations (only real changes).
 */
class NodePodProbeDecisionTest {

    record Case(String name, NodePodProbe npp, Node node, List<Pod> pods, List<PodProbeMarker> markers,
                String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static String render(NodePodProbePlan plan) {
        StringBuilder b = new StringBuilder();
        if (plan.create()) {
            b.append("create;");
        }
        if (plan.delete()) {
            b.append("delete;");
        }
        if (plan.spec() != null) {
            List<String> kept = new ArrayList<>();
            (plan.spec().getPodProbes() == null ? List.<dev.kruisevertx.api.apps.v1alpha1.PodProbe>of()
                    : plan.spec().getPodProbes()).forEach(p -> kept.add(p.getName()));
            b.append("keep").append(kept).append(';');
        }
        for (NodePodProbePlan.PodUpdate u : plan.podUpdates()) {
            b.append(u.name()).append(':');
            for (PodCondition c : u.conditions()) {
                b.append(c.getType()).append('=').append(c.getStatus());
                if (c.getMessage() != null) {
                    b.append('(').append(c.getMessage()).append(')');
                }
                b.append(' ');
            }
            b.append("labels").append(new TreeMap<>(nullable(u.labels()))).append(" annotations")
                    .append(new TreeMap<>(nullable(u.annotations()))).append(';');
        }
        return b.toString();
    }

    private static Map<String, String> nullable(Map<String, String> m) {
        Map<String, String> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k, v == null ? "<remove>" : v));
        return out;
    }

    static ContainerProbeState state(String name, String state, String message) {
        ContainerProbeState s = new ContainerProbeState();
        s.setName(name);
        s.setState(state);
        s.setMessage(message);
        s.setLastProbeTime("2026-11-24T10:00:00Z");
        s.setLastTransitionTime("2026-11-24T10:00:00Z");
        return s;
    }

    static NodePodProbe withStatus(NodePodProbe npp, String pod, ContainerProbeState... states) {
        PodProbeStatus s = new PodProbeStatus();
        s.setName(pod);
        s.setNamespace(NS);
        s.setUid("uid-" + pod);
        s.setProbeStates(List.of(states));
        NodePodProbeStatus status = npp.getStatus() == null ? new NodePodProbeStatus() : npp.getStatus();
        List<PodProbeStatus> list = new ArrayList<>(status.getPodProbeStatuses() == null ? List.of()
                : status.getPodProbeStatuses());
        list.add(s);
        status.setPodProbeStatuses(list);
        npp.setStatus(status);
        return npp;
    }

    static NodePodProbe probed(String... pods) {
        List<dev.kruisevertx.api.apps.v1alpha1.PodProbe> entries = new ArrayList<>();
        for (String p : pods) {
            entries.add(podProbe(p, "10.0.0.1", containerProbe("m#healthy", exec())));
        }
        return npp("n1", entries.toArray(new dev.kruisevertx.api.apps.v1alpha1.PodProbe[0]));
    }

    static PodProbeMarker condAndPolicy() {
        return marker("m", probe("healthy", exec(), "game.io/healthy",
                policy("Succeeded", Map.of("healthy", "true"), Map.of("cost", "10")),
                policy("Failed", Map.of("healthy", "false"), Map.of("failed-at", "now"))));
    }

    static Pod withCondition(Pod pod, String type, String status, String message) {
        return new PodBuilder(pod).editStatus().addNewCondition().withType(type).withStatus(status).withMessage(message)
                .endCondition().endStatus().build();
    }

    static Stream<Case> cases() {
        Pod a = pod("a", "n1");
        Node n1 = node("n1");
        return Stream.of(
                new Case("a node without a NodePodProbe gets one", null, n1, List.of(), List.of(), "create;"),
                new Case("no node, no NodePodProbe: nothing", null, null, List.of(), List.of(), ""),
                new Case("the node is gone: the NodePodProbe goes", probed("a"), null, List.of(a), List.of(), "delete;"),
                new Case("the node is being deleted: the NodePodProbe goes", probed(), new NodeBuilder(n1).editMetadata()
                        .withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build(), List.of(), List.of(),
                        "delete;"),
                new Case("nothing reported, pods present: nothing", probed("a"), n1, List.of(a), List.of(), ""),
                new Case("a deleted pod's entry is dropped", probed("a", "b"), n1, List.of(a), List.of(), "keep[a];"),
                new Case("a finished pod's entry is dropped", probed("a"), n1,
                        List.of(new PodBuilder(a).editStatus().withPhase("Failed").endStatus().build()), List.of(),
                        "keep[];"),
                new Case("a replaced pod (other uid) has its entry dropped", probed("a"), n1,
                        List.of(new PodBuilder(a).editMetadata().withUid("new").endMetadata().build()), List.of(), "keep[];"),
                new Case("Succeeded: condition True, matching labels set (opposite keys the pod lacks need no removal)",
                        withStatus(probed("a"), "a", state("m#healthy", "Succeeded", "ok")), n1, List.of(a),
                        List.of(condAndPolicy()),
                        "a:game.io/healthy=True(ok) labels{healthy=true} annotations{cost=10};"),
                new Case("Failed: condition False and the Failed policy",
                        withStatus(probed("a"), "a", state("m#healthy", "Failed", "exit 1")), n1,
                        List.of(new PodBuilder(a).editMetadata().addToAnnotations("cost", "10").endMetadata().build()),
                        List.of(condAndPolicy()),
                        "a:game.io/healthy=False(exit 1) labels{healthy=false} annotations{cost=<remove>, failed-at=now};"),
                new Case("Unknown counts as not Succeeded for the condition", withStatus(probed("a"), "a",
                        state("m#healthy", "Unknown", null)), n1, List.of(a),
                        List.of(marker("m", probe("healthy", exec(), "game.io/healthy"))),
                        "a:game.io/healthy=False labels{} annotations{};"),
                new Case("the pod already shows it: nothing", withStatus(probed("a"), "a",
                        state("m#healthy", "Succeeded", "ok")), n1,
                        List.of(new PodBuilder(withCondition(a, "game.io/healthy", "True", "ok")).editMetadata()
                                .addToLabels("healthy", "true").addToAnnotations("cost", "10").endMetadata().build()),
                        List.of(condAndPolicy()), ""),
                new Case("only the message changed: the condition is rewritten", withStatus(probed("a"), "a",
                        state("m#healthy", "Succeeded", "ok again")), n1,
                        List.of(withCondition(a, "game.io/healthy", "True", "ok")),
                        List.of(marker("m", probe("healthy", exec(), "game.io/healthy"))),
                        "a:game.io/healthy=True(ok again) labels{} annotations{};"),
                new Case("markerPolicy only, no condition type", withStatus(probed("a"), "a",
                        state("m#healthy", "Succeeded", null)), n1, List.of(a),
                        List.of(marker("m", probe("healthy", exec(), null,
                                policy("Succeeded", Map.of("healthy", "true"), null)))),
                        "a:labels{healthy=true} annotations{};"),
                new Case("a state without a value is skipped", withStatus(probed("a"), "a", state("m#healthy", "", null)),
                        n1, List.of(a), List.of(condAndPolicy()), ""),
                new Case("a gone marker is skipped", withStatus(probed("a"), "a", state("m#healthy", "Succeeded", null)),
                        n1, List.of(a), List.of(), ""),
                new Case("a marker being deleted is skipped", withStatus(probed("a"), "a",
                        state("m#healthy", "Succeeded", null)), n1, List.of(a), List.of(markerDeleting()), ""),
                new Case("a probe the marker no longer has is skipped", withStatus(probed("a"), "a",
                        state("m#other", "Succeeded", null)), n1, List.of(a), List.of(condAndPolicy()), ""),
                new Case("the first probe of a condition type wins", withStatus(probed("a"), "a",
                        state("m#one", "Failed", "first"), state("m#two", "Succeeded", "second")), n1, List.of(a),
                        List.of(marker("m", probe("one", exec(), "game.io/c"), probe("two", exec(), "game.io/c"))),
                        "a:game.io/c=False(first) labels{} annotations{};"),
                new Case("results of a pod no longer listed are not applied", withStatus(probed("a"), "b",
                        state("m#healthy", "Succeeded", null)), n1, List.of(a, pod("b", "n1")), List.of(condAndPolicy()),
                        ""),
                new Case("a name without '#' is skipped", withStatus(probed("a"), "a", state("healthy", "Succeeded", null)),
                        n1, List.of(a), List.of(condAndPolicy()), ""));
    }

    static PodProbeMarker markerDeleting() {
        PodProbeMarker m = condAndPolicy();
        m.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        return m;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(Case c) {
        Map<String, Pod> pods = new HashMap<>();
        c.pods().forEach(p -> pods.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p));
        Map<String, PodProbeMarker> markers = new HashMap<>();
        c.markers().forEach(m -> markers.put(m.getMetadata().getNamespace() + "/" + m.getMetadata().getName(), m));
        NodePodProbePlan plan = NodePodProbeDecision.decide("n1", c.npp(), c.node(),
                (ns, n) -> pods.get(ns + "/" + n), (ns, n) -> markers.get(ns + "/" + n));
        assertEquals(c.expected(), render(plan));
    }
}
