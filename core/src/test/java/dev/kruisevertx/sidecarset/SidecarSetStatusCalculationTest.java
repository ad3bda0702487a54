package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.kruisevertx.sidecarset.SidecarUpgradeSelectionTest.old;
import static dev.kruisevertx.sidecarset.SidecarUpgradeSelectionTest.oldNotReady;
import static dev.kruisevertx.sidecarset.SidecarUpgradeSelectionTest.pod;
import static dev.kruisevertx.sidecarset.SidecarUpgradeSelectionTest.updated;
import static dev.kruisevertx.sidecarset.SidecarUpgradeSelectionTest.updatedNotReady;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** SidecarSet status from the matched pods, and the namespace index that selects candidate SidecarSets. */
class SidecarSetStatusCalculationTest {
    static SidecarSet set(String extra) {
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'log','generation':7,"
                + "'annotations':{'kruise.io/sidecarset-hash':'new','kruise.io/sidecarset-hash-without-image':'w'}},"
                + "'spec':{'selector':{'matchLabels':{'app':'web'}}" + extra + "}}").replace('\'', '"');
        return ApiJson.serialization().unmarshal(json, SidecarSet.class);
    }

    static String counts(SidecarSetStatus s) {
        return s.getMatchedPods() + "/" + s.getUpdatedPods() + "/" + s.getReadyPods() + "/" + s.getUpdatedReadyPods();
    }

    @Test
    void countsAsOpenKruise() {
        SidecarSet set = set(",'containers':[{'name':'log','image':'log:2'}]");
        assertEquals("0/0/0/0", counts(SidecarSetStatusCalculation.of(set, List.of(), "log-1", 0)));
        assertEquals("4/2/2/1", counts(SidecarSetStatusCalculation.of(set, List.of(updated("a"), updatedNotReady("b"),
                old("c"), oldNotReady("d")), "log-1", 0)));
        // A ready pod whose sidecar still runs the old image (upgrade under way) is not counted as ready.
        assertEquals("1/1/0/0", counts(SidecarSetStatusCalculation.of(set, List.of(pod("a", "new", "w", true, true,
                "Running", Map.of(), "log:1")), "log-1", 0)));
        SidecarSetStatus s = SidecarSetStatusCalculation.of(set, List.of(updated("a")), "log-abc", 2);
        assertEquals(7L, s.getObservedGeneration());
        assertEquals("log-abc", s.getLatestRevision());
        assertEquals(2, s.getCollisionCount());
    }

    @Test
    void hotUpgradeIdleContainerMustRunTheEmptyImage() {
        SidecarSet set = set(",'containers':[{'name':'envoy','image':'envoy:2','upgradeStrategy':{'upgradeType':"
                + "'HotUpgrade','hotUpgradeEmptyImage':'empty:1'}}]");
        Pod ok = hot("ok", "empty:1");
        Pod notYet = hot("busy", "envoy:1");
        assertEquals("2/2/1/1", counts(SidecarSetStatusCalculation.of(set, List.of(ok, notYet), "r", 0)));
        // Without container statuses the state cannot be known to be consistent: not ready (OpenKruise's rule).
        Pod noStatuses = new PodBuilder(ok).editStatus().withContainerStatuses().endStatus().build();
        assertEquals("1/1/0/0", counts(SidecarSetStatusCalculation.of(set, List.of(noStatuses), "r", 0)));
    }

    static Pod hot(String name, String idleImage) {
        return new PodBuilder().withNewMetadata().withName(name).withLabels(Map.of("app", "web"))
                .addToAnnotations("kruise.io/sidecarset-hash", "{\"log\":{\"hash\":\"new\"}}")
                .addToAnnotations(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION, "{\"envoy\":\"envoy-1\"}")
                .endMetadata().withNewSpec().withNodeName("n")
                .addNewContainer().withName("envoy-1").withImage("envoy:2").endContainer()
                .addNewContainer().withName("envoy-2").withImage(idleImage).endContainer().endSpec()
                // As OpenKruise, a pod counts as ready only with a status for each of its containers.
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addNewContainerStatus().withName("envoy-1").withImage("envoy:2").withReady(true).endContainerStatus()
                .addNewContainerStatus().withName("envoy-2").withImage(idleImage).withReady(true).endContainerStatus()
                .endStatus().build();
    }

    @Test
    void namespaceIndexAsOpenKruise() {
        assertEquals(List.of("clusterScope"), SidecarSetNamespaceIndex.keys(set("")));
        assertEquals(List.of("ns1"), SidecarSetNamespaceIndex.keys(set(",'namespaceSelector':{'matchLabels':"
                + "{'kubernetes.io/metadata.name':'ns1'}}")));
        assertEquals(List.of("a", "b"), SidecarSetNamespaceIndex.keys(set(",'namespaceSelector':{'matchExpressions':"
                + "[{'key':'kubernetes.io/metadata.name','operator':'In','values':['a','b']}]}")));
        assertEquals(List.of("clusterScope"), SidecarSetNamespaceIndex.keys(set(",'namespaceSelector':{'matchLabels':"
                + "{'team':'x'}}")));
        assertEquals(List.of("clusterScope"), SidecarSetNamespaceIndex.keys(set(",'namespaceSelector':{'matchExpressions':"
                + "[{'key':'kubernetes.io/metadata.name','operator':'NotIn','values':['a']}]}")));
        assertEquals(List.of("default", "clusterScope"), SidecarSetNamespaceIndex.lookups(""));
    }
}
