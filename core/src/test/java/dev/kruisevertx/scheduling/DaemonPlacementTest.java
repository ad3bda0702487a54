package dev.kruisevertx.scheduling;

import dev.kruisevertx.scheduling.DaemonPlacement.Fit;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonPlacementTest {

    private static Node node(String name, Map<String, String> labels, Taint... taints) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withTaints(taints).endSpec().build();
    }

    private static Taint taint(String key, String effect) {
        return new Taint(effect, key, null, null);
    }

    @Test
    void daemonTolerationsAreAddedOnceAndHostNetworkAddsNetworkUnavailable() {
        List<Toleration> plain = DaemonPlacement.withDaemonTolerations(null, false);
        assertEquals(6, plain.size());
        assertTrue(plain.stream().allMatch(t -> "Exists".equals(t.getOperator()) && t.getTolerationSeconds() == null));
        assertEquals(List.of("NoExecute", "NoExecute", "NoSchedule", "NoSchedule", "NoSchedule", "NoSchedule"),
                plain.stream().map(Toleration::getEffect).toList());
        List<Toleration> host = DaemonPlacement.withDaemonTolerations(null, true);
        assertEquals(7, host.size());
        assertEquals(DaemonPlacement.TAINT_NETWORK_UNAVAILABLE, host.get(6).getKey());
        // applying twice changes nothing
        assertEquals(host, DaemonPlacement.withDaemonTolerations(host, true));
    }

    @Test
    void sameTolerationWithATimeLimitIsReplacedAndOthersKept() {
        Toleration limited = new TolerationBuilder().withKey(DaemonPlacement.TAINT_NOT_READY).withOperator("Exists")
                .withEffect("NoExecute").withTolerationSeconds(30L).build();
        Toleration own = new TolerationBuilder().withKey("gpu").withOperator("Equal").withValue("yes").withEffect("NoSchedule").build();
        List<Toleration> in = List.of(limited, own);
        List<Toleration> out = DaemonPlacement.withDaemonTolerations(in, false);
        assertEquals(7, out.size());
        assertNull(out.get(0).getTolerationSeconds());
        assertEquals(own, out.get(1));
        assertEquals(30L, in.get(0).getTolerationSeconds(), "input list untouched");
    }

    @Test
    void pinningReplacesRequiredTermsAndKeepsTheRest() {
        Affinity existing = new AffinityBuilder().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNodeSelectorTerms(new NodeSelectorTerm(List.of(new NodeSelectorRequirement("zone", "In", List.of("a"))), null))
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(5)
                .withNewPreference().addToMatchExpressions(new NodeSelectorRequirement("disk", "In", List.of("ssd"))).endPreference()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .withNewPodAntiAffinity().endPodAntiAffinity().build();
        Affinity pinned = DaemonPlacement.pinnedAffinity(existing, "n7");
        List<NodeSelectorTerm> terms = pinned.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms();
        assertEquals(1, terms.size());
        assertTrue(terms.get(0).getMatchExpressions() == null || terms.get(0).getMatchExpressions().isEmpty());
        assertEquals(List.of(new NodeSelectorRequirement("metadata.name", "In", List.of("n7"))), terms.get(0).getMatchFields());
        assertEquals(1, pinned.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution().size());
        assertTrue(pinned.getPodAntiAffinity() != null);
        assertEquals("zone", existing.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms().get(0).getMatchExpressions().get(0).getKey(), "input untouched");
        assertEquals(Optional.of("n7"), DaemonPlacement.targetNode(new PodSpecBuilder().withAffinity(pinned).build()));
    }

    @Test
    void pinningWithoutAffinityAndTheForNodeCopy() {
        Affinity pinned = DaemonPlacement.pinnedAffinity(null, "n1");
        assertTrue(NodeMatching.matchesNodeSelectorAndAffinity(new PodSpecBuilder().withAffinity(pinned).build(), node("n1", Map.of())));
        assertFalse(NodeMatching.matchesNodeSelectorAndAffinity(new PodSpecBuilder().withAffinity(pinned).build(), node("n2", Map.of())));
        PodSpec template = new PodSpecBuilder().withHostNetwork(true).build();
        PodSpec pod = DaemonPlacement.forNode(template, "n1");
        assertEquals(7, pod.getTolerations().size());
        assertEquals(Optional.of("n1"), DaemonPlacement.targetNode(pod));
        assertNull(template.getAffinity(), "template untouched");
        assertTrue(template.getTolerations() == null || template.getTolerations().isEmpty());
        assertEquals(Optional.of("x"), DaemonPlacement.targetNode(new PodSpecBuilder().withNodeName("x").build()));
        assertEquals(Optional.empty(), DaemonPlacement.targetNode(new PodSpec()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // case, template nodeName, selector zone, hostNetwork, node zone, taint key, taint effect, expected
            "plain node, '', '', false, a, '', '', FITS",
            "selector matches, '', a, false, a, '', '', FITS",
            "selector does not match, '', b, false, a, '', '', SELECTOR_OR_AFFINITY",
            "nodeName other node, other, '', false, a, '', '', OTHER_NODE_NAME",
            "nodeName this node, n1, '', false, a, '', '', FITS",
            "custom NoSchedule taint keeps running pod, '', '', false, a, dedicated, NoSchedule, UNTOLERATED_NO_SCHEDULE",
            "custom NoExecute taint evicts, '', '', false, a, dedicated, NoExecute, UNTOLERATED_NO_EXECUTE",
            "PreferNoSchedule is ignored, '', '', false, a, dedicated, PreferNoSchedule, FITS",
            "not-ready NoExecute tolerated, '', '', false, a, node.kubernetes.io/not-ready, NoExecute, FITS",
            "unreachable NoExecute tolerated, '', '', false, a, node.kubernetes.io/unreachable, NoExecute, FITS",
            "not-ready NoSchedule not tolerated, '', '', false, a, node.kubernetes.io/not-ready, NoSchedule, UNTOLERATED_NO_SCHEDULE",
            "cordoned node tolerated, '', '', false, a, node.kubernetes.io/unschedulable, NoSchedule, FITS",
            "disk pressure tolerated, '', '', false, a, node.kubernetes.io/disk-pressure, NoSchedule, FITS",
            "memory pressure tolerated, '', '', false, a, node.kubernetes.io/memory-pressure, NoSchedule, FITS",
            "pid pressure tolerated, '', '', false, a, node.kubernetes.io/pid-pressure, NoSchedule, FITS",
            "network unavailable without hostNetwork, '', '', false, a, node.kubernetes.io/network-unavailable, NoSchedule, UNTOLERATED_NO_SCHEDULE",
            "network unavailable with hostNetwork, '', '', true, a, node.kubernetes.io/network-unavailable, NoSchedule, FITS",
            "selector wins over taint, '', b, false, a, dedicated, NoExecute, SELECTOR_OR_AFFINITY",
    })
    void fit(String name, String nodeName, String zone, boolean hostNetwork, String nodeZone, String taintKey, String effect, Fit expected) {
        PodSpecBuilder b = new PodSpecBuilder().withHostNetwork(hostNetwork);
        if (!nodeName.isEmpty()) {
            b.withNodeName(nodeName);
        }
        if (!zone.isEmpty()) {
            b.withNodeSelector(Map.of("zone", zone));
        }
        Node n = taintKey.isEmpty() ? node("n1", Map.of("zone", nodeZone)) : node("n1", Map.of("zone", nodeZone), taint(taintKey, effect));
        Fit fit = DaemonPlacement.fit(b.build(), n);
        assertEquals(expected, fit);
    }

    @Test
    void fitFlagsFollowUpstreamTable() {
        assertTrue(Fit.FITS.shouldRun() && Fit.FITS.shouldContinueRunning());
        assertTrue(!Fit.UNTOLERATED_NO_SCHEDULE.shouldRun() && Fit.UNTOLERATED_NO_SCHEDULE.shouldContinueRunning());
        for (Fit f : List.of(Fit.OTHER_NODE_NAME, Fit.SELECTOR_OR_AFFINITY, Fit.UNTOLERATED_NO_EXECUTE)) {
            assertFalse(f.shouldRun() || f.shouldContinueRunning(), f.name());
        }
    }

    @Test
    void requiredAffinityAndOwnTolerationJudged() {
        PodSpec spec = new PodSpecBuilder().withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm().addToMatchExpressions(new NodeSelectorRequirement("pool", "In", List.of("gpu"))).endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity()
                .withTolerations(new TolerationBuilder().withKey("dedicated").withOperator("Exists").build()).build();
        DaemonPlacement p = DaemonPlacement.of(spec);
        assertEquals(Fit.FITS, p.fit(node("g", Map.of("pool", "gpu"), taint("dedicated", "NoExecute"))));
        assertEquals(Fit.SELECTOR_OR_AFFINITY, p.fit(node("c", Map.of("pool", "cpu"))));
        assertEquals(1, spec.getTolerations().size(), "template untouched");
        assertEquals(7, p.tolerations().size());
    }
}
