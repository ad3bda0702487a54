package dev.kruisevertx.webhook.uniteddeployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9.0's UnitedDeployment webhook cases (validation of create and update, the subset replica rules),
 * ported as a table of JSON specs, plus the defaults and this project's stricter checks.
 */
class UnitedDeploymentWebhooksTest {
    static final String POD = "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"restartPolicy\":\"Always\","
            + "\"dnsPolicy\":\"ClusterFirst\",\"containers\":[{\"name\":\"abc\",\"image\":\"image\","
            + "\"imagePullPolicy\":\"IfNotPresent\",\"terminationMessagePolicy\":\"File\"}]}}";

    /** A valid UnitedDeployment of the given template kind, with {@code overlay} merged into its spec. */
    static ObjectNode ud(String kind, String overlay) {
        String workload = "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{"
                + ("cloneSetTemplate".equals(kind) || "advancedStatefulSetTemplate".equals(kind)
                ? "\"selector\":{\"matchLabels\":{\"a\":\"b\"}}," : "")
                + "\"template\":" + POD + "}}";
        ObjectNode o = (ObjectNode) tree("{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"UnitedDeployment\","
                + "\"metadata\":{\"name\":\"abc\",\"namespace\":\"default\"},\"spec\":{\"replicas\":10,"
                + "\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"" + kind + "\":" + workload + "}}}");
        merge((ObjectNode) o.get("spec"), (ObjectNode) tree(overlay));
        return o;
    }

