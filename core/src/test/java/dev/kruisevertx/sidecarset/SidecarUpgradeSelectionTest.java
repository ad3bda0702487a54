package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Next pods to upgrade in place (OpenKruise v1.9's sidecarset_strategy cases and more) as a table. */
class SidecarUpgradeSelectionTest {
    static SidecarSet set(String strategy) {
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'log',"
                + "'annotations':{'kruise.io/sidecarset-hash':'new','kruise.io/sidecarset-hash-without-image':'w'}},"
                + "'spec':{'selector':{'matchLabels':{'app':'web'}},'containers':[{'name':'log','image':'log:2'}],"
                + "'updateStrategy':" + strategy + "}}").replace('\'', '"');
        return ApiJson.serialization().unmarshal(json, SidecarSet.class);
    }

    /** A pod: hash "new" or "old", hash-without-image, ready or not, scheduled, phase, extra labels. */
    static Pod pod(String name, String hash, String withoutImage, boolean ready, boolean scheduled, String phase,
                   Map<String, String> labels, String runningImage) {
        Map<String, String> l = new HashMap<>(labels);
        l.put("app", "web");
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withLabels(l)
                .addToAnnotations("kruise.io/sidecarset-hash", "{\"log\":{\"hash\":\"" + hash + "\",\"sidecarSetName\":\"log\"}}")
                .addToAnnotations("kruise.io/sidecarset-hash-without-image", "{\"log\":{\"hash\":\"" + withoutImage + "\"}}")
                .endMetadata().withNewSpec().withNodeName(scheduled ? "n1" : null)
                .addNewContainer().withName("log").withImage(hash.equals("new") ? "log:2" : "log:1").endContainer()
                .addNewContainer().withName("app").withImage("app:1").endContainer().endSpec()
                .withNewStatus().withPhase(phase).addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
                .endCondition()
                .addNewContainerStatus().withName("log").withReady(ready).withImage(runningImage == null
                        ? (hash.equals("new") ? "log:2" : "log:1") : runningImage).endContainerStatus()
                .addNewContainerStatus().withName("app").withReady(ready).withImage("app:1").endContainerStatus()
                .endStatus().build();
    }

    static Pod old(String name) {
        return pod(name, "old", "w", true, true, "Running", Map.of(), null);
    }

    static Pod updated(String name) {
        return pod(name, "new", "w", true, true, "Running", Map.of(), null);
    }

    static Pod oldNotReady(String name) {
        return pod(name, "old", "w", false, true, "Running", Map.of(), null);
    }

    static Pod updatedNotReady(String name) {
        return pod(name, "new", "w", false, true, "Running", Map.of(), null);
    }

    static Pod labelled(String name, String key, String value) {
        return pod(name, "old", "w", true, true, "Running", Map.of(key, value), null);
    }

    static Arguments c(String name, String strategy, List<Pod> pods, List<String> expected) {
        return Arguments.of(name, strategy, pods, expected);
    }

    static List<Pod> olds(int n) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(old("p" + i));
        }
        return out;
    }

    static Stream<Arguments> cases() {
        String rolling = "{'type':'RollingUpdate'}";
        return Stream.of(
                c("default maxUnavailable is 1", rolling, olds(3), List.of("p0")),
                c("maxUnavailable 2", "{'type':'RollingUpdate','maxUnavailable':2}", olds(3), List.of("p0", "p1")),
                c("maxUnavailable 50% of 4 rounds up", "{'type':'RollingUpdate','maxUnavailable':'50%'}", olds(4), List.of("p0", "p1")),
                c("maxUnavailable 30% of 4 rounds up to 2", "{'type':'RollingUpdate','maxUnavailable':'30%'}", olds(4), List.of("p0", "p1")),
                c("maxUnavailable 100%", "{'type':'RollingUpdate','maxUnavailable':'100%'}", olds(3), List.of("p0", "p1", "p2")),
                c("maxUnavailable 0 upgrades only unready pods", "{'type':'RollingUpdate','maxUnavailable':0}",
                        List.of(old("a"), oldNotReady("b")), List.of("b")),
                c("an updated unready pod uses the budget", rolling, List.of(updatedNotReady("u"), old("a"), old("b")), List.of()),
                c("an updated ready pod does not", rolling, List.of(updated("u"), old("a"), old("b")), List.of("a")),
                c("an old unready pod goes first and is free", rolling, List.of(old("a"), oldNotReady("b"), old("c")),
                        List.of("b", "a")),
                c("unscheduled before scheduled", rolling, List.of(old("a"), pod("b", "old", "w", false, false,
                        "Pending", Map.of(), null)), List.of("b", "a")),
                c("partition keeps pods back", "{'type':'RollingUpdate','partition':2,'maxUnavailable':10}", olds(5),
                        List.of("p0", "p1", "p2")),
                c("partition 40% of 5 rounds up to 2", "{'type':'RollingUpdate','partition':'40%','maxUnavailable':10}",
                        olds(5), List.of("p0", "p1", "p2")),
                c("partition counts updated pods as done", "{'type':'RollingUpdate','partition':2,'maxUnavailable':10}",
                        List.of(updated("u1"), updated("u2"), old("a"), old("b")), List.of()),
                c("partition equal to all pods", "{'type':'RollingUpdate','partition':3}", olds(3), List.of()),
                c("paused", "{'type':'RollingUpdate','paused':true}", olds(3), List.of()),
                c("NotUpdate", "{'type':'NotUpdate'}", olds(3), List.of()),
                c("selector limits the upgrade", "{'type':'RollingUpdate','maxUnavailable':10,'selector':{'matchLabels':"
                        + "{'canary':'true'}}}", List.of(old("a"), labelled("b", "canary", "true"), old("c")), List.of("b")),
                c("a pod whose other sidecar fields changed is not upgradable", "{'type':'RollingUpdate','maxUnavailable':10}",
                        List.of(pod("a", "old", "other", true, true, "Running", Map.of(), null), old("b")), List.of("b")),
                c("a sidecar still being upgraded is not taken", "{'type':'RollingUpdate','maxUnavailable':10}",
                        List.of(pod("a", "old", "w", true, true, "Running", Map.of(), "log:0"), old("b")), List.of("b")),
                c("an updated pod still restarting counts as unavailable", rolling,
                        List.of(pod("u", "new", "w", true, true, "Running", Map.of(), "log:1"), old("a")), List.of()),
                c("all updated", rolling, List.of(updated("a"), updated("b")), List.of()),
                c("priority by weight", "{'type':'RollingUpdate','priorityStrategy':{'weightPriority':[{'weight':50,"
                        + "'matchSelector':{'matchLabels':{'tier':'low'}}}]}}",
                        List.of(old("a"), labelled("b", "tier", "low")), List.of("b")),
                c("priority by order key", "{'type':'RollingUpdate','maxUnavailable':2,'priorityStrategy':{'orderPriority':"
                        + "[{'orderedKey':'rank'}]}}", List.of(labelled("a", "rank", "1"), labelled("b", "rank", "9"),
                        labelled("c", "rank", "5")), List.of("b", "c")),
                c("scatter spreads a zone over the order", "{'type':'RollingUpdate','maxUnavailable':2,'scatterStrategy':"
                        + "[{'key':'zone','value':'a'}]}", List.of(labelled("a1", "zone", "a"), labelled("a2", "zone", "a"),
                        labelled("b1", "zone", "b"), labelled("b2", "zone", "b")), List.of("a1", "b1")),
                c("no pods", rolling, List.of(), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void nextPods(String name, String strategy, List<Pod> pods, List<String> expected) {
        SidecarUpgradeSelection.Plan plan = SidecarUpgradeSelection.next(set(strategy.replace('\'', '"')), pods);
        assertEquals(expected, plan.upgrade().stream().map(p -> p.getMetadata().getName()).toList(), plan.debugSummary());
    }

    @org.junit.jupiter.api.Test
    void scatterValueStarStandsForEveryValue() {
        List<Pod> pods = List.of(labelled("a", "zone", "x"), labelled("b", "zone", "y"), labelled("c", "zone", "x"));
        var term = new dev.kruisevertx.api.common.UpdateScatterTerm();
        term.setKey("zone");
        term.setValue("*");
        assertEquals(List.of("zone=x", "zone=y"), SidecarUpgradeSelection.expandScatter(List.of(term), pods).stream()
                .map(t -> t.getKey() + "=" + t.getValue()).toList());
        assertTrue(SidecarUpgradeSelection.next(set("{\"type\":\"RollingUpdate\"}"), pods).debugSummary()
                .startsWith("upgrade=1 [a]"));
    }
}
