package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Subset workloads are named, labelled, placed and patched as OpenKruise v1.9.0's adapters make them. */
class SubsetWorkloadsTest {
    static final String POD = "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{"
            + "\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":["
            + "{\"matchExpressions\":[{\"key\":\"pool\",\"operator\":\"In\",\"values\":[\"x\"]}]},"
            + "{\"matchExpressions\":[{\"key\":\"pool\",\"operator\":\"In\",\"values\":[\"y\"]}]}]}}},"
            + "\"tolerations\":[{\"key\":\"base\",\"operator\":\"Exists\"}],"
            + "\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1\",\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}]}}";

    static UnitedDeployment ud(String templateKind, String workloadSpec) {
        String json = "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"UnitedDeployment\","
                + "\"metadata\":{\"name\":\"web\",\"namespace\":\"prod\",\"uid\":\"ud-uid\"},"
                + "\"spec\":{\"replicas\":6,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
                + "\"template\":{\"" + templateKind + "\":{\"metadata\":{\"labels\":{\"app\":\"web\",\"tier\":\"front\"},"
                + "\"annotations\":{\"note\":\"n\"}},\"spec\":" + workloadSpec + "}},"
                + "\"topology\":{\"subsets\":["
                + "{\"name\":\"zone-a\",\"nodeSelectorTerm\":{\"matchExpressions\":[{\"key\":\"topology.kubernetes.io/zone\","
                + "\"operator\":\"In\",\"values\":[\"a\"]}]},\"tolerations\":[{\"key\":\"zone\",\"operator\":\"Equal\","
                + "\"value\":\"a\",\"effect\":\"NoSchedule\"}],"
                + "\"patch\":{\"metadata\":{\"labels\":{\"zone\":\"a\"}},\"spec\":{\"containers\":[{\"name\":\"main\","
                + "\"env\":[{\"name\":\"ZONE\",\"value\":\"a\"}]}]}}},"
                + "{\"name\":\"zone-b\"}]}}}";
        return ApiJson.serialization().unmarshal(json, UnitedDeployment.class);
    }

    @Test
    void cloneSetSubsetIsNamedLabelledPlacedAndPatched() {
        UnitedDeployment ud = ud("cloneSetTemplate", "{\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
                + "\"updateStrategy\":{\"maxUnavailable\":1},\"template\":" + POD + "}");
        ObjectNode w = SubsetWorkloads.build(ud, "zone-a", "web-5d8f", 4, 1);
        assertEquals("apps.kruise.io/v1alpha1", w.path("apiVersion").asText());
        assertEquals("CloneSet", w.path("kind").asText());
        JsonNode meta = w.path("metadata");
        assertEquals("web-zone-a-", meta.path("generateName").asText());
        assertEquals("prod", meta.path("namespace").asText());
        assertEquals("front", meta.path("labels").path("tier").asText());
        assertEquals("web-5d8f", meta.path("labels").path(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL).asText());
        assertEquals("zone-a", meta.path("labels").path("apps.kruise.io/subset-name").asText());
        assertEquals("n", meta.path("annotations").path("note").asText());
        assertEquals("{\"metadata\":{\"labels\":{\"zone\":\"a\"}},\"spec\":{\"containers\":[{\"name\":\"main\","
                + "\"env\":[{\"name\":\"ZONE\",\"value\":\"a\"}]}]}}",
                meta.path("annotations").path("apps.kruise.io/subset-patch").asText());
        JsonNode owner = meta.path("ownerReferences").get(0);
        assertEquals("UnitedDeployment", owner.path("kind").asText());
        assertEquals("ud-uid", owner.path("uid").asText());
        assertTrue(owner.path("controller").asBoolean());

        CloneSet set = ApiJson.serialization().convertValue(w, CloneSet.class);
        assertEquals(4, set.getSpec().getReplicas());
        assertEquals(1, set.getSpec().getUpdateStrategy().getPartition().getIntVal());
        assertEquals(1, set.getSpec().getUpdateStrategy().getMaxUnavailable().getIntVal(), "template fields kept");
        assertEquals("zone-a", set.getSpec().getSelector().getMatchLabels().get("apps.kruise.io/subset-name"));
        assertEquals("web", set.getSpec().getSelector().getMatchLabels().get("app"));
        var podMeta = set.getSpec().getTemplate().getMetadata();
        assertEquals("zone-a", podMeta.getLabels().get("apps.kruise.io/subset-name"));
        assertEquals("web-5d8f", podMeta.getLabels().get(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL));
        assertEquals("a", podMeta.getLabels().get("zone"), "patch applied");
        var podSpec = set.getSpec().getTemplate().getSpec();
        var terms = podSpec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms();
        assertEquals(2, terms.size());
        for (var term : terms) {
            assertEquals(2, term.getMatchExpressions().size(), "the zone is added to every term");
            assertEquals("topology.kubernetes.io/zone", term.getMatchExpressions().get(1).getKey());
        }
        assertEquals(2, podSpec.getTolerations().size());
        assertEquals("zone", podSpec.getTolerations().get(1).getKey());
        var env = podSpec.getContainers().get(0).getEnv();
        assertEquals(2, env.size(), "env merged by name, as a strategic merge patch does");
        assertEquals("nginx:1", podSpec.getContainers().get(0).getImage(), "the patch keeps what it does not name");
    }

    @Test
    void aSubsetWithoutPlacementOrPatchGetsTheTemplateAndAnEmptyPatchAnnotation() {
        UnitedDeployment ud = ud("cloneSetTemplate", "{\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
                + "[{\"name\":\"main\",\"image\":\"nginx:1\"}]}}}");
        ObjectNode w = SubsetWorkloads.build(ud, "zone-b", "r1", 2, 0);
        assertEquals("", w.path("metadata").path("annotations").path("apps.kruise.io/subset-patch").asText("missing"));
        assertTrue(w.path("spec").path("template").path("spec").path("affinity").isMissingNode());
        assertTrue(w.path("spec").path("template").path("spec").path("tolerations").isMissingNode());
    }

    @Test
    void statefulSetPartitionGoesToRollingUpdateAndTheTypeIsSet() {
        UnitedDeployment ud = ud("statefulSetTemplate", "{\"serviceName\":\"web\",\"template\":" + POD + "}");
        ObjectNode w = SubsetWorkloads.build(ud, "zone-b", "r1", 3, 2);
        assertEquals("apps/v1", w.path("apiVersion").asText());
        StatefulSet set = ApiJson.serialization().convertValue(w, StatefulSet.class);
        assertEquals("RollingUpdate", set.getSpec().getUpdateStrategy().getType());
        assertEquals(2, set.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
        assertEquals(3, set.getSpec().getReplicas());
        assertEquals("web", set.getSpec().getServiceName());
    }

    @Test
    void onDeleteStatefulSetGetsNoPartition() {
        UnitedDeployment ud = ud("statefulSetTemplate", "{\"updateStrategy\":{\"type\":\"OnDelete\"},\"template\":"
                + POD + "}");
        ObjectNode w = SubsetWorkloads.build(ud, "zone-b", "r1", 3, 2);
        assertTrue(w.path("spec").path("updateStrategy").path("rollingUpdate").isMissingNode());
    }

    @Test
    void advancedStatefulSetAndDeploymentSubsets() {
        ObjectNode asts = SubsetWorkloads.build(ud("advancedStatefulSetTemplate",
                "{\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":" + POD + "}"), "zone-b", "r1", 3, 1);
        assertEquals("apps.kruise.io/v1beta1", asts.path("apiVersion").asText());
        assertEquals("StatefulSet", asts.path("kind").asText());
        assertEquals(1, asts.path("spec").path("updateStrategy").path("rollingUpdate").path("partition").asInt());
        assertTrue(asts.path("spec").path("updateStrategy").path("type").isMissingNode(),
                "OpenKruise sets the type only for apps/v1 StatefulSets");

        ObjectNode deploy = SubsetWorkloads.build(ud("deploymentTemplate", "{\"template\":" + POD + "}"),
                "zone-a", "r1", 5, 3);
        Deployment d = ApiJson.serialization().convertValue(deploy, Deployment.class);
        assertEquals(5, d.getSpec().getReplicas());
        assertTrue(deploy.path("spec").path("updateStrategy").isMissingNode(), "a Deployment has no partition");
        assertEquals("zone-a", d.getSpec().getSelector().getMatchLabels().get("apps.kruise.io/subset-name"));
    }

    @Test
    void prefixFallsBackToTheUnitedDeploymentNameWhenTooLong() {
        assertEquals("web-zone-a-", SubsetWorkloads.prefix("web", "zone-a"));
        String longName = "a".repeat(200);
        assertEquals(longName + "-", SubsetWorkloads.prefix(longName, "b".repeat(60)));
    }

    @Test
    void kindFollowsOpenKruisesOrderAndMissingPiecesAreErrors() {
        UnitedDeployment ud = ud("deploymentTemplate", "{\"template\":" + POD + "}");
        assertEquals(SubsetWorkloads.Kind.DEPLOYMENT, SubsetWorkloads.kindOf(ud.spec().getTemplate()).orElseThrow());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SubsetWorkloads.build(ud, "zone-c", "r", 1, 0));
        assertEquals("fail to find subset config zone-c", e.getMessage());
        ud.getSpec().setTemplate(null);
        assertFalse(SubsetWorkloads.kindOf(ud.spec().getTemplate()).isPresent());
        assertThrows(IllegalArgumentException.class, () -> SubsetWorkloads.build(ud, "zone-a", "r", 1, 0));
    }
}