    static JsonNode tree(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    // JSON merge patch (RFC 7386): objects merge, null removes, anything else replaces.
    static void merge(ObjectNode target, ObjectNode patch) {
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                target.remove(e.getKey());
            } else if (e.getValue().isObject() && target.get(e.getKey()) instanceof ObjectNode t) {
                merge(t, (ObjectNode) e.getValue());
            } else {
                target.set(e.getKey(), e.getValue());
            }
        }
    }

    static AdmissionRequest request(String op, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "UnitedDeployment",
                "uniteddeployments", "", "abc", "default", op, object, old, false, null);
    }

    static AdmissionResponse create(ObjectNode o) {
        return UnitedDeploymentWebhooks.validating().handle(request("CREATE", o, null)).result();
    }

    static AdmissionResponse update(ObjectNode o, ObjectNode old) {
        return UnitedDeploymentWebhooks.validating().handle(request("UPDATE", o, old)).result();
    }

    static final String STS = "statefulSetTemplate";
    static final String DEPLOY = "deploymentTemplate";

    static Stream<Arguments> acceptedCases() {
        return Stream.of(
                // OpenKruise's success cases
                Arguments.of("replicas unset, all subsets fixed", STS, "{\"replicas\":null,\"topology\":{\"subsets\":"
                        + "[{\"name\":\"subset1\",\"replicas\":1},{\"name\":\"subset2\",\"replicas\":1}]}}"),
                Arguments.of("no topology", STS, "{}"),
                Arguments.of("one subset, not fixed", STS, "{\"topology\":{\"subsets\":[{\"name\":\"subset\"}]}}"),
                Arguments.of("one fixed, one takes the rest", STS, "{\"topology\":{\"subsets\":"
                        + "[{\"name\":\"subset1\",\"replicas\":1},{\"name\":\"subset2\"}]}}"),
                Arguments.of("1 and 90% of 10", STS, "{\"topology\":{\"subsets\":"
                        + "[{\"name\":\"subset1\",\"replicas\":1},{\"name\":\"subset2\",\"replicas\":\"90%\"}]}}"),
                Arguments.of("71% and 29% of 10", STS, "{\"topology\":{\"subsets\":"
                        + "[{\"name\":\"subset1\",\"replicas\":\"71%\"},{\"name\":\"subset2\",\"replicas\":\"29%\"}]}}"),
                Arguments.of("deployment template", DEPLOY, "{\"topology\":{\"subsets\":"
                        + "[{\"name\":\"subset1\",\"replicas\":\"71%\"},{\"name\":\"subset2\",\"replicas\":\"29%\"}]}}"),
                // OpenKruise's capacity cases that pass
                Arguments.of("sum_all_min_replicas == replicas", STS, capacities(10, "2,2,2,2,2", "5,5,5,5,-1")),
                Arguments.of("sum_all_min_replicas < replicas", STS, capacities(14, "2,2,2,2,2", "5,5,5,5,-1")),
                Arguments.of("sum_all_min_replicas > replicas", STS, capacities(5, "2,2,2,2,2", "5,5,5,5,-1")),
                // ours
                Arguments.of("cloneset template", "cloneSetTemplate", "{\"topology\":{\"subsets\":[{\"name\":\"a\","
                        + "\"nodeSelectorTerm\":{\"matchExpressions\":[{\"key\":\"topology.kubernetes.io/zone\","
                        + "\"operator\":\"In\",\"values\":[\"a\"]}]},\"tolerations\":[{\"key\":\"k\","
                        + "\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]}]}}"),
                Arguments.of("advanced statefulset template", "advancedStatefulSetTemplate", "{}"),
                Arguments.of("adaptive with capacities", DEPLOY, "{\"topology\":{\"scheduleStrategy\":{\"type\":"
                        + "\"Adaptive\",\"adaptive\":{\"reserveUnschedulablePods\":true}},\"subsets\":"
                        + "[{\"name\":\"a\",\"maxReplicas\":3},{\"name\":\"b\"}]}}"),
                Arguments.of("partition of a known subset", STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\"}]},"
                        + "\"updateStrategy\":{\"manualUpdate\":{\"partitions\":{\"a\":2}}}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedCases")
    void accepted(String name, String kind, String overlay) {
        AdmissionResponse r = create(ud(kind, overlay));
        assertTrue(r.allowed(), r.message());
    }

    static Stream<Arguments> refusedCases() {
        return Stream.of(
                // OpenKruise's error cases: the field and OpenKruise's message
                Arguments.of("no pod template label", STS, "{\"template\":{\"statefulSetTemplate\":{\"metadata\":null,"
                        + "\"spec\":{\"template\":{\"metadata\":null}}}}}",
                        "spec.template.statefulSetTemplate.metadata.labels: Invalid value: \"{}\": `selector` does not "
                                + "match template `labels`"),
                Arguments.of("deployment no pod template label", DEPLOY, "{\"template\":{\"deploymentTemplate\":"
                        + "{\"metadata\":null,\"spec\":{\"template\":{\"metadata\":null}}}}}",
                        "spec.template.deploymentTemplate.spec.template.metadata.labels: Invalid value: \"{}\": "
                                + "`selector` does not match template `labels`"),
                Arguments.of("no subset template", STS, "{\"template\":{\"statefulSetTemplate\":null}}",
                        "spec.template: Required value: should provide one of statefulSetTemplate, "
                                + "advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate"),
                Arguments.of("no subset name", STS, "{\"topology\":{\"subsets\":[{\"replicas\":10}]}}",
                        "spec.topology.subsets[0].name: Required value"),
                Arguments.of("invalid subset nodeSelectorTerm", STS, "{\"topology\":{\"subsets\":[{\"name\":\"subset\","
                        + "\"nodeSelectorTerm\":{\"matchExpressions\":[{\"key\":\"key\",\"operator\":\"Exists\","
                        + "\"values\":[\"unexpected\"]}]}}]}}",
                        "spec.topology.subsets[0].nodeSelectorTerm.matchExpressions[0].values: Forbidden: may not be "
                                + "specified when `operator` is 'Exists' or 'DoesNotExist'"),
                Arguments.of("subset replicas is not enough", STS, "{\"topology\":{\"subsets\":[{\"name\":\"subset1\","
                        + "\"replicas\":1}]}}", "spec.topology.subsets: Invalid value: 1: if replicas of all subsets "
                        + "are provided, the sum of indicated subset replicas 1 should equal UnitedDeployment replicas 10"),
                Arguments.of("subset replicas is too small", STS, "{\"topology\":{\"subsets\":[{\"name\":\"subset1\","
                        + "\"replicas\":1},{\"name\":\"subset2\",\"replicas\":\"71%\"}]}}",
                        "the sum of indicated subset replicas 8 should equal UnitedDeployment replicas 10"),
                Arguments.of("subset replicas is too much", STS, "{\"topology\":{\"subsets\":[{\"name\":\"subset1\","
                        + "\"replicas\":\"71%\"},{\"name\":\"subset2\",\"replicas\":\"90%\"}]}}",
                        "spec.topology.subsets: Invalid value: 16: sum of indicated subset replicas 16 should not be "
                                + "greater than UnitedDeployment replicas 10"),
                Arguments.of("deployment subset replicas is too much", DEPLOY, "{\"topology\":{\"subsets\":[{\"name\":"
                        + "\"subset1\",\"replicas\":\"71%\"},{\"name\":\"subset2\",\"replicas\":\"90%\"}]}}",
                        "sum of indicated subset replicas 16 should not be greater than UnitedDeployment replicas 10"),
                Arguments.of("subset replicas type is percent when spec replicas not set", STS, "{\"replicas\":null,"
                        + "\"topology\":{\"subsets\":[{\"name\":\"subset1\",\"replicas\":\"90%\"},{\"name\":\"subset2\","
                        + "\"replicas\":1}]}}", "spec.topology.subsets[0].replicas: Invalid value: \"90%\": "
                        + "subsetReplicas (90%) should not be string when unitedDeployment replicas is empty"),
                Arguments.of("partition not exist", STS, "{\"updateStrategy\":{\"manualUpdate\":{\"partitions\":"
                        + "{\"notExist\":1}}},\"topology\":{\"subsets\":[{\"name\":\"subset1\",\"replicas\":\"71%\"},"
                        + "{\"name\":\"subset2\",\"replicas\":\"29%\"}]}}",
                        "spec.updateStrategy.partitions: Invalid value: \"{notExist=1}\": subset notExist does not exist"),
                Arguments.of("duplicated templates", STS, "{\"template\":{\"advancedStatefulSetTemplate\":"
                        + "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
                        + "\"template\":" + POD + "}}}}", "spec.template: Invalid value: \"\": should provide only one "
                        + "of statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or deploymentTemplate"),
                Arguments.of("triple duplicated templates", STS, "{\"template\":{\"advancedStatefulSetTemplate\":"
                        + "{\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":" + POD + "}},"
                        + "\"deploymentTemplate\":{\"spec\":{\"template\":" + POD + "}}}}", "should provide only one of"),
                Arguments.of("deployment duplicated templates", DEPLOY, "{\"template\":{\"statefulSetTemplate\":"
                        + "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"template\":" + POD + "}}}}",
                        "should provide only one of"),
                Arguments.of("use specific allocator in adaptive mode", DEPLOY, "{\"topology\":{\"scheduleStrategy\":"
                        + "{\"type\":\"Adaptive\"},\"subsets\":[{\"name\":\"subset1\",\"replicas\":1},"
                        + "{\"name\":\"subset2\"}]}}", "spec.topology.subsets[0].replicas: Forbidden: specify replicas "
                        + "use minReplicas/maxReplicas to enable adaptive strategy"),
                Arguments.of("use stateful workloads with reserved rescheduling enabled", STS, "{\"topology\":"
                        + "{\"scheduleStrategy\":{\"type\":\"Adaptive\",\"adaptive\":{\"reserveUnschedulablePods\":true}},"
                        + "\"subsets\":[{\"name\":\"subset1\",\"replicas\":1},{\"name\":\"subset2\"}]}}",
                        "spec.topology.scheduleStrategy: Invalid value: \"Adaptive\": only stateless workloads "
                                + "(Deployment and CloneSet) are supported by reserved rescheduling"),
                Arguments.of("min_replicas > max_replicas", STS, capacities(5, "2,2,2,6,2", "5,5,5,5,-1"),
                        "spec.topology.subsets[3].minReplicas: Invalid value: \"6\": subset[3].minReplicas must be "
                                + "more than or equal to maxReplicas"),
                Arguments.of("all_max_replicas != nil", STS, capacities(5, "2,2,2,2,2", "5,5,5,5,5"),
                        "spec.topology.subsets: Invalid value: 5: at least one subset.maxReplicas must be empty"),
                // OpenKruise's other rules
                Arguments.of("negative replicas", STS, "{\"replicas\":-1}",
                        "spec.replicas: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("no selector", STS, "{\"selector\":null}", "spec.selector: Required value"),
                Arguments.of("empty selector", STS, "{\"selector\":{\"matchLabels\":null}}",
                        "empty selector is invalid for statefulset"),
                Arguments.of("replicas in statefulSetTemplate", STS, "{\"template\":{\"statefulSetTemplate\":{\"spec\":"
                        + "{\"replicas\":3}}}}", "spec.template.statefulSetTemplate.spec.replicas: Invalid value: 3: "
                        + "replicas in statefulSetTemplate will not be used"),
                Arguments.of("partition in statefulSetTemplate", STS, "{\"template\":{\"statefulSetTemplate\":{\"spec\":"
                        + "{\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":1}}}}}}",
                        "partition in statefulSetTemplate will not be used"),
                Arguments.of("replicas in deploymentTemplate", DEPLOY, "{\"template\":{\"deploymentTemplate\":{\"spec\":"
                        + "{\"replicas\":3}}}}", "replicas in deploymentTemplate will not be used"),
                Arguments.of("duplicated subset name", STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\"},"
                        + "{\"name\":\"a\"}]}}", "spec.topology.subsets[1].name: Invalid value: \"a\": duplicated "
                        + "subset name a"),
                Arguments.of("subset name not a DNS label", STS, "{\"topology\":{\"subsets\":[{\"name\":\"A_b\"}]}}",
                        "spec.topology.subsets[0].name: Invalid value: \"A_b\": invalid subset name"),
                Arguments.of("fixed and capacities mixed", STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\","
                        + "\"replicas\":5},{\"name\":\"b\",\"minReplicas\":1}]}}", "subset.Replicas and "
                        + "subset.MinReplicas/subset.MaxReplicas are mutually exclusive in a UnitedDeployment"),
                Arguments.of("capacities without replicas", STS, "{\"replicas\":null,\"topology\":{\"subsets\":"
                        + "[{\"name\":\"a\",\"minReplicas\":1},{\"name\":\"b\"}]}}",
                        "spec.replicas must be not empty if you set subset.minReplicas/maxReplicas"),
                Arguments.of("bad percentage", STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\",\"replicas\":\"x%\"},"
                        + "{\"name\":\"b\"}]}}", "spec.topology.subsets[0].replicas: Invalid value: \"x%\": subset "
                        + "replicas (x%) should be correct percentage integer: strconv.ParseInt: parsing \"x\": "
                        + "invalid syntax"),
                Arguments.of("toleration without key must be Exists", STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\","
                        + "\"tolerations\":[{\"operator\":\"Equal\",\"value\":\"v\"}]}]}}",
                        "spec.topology.subsets[0].tolerations[0].operator: Invalid value: \"Equal\": operator must be "
                                + "Exists when `key` is empty"),
                Arguments.of("toleration effect", STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\",\"tolerations\":"
                        + "[{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"Never\"}]}]}}",
                        "spec.topology.subsets[0].tolerations[0].effect: Unsupported value: \"Never\""),
                // ours: stricter than OpenKruise
                Arguments.of("cloneSetTemplate pod template without containers", "cloneSetTemplate",
                        "{\"template\":{\"cloneSetTemplate\":{\"spec\":{\"template\":{\"spec\":{\"containers\":null}}}}}}",
                        "spec.template.cloneSetTemplate.spec.template.spec.containers: Required value"),
                Arguments.of("negative partition", STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\"}]},"
                        + "\"updateStrategy\":{\"manualUpdate\":{\"partitions\":{\"a\":-1}}}}",
                        "spec.updateStrategy.manualUpdate.partitions[a]: Invalid value: -1"),
                Arguments.of("restartPolicy Never", DEPLOY, "{\"template\":{\"deploymentTemplate\":{\"spec\":"
                        + "{\"template\":{\"spec\":{\"restartPolicy\":\"Never\"}}}}}}",
                        "spec.template.deploymentTemplate.spec.template.spec.restartPolicy: Unsupported value: \"Never\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedCases")
    void refusedWithOpenKruisesMessage(String name, String kind, String overlay, String message) {
        AdmissionResponse r = create(ud(kind, overlay));
        assertFalse(r.allowed(), name);
        assertTrue(r.message().contains(message), r.message());
    }

    static String capacities(int replicas, String min, String max) {
        String[] lo = min.split(",");
        String[] hi = max.split(",");
        StringBuilder subsets = new StringBuilder();
        for (int i = 0; i < lo.length; i++) {
            subsets.append(i == 0 ? "" : ",").append("{\"name\":\"subset-").append(i).append("\",\"minReplicas\":")
                    .append(lo[i]).append("-1".equals(hi[i]) ? "" : ",\"maxReplicas\":" + hi[i]).append("}");
        }
        return "{\"replicas\":" + replicas + ",\"topology\":{\"subsets\":[" + subsets + "]}}";
    }

    // ---- updates (OpenKruise TestValidateUnitedDeploymentUpdate)

    static final String ZONES = "{\"topology\":{\"subsets\":[{\"name\":\"subset-a\",\"nodeSelectorTerm\":"
            + "{\"matchExpressions\":[{\"key\":\"domain\",\"operator\":\"In\",\"values\":[%s]}]}}]}}";

    @Test
    void changingASubsetsNodeSelectorTermIsForbidden() {
        ObjectNode old = ud(STS, ZONES.formatted("\"a\", \"b\""));
        ObjectNode now = ud(STS, ZONES.formatted("\"a\""));
        AdmissionResponse r = update(now, old);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec.topology.subsets[0].nodeSelectorTerm: Forbidden: may not be changed in "
                + "an update"), r.message());
        assertTrue(update(ud(STS, ZONES.formatted("\"a\"")), now).allowed(), "unchanged");
    }

    @Test
    void changingTolerationsIsForbiddenOnceAndAddingASubsetIsNot() {
        String one = "{\"topology\":{\"subsets\":[{\"name\":\"a\",\"tolerations\":[{\"key\":\"k\",\"operator\":"
                + "\"Exists\"}]}]}}";
        String changed = "{\"topology\":{\"subsets\":[{\"name\":\"a\",\"tolerations\":[{\"key\":\"j\",\"operator\":"
                + "\"Exists\"}]},{\"name\":\"b\",\"tolerations\":[{\"key\":\"x\",\"operator\":\"Exists\"}]}]}}";
        AdmissionResponse r = update(ud(STS, changed), ud(STS, one));
        assertFalse(r.allowed());
        assertEquals(1, r.message().split("tolerations: Forbidden", -1).length - 1, r.message());
        assertFalse(r.message().contains("subsets[1]"), r.message());
    }

    @Test
    void statefulSetTemplateSpecMayChangeOnlyTemplateAndUpdateStrategy() {
        ObjectNode old = ud(STS, "{}");
        ObjectNode now = ud(STS, "{\"template\":{\"statefulSetTemplate\":{\"spec\":{\"serviceName\":\"other\"}}}}");
        AdmissionResponse r = update(now, old);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec.template.statefulSetTemplate.spec: Forbidden: updates to "
                + "statefulsetTemplate spec for fields other than 'template', and 'updateStrategy' are forbidden"),
                r.message());
        ObjectNode image = ud(STS, "{\"template\":{\"statefulSetTemplate\":{\"spec\":{\"template\":{\"spec\":"
                + "{\"containers\":[{\"name\":\"abc\",\"image\":\"image:2\"}]}}}}}}");
        assertTrue(update(image, old).allowed(), "a template change is an update, not a forbidden change");
        ObjectNode asts = ud("advancedStatefulSetTemplate", "{\"template\":{\"advancedStatefulSetTemplate\":{\"spec\":"
                + "{\"podManagementPolicy\":\"Parallel\"}}}}");
        AdmissionResponse r2 = update(asts, ud("advancedStatefulSetTemplate", "{}"));
        assertTrue(r2.message().contains("updates to advancedStatefulsetTemplate spec for fields other than"),
                r2.message());
    }

    // ---- defaults (OpenKruise SetDefaultsUnitedDeployment)

    static ObjectNode mutated(ObjectNode o, ObjectNode old) {
        AdmissionResponse r = UnitedDeploymentWebhooks.mutating(false)
                .handle(request(old == null ? "CREATE" : "UPDATE", o, old)).result();
        assertTrue(r.allowed(), r.message());
        ObjectNode copy = o.deepCopy();
        if (r.hasPatch()) {
            copy = (ObjectNode) io.fabric8.zjsonpatch.JsonPatch.apply(r.patch(), copy);
        }
        return copy;
    }

    @Test
    void defaultsAsOpenKruise() throws Exception {
        ObjectNode out = mutated(ud(STS, "{\"topology\":{\"subsets\":[{\"name\":\"a\",\"maxReplicas\":2},"
                + "{\"name\":\"b\"}]}}"), null);
        JsonNode spec = out.get("spec");
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        assertEquals("Manual", spec.path("updateStrategy").path("type").asText());
        assertTrue(spec.path("updateStrategy").path("manualUpdate").isObject());
        assertEquals(0, spec.path("topology").path("subsets").get(0).path("minReplicas").asInt(-1));
        assertEquals(0, spec.path("topology").path("subsets").get(1).path("minReplicas").asInt(-1));
        assertEquals(10, spec.path("replicas").asInt(), "replicas is left as written");
        JsonNode container = spec.path("template").path("statefulSetTemplate").path("spec").path("template")
                .path("spec").path("containers").get(0);
        assertEquals("/dev/termination-log", container.path("terminationMessagePath").asText(),
                "pod template defaults for a statefulSetTemplate");
    }

    @Test
    void fixedReplicasGetNoMinimumAndOtherTemplatesNoPodDefaults() throws Exception {
        ObjectNode out = mutated(ud(DEPLOY, "{\"topology\":{\"subsets\":[{\"name\":\"a\",\"replicas\":2},"
                + "{\"name\":\"b\",\"maxReplicas\":3}]}}"), null);
        JsonNode subsets = out.path("spec").path("topology").path("subsets");
        assertNull(subsets.get(0).get("minReplicas"));
        assertNull(subsets.get(1).get("minReplicas"));
        assertNull(out.path("spec").path("template").path("deploymentTemplate").path("spec").path("template")
                .path("spec").path("containers").get(0).get("terminationMessagePath"));
    }

    @Test
    void anUpdateThatKeepsTheTemplateLeavesItAlone() throws Exception {
        ObjectNode old = ud(STS, "{}");
        ObjectNode now = ud(STS, "{\"replicas\":3}");
        ObjectNode out = mutated(now, old);
        assertNull(out.path("spec").path("template").path("statefulSetTemplate").path("spec").path("template")
                .path("spec").path("containers").get(0).get("terminationMessagePath"));
        assertEquals(10, out.path("spec").path("revisionHistoryLimit").asInt());
    }

    @Test
    void anUnservedVersionIsRefused() {
        // v1beta1 is served since issue 27 (UnitedDeploymentV1beta1WebhooksTest); another version still is not.
        AdmissionRequest r = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v2",
                "UnitedDeployment", "uniteddeployments", "", "abc", "default", "CREATE", ud(STS, "{}"), null, false,
                null);
        AdmissionResponse response = UnitedDeploymentWebhooks.validating().handle(r).result();
        assertFalse(response.allowed());
        assertEquals(400, response.code());
    }
}
