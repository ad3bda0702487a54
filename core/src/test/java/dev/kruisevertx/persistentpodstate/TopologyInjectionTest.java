package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.kruisevertx.persistentpodstate.PpsFixtures.HOST;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.ZONE;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.pps;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.state;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The injection table (OpenKruise v1.9.0's createNodeAffinity and persistentPodStateMutatingPod cases as facts): the
 * expected nodeSelector and the preferred terms written as "weight:key=value&key=value".
 */
class TopologyInjectionTest {
    static final Map<String, String> RECORDED = Map.of(ZONE, "zone-a", HOST, "node-1", "rack", "r1");

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("required zone, preferred host", pps("p", List.of(ZONE), List.of(HOST), null, null),
                        state("node-1", RECORDED, null), Map.of(ZONE, "zone-a"), List.of("100:" + HOST + "=node-1")),
                Arguments.of("required only", pps("p", List.of(ZONE), null, null, null),
                        state("node-1", RECORDED, null), Map.of(ZONE, "zone-a"), List.of()),
                Arguments.of("preferred only", pps("p", null, List.of(HOST), null, null),
                        state("node-1", RECORDED, null), Map.of(), List.of("100:" + HOST + "=node-1")),
                Arguments.of("two required keys", pps("p", List.of(ZONE, "rack"), null, null, null),
                        state("node-1", RECORDED, null), Map.of(ZONE, "zone-a", "rack", "r1"), List.of()),
                Arguments.of("required key not recorded is left out", pps("p", List.of(ZONE, "region"), null, null, null),
                        state("node-1", RECORDED, null), Map.of(ZONE, "zone-a"), List.of()),
                Arguments.of("no required key recorded, preferred still injected",
                        pps("p", List.of("region"), List.of(HOST), null, null),
                        state("node-1", RECORDED, null), Map.of(), List.of("100:" + HOST + "=node-1")),
                Arguments.of("nothing recorded: no injection", pps("p", List.of(ZONE), List.of(HOST), null, null),
                        state("node-1", Map.of(), null), null, null),
                Arguments.of("no state: no injection", pps("p", List.of(ZONE), List.of(HOST), null, null),
                        null, null, null),
                Arguments.of("recorded labels none asked for: no injection", pps("p", List.of("region"), null, null, null),
                        state("node-1", RECORDED, null), null, null),
                Arguments.of("preferred term with two keys", pps("p", null, List.of(ZONE, HOST), null, null),
                        state("node-1", RECORDED, null), Map.of(),
                        List.of("100:" + ZONE + "=zone-a&" + HOST + "=node-1")),
                Arguments.of("preferred term with one key missing keeps the other", pps("p", null,
                        List.of("region", HOST), null, null), state("node-1", RECORDED, null), Map.of(),
                        List.of("100:" + HOST + "=node-1")),
                Arguments.of("preferred term none of whose keys was recorded is left out",
                        pps("p", List.of(ZONE), List.of("region"), null, null), state("node-1", RECORDED, null),
                        Map.of(ZONE, "zone-a"), List.of()),
                Arguments.of("same key required and preferred", pps("p", List.of(ZONE), List.of(ZONE), null, null),
                        state("node-1", RECORDED, null), Map.of(ZONE, "zone-a"), List.of("100:" + ZONE + "=zone-a")),
                Arguments.of("annotations recorded do not inject", pps("p", null, List.of(HOST), List.of("ip"), null),
                        state("node-1", RECORDED, Map.of("ip", "10.0.0.1")), Map.of(),
                        List.of("100:" + HOST + "=node-1")),
                Arguments.of("empty required term", pps("p", List.of(), List.of(HOST), null, null),
                        state("node-1", RECORDED, null), Map.of(), List.of("100:" + HOST + "=node-1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void injection(String name, PersistentPodState pps, PodState state, Map<String, String> selector,
                   List<String> preferred) {
        var injection = TopologyInjection.decide(pps.spec(), state);
        if (selector == null) {
            assertEquals(java.util.Optional.empty(), injection);
            return;
        }
        assertEquals(selector, injection.orElseThrow().nodeSelector());
        assertEquals(preferred, shown(injection.orElseThrow().preferred()));
    }

    @Test
    void weightsOfSeveralTermsKeepTheirOrder() {
        PersistentPodState pps = pps("p", null, null, null, null);
        pps.getSpec().setPreferredPersistentTopology(List.of(
                new PreferredTopologyTerm(30, new NodeTopologyTerm(List.of(HOST))),
                new PreferredTopologyTerm(70, new NodeTopologyTerm(List.of(ZONE)))));
        assertEquals(List.of("30:" + HOST + "=node-1", "70:" + ZONE + "=zone-a"),
                shown(TopologyInjection.decide(pps.spec(), state("n", RECORDED, null)).orElseThrow().preferred()));
    }

    @Test
    void applyMergesOverThePodsOwnSelectorAndAppendsAfterItsOwnTerms() {
        Pod pod = new PodBuilder().withNewMetadata().withName("web-0").addToAnnotations("a", "b").endMetadata()
                .withNewSpec().addToNodeSelector(ZONE, "zone-z").addToNodeSelector("disk", "ssd")
                .withNewAffinity().withNewNodeAffinity().addNewPreferredDuringSchedulingIgnoredDuringExecution()
                .withWeight(5).withNewPreference().addNewMatchExpression().withKey("gpu").withOperator("Exists")
                .endMatchExpression().endPreference().endPreferredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity().endAffinity().endSpec().build();
        var injection = TopologyInjection.decide(pps("p", List.of(ZONE), List.of(HOST), null, null).spec(),
                state("node-1", RECORDED, null)).orElseThrow();
        TopologyInjection.apply(pod, "web", injection);
        assertEquals(Map.of(ZONE, "zone-a", "disk", "ssd"), pod.getSpec().getNodeSelector());
        assertEquals(List.of("5:gpu", "100:" + HOST + "=node-1"),
                shown(pod.getSpec().getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()));
        assertEquals(Map.of("a", "b", PersistentPodState.INJECTED_ANNOTATION, "web"),
                pod.getMetadata().getAnnotations());
    }

    @Test
    void applyOnABarePodCreatesWhatItNeeds() {
        Pod pod = new PodBuilder().withNewMetadata().withName("web-1").endMetadata().withNewSpec().endSpec().build();
        var injection = TopologyInjection.decide(pps("p", null, List.of(HOST), null, null).spec(),
                state("node-1", RECORDED, null)).orElseThrow();
        TopologyInjection.apply(pod, "web", injection);
        assertEquals(Map.of(), pod.getSpec().getNodeSelector() == null ? Map.of() : pod.getSpec().getNodeSelector());
        assertEquals(List.of("100:" + HOST + "=node-1"),
                shown(pod.getSpec().getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()));
    }

    static List<String> shown(List<PreferredSchedulingTerm> terms) {
        List<String> out = new ArrayList<>();
        for (PreferredSchedulingTerm t : terms) {
            List<String> exprs = new ArrayList<>();
            for (NodeSelectorRequirement r : t.getPreference().getMatchExpressions()) {
                exprs.add(r.getValues() == null || r.getValues().isEmpty() ? r.getKey()
                        : r.getKey() + "=" + String.join(",", r.getValues()) + ("In".equals(r.getOperator()) ? "" : "?"));
            }
            out.add(t.getWeight() + ":" + String.join("&", exprs));
        }
        return out;
    }

    static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
