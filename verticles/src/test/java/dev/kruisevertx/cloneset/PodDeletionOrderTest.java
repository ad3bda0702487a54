package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PodDeletionOrderTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** A running, ready, scheduled pod created at T0 and ready since T0; each case changes one thing. */
    static Pod base(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withCreationTimestamp(T0.toString()).endMetadata()
                .withNewSpec().withNodeName("node-" + name).endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                .withLastTransitionTime(T0.toString()).endCondition().addNewContainerStatus().withName("c")
                .withRestartCount(0).endContainerStatus().endStatus().build();
    }

    static Pod with(String name, UnaryOperator<PodBuilder> change) {
        return change.apply(new PodBuilder(base(name))).build();
    }

    record Case(String name, Pod first, Pod second) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> pairs() {
        return Stream.of(
                new Case("unassigned before assigned",
                        with("a", b -> b.editSpec().withNodeName(null).endSpec()), base("b")),
                new Case("pending before running",
                        with("a", b -> b.editStatus().withPhase("Pending").endStatus()), base("b")),
                new Case("pending before unknown",
                        with("a", b -> b.editStatus().withPhase("Pending").endStatus()),
                        with("b", b -> b.editStatus().withPhase("Unknown").endStatus())),
                new Case("unknown before running",
                        with("a", b -> b.editStatus().withPhase("Unknown").endStatus()), base("b")),
                new Case("not ready before ready",
                        with("a", b -> b.editStatus().editFirstCondition().withStatus("False").endCondition().endStatus()),
                        base("b")),
                new Case("not serving (lifecycle not Normal) before serving",
                        with("a", b -> b.editMetadata().addToLabels(WellKnown.LIFECYCLE_STATE_LABEL,
                                WellKnown.LIFECYCLE_STATE_PREPARING_UPDATE).endMetadata()), base("b")),
                new Case("lower deletion cost first",
                        with("a", b -> b.editMetadata().addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, "-5")
                                .endMetadata()),
                        base("b")),
                new Case("deletion cost 0 before 10",
                        base("a"), with("b", b -> b.editMetadata()
                                .addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, "10").endMetadata())),
                new Case("invalid deletion cost counts as 0",
                        with("a", b -> b.editMetadata().addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, "+100")
                                .endMetadata()),
                        with("b", b -> b.editMetadata().addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, "1")
                                .endMetadata())),
                new Case("ready for a shorter time first",
                        with("a", b -> b.editStatus().editFirstCondition()
                                .withLastTransitionTime(T0.plusSeconds(60).toString()).endCondition().endStatus()),
                        base("b")),
                new Case("more restarts first",
                        with("a", b -> b.editStatus().editFirstContainerStatus().withRestartCount(3)
                                .endContainerStatus().endStatus()), base("b")),
                new Case("newer first",
                        with("a", b -> b.editMetadata().withCreationTimestamp(T0.plusSeconds(5).toString()).endMetadata()),
                        base("b")),
                new Case("cost outranks ready time",
                        with("a", b -> b.editMetadata().addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, "-1")
                                .endMetadata()),
                        with("b", b -> b.editStatus().editFirstCondition()
                                .withLastTransitionTime(T0.plusSeconds(60).toString()).endCondition().endStatus())),
                new Case("readiness outranks cost",
                        with("a", b -> b.editStatus().editFirstCondition().withStatus("False").endCondition().endStatus()
                                .editMetadata().addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, "100").endMetadata()),
                        base("b")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void ranksPairs(Case tc) {
        PodDeletionOrder order = new PodDeletionOrder(null, p -> Pods.isServing(p, 0, T0.plusSeconds(3600)));
        assertEquals(-1, Integer.signum(order.compare(tc.first(), tc.second())), "first should go first");
        assertEquals(1, Integer.signum(order.compare(tc.second(), tc.first())), "and not the other way round");
    }

    @Test
    void crowdedNodeGoesFirstAfterCost() {
        // Three pods on node-x, one on node-y: two of the node-x pods are ranked above the lone pod.
        Pod x1 = with("x1", b -> b.editSpec().withNodeName("node-x").endSpec());
        Pod x2 = with("x2", b -> b.editSpec().withNodeName("node-x").endSpec()
                .editMetadata().withCreationTimestamp(T0.plusSeconds(1).toString()).endMetadata());
        Pod x3 = with("x3", b -> b.editSpec().withNodeName("node-x").endSpec()
                .editMetadata().withCreationTimestamp(T0.plusSeconds(2).toString()).endMetadata());
        Pod y = with("y", b -> b.editSpec().withNodeName("node-y").endSpec()
                .editMetadata().withCreationTimestamp(T0.plusSeconds(10).toString()).endMetadata());
        List<Pod> pods = List.of(x1, x2, x3, y);
        PodDeletionOrder order = PodDeletionOrder.forPods(pods, 0, T0.plusSeconds(3600));
        // Without ranks the newest (y) would go first; with them, the newest of node-x goes first.
        assertEquals(List.of("x3", "x2"), order.first(pods, 2).stream().map(p -> p.getMetadata().getName()).toList());
    }

    @Test
    void sortIsStableUnderShuffles() {
        List<Pod> pods = new ArrayList<>(pairs().flatMap(c -> Stream.of(c.first())).toList());
        PodDeletionOrder order = new PodDeletionOrder(null, p -> Pods.isServing(p, 0, T0.plusSeconds(3600)));
        List<Pod> expected = new ArrayList<>(pods);
        expected.sort(order);
        for (int seed = 0; seed < 20; seed++) {
            List<Pod> shuffled = new ArrayList<>(pods);
            Collections.shuffle(shuffled, new Random(seed));
            shuffled.sort(order);
            // Pods that compare equal may swap, so compare the rank sequence rather than identities.
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(0, order.compare(expected.get(i), shuffled.get(i)), "position " + i);
            }
        }
    }

    @Test
    void deletionCostParsing() {
        assertEquals(0, PodDeletionOrder.deletionCost(base("a")));
        for (String[] c : new String[][]{{"5", "5"}, {"-5", "-5"}, {"0", "0"}, {"007", "0"}, {"+3", "0"}, {"abc", "0"},
                {"99999999999", "0"}}) {
            Pod p = with("a", b -> b.editMetadata().addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, c[0]).endMetadata());
            assertEquals(Integer.parseInt(c[1]), PodDeletionOrder.deletionCost(p), c[0]);
        }
    }
}
