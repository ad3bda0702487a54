package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.AdaptiveWorkloadSpreadStrategy;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Toleration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9.0's WorkloadSpread validation cases (its workloadspread_validation_test.go: the success cases, the
 * error cases with the field each must name, the targetRef update and conflict cases) as facts, plus the exact
 * messages of its rules.
 */
class WorkloadSpreadValidationTest {
    /** OpenKruise's workloadSpreadDemo: a CloneSet spread 50/50/rest over zones a, b, c. */
    static final String DEMO = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"WorkloadSpread",
             "metadata":{"name":"workloadSpread","namespace":"default"},
             "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"demo"},
               "subsets":[
                 {"name":"subset-a","maxReplicas":50,
                  "requiredNodeSelectorTerm":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                    "operator":"In","values":["zone-a"]}]},
                  "tolerations":[{"key":"ecs","operator":"Exists"}],
                  "patch":{"metadata":{"annotations":{"subset":"subset-a"}}}},
                 {"name":"subset-b","maxReplicas":50,
                  "requiredNodeSelectorTerm":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                    "operator":"In","values":["zone-b"]}]},
                  "tolerations":[{"key":"ecs","operator":"Exists"}],
                  "patch":{"metadata":{"annotations":{"subset":"subset-b"}}}},
                 {"name":"subset-c",
                  "requiredNodeSelectorTerm":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                    "operator":"In","values":["zone-c"]}]}}]}}
            """;

    static WorkloadSpread demo() {
        return ApiJson.serialization().unmarshal(DEMO, WorkloadSpread.class);
    }

    static WorkloadSpread demo(Consumer<WorkloadSpread> change) {
        WorkloadSpread ws = demo();
        change.accept(ws);
        return ws;
    }

    static List<FieldError> validate(WorkloadSpread ws) {
        return WorkloadSpreadValidation.validate(ws, null, List.of(demo()), () -> CustomWorkloadWhiteList.EMPTY);
    }

    static WorkloadSpreadSubset subset(String name, IntOrString max) {
        WorkloadSpreadSubset s = new WorkloadSpreadSubset(name, max);
        s.setPatch(ApiJson.serialization().unmarshal("{\"metadata\":{\"annotations\":{\"subset\":\"" + name + "\"}}}",
                com.fasterxml.jackson.databind.JsonNode.class));
        return s;
    }

    static WorkloadSpread target(String name, String apiVersion, String kind, List<WorkloadSpreadSubset> subsets) {
        WorkloadSpread ws = demo();
        ws.getMetadata().setName(name);
        ws.getSpec().setTargetRef(new TargetReference(apiVersion, kind, "test"));
        ws.getSpec().setSubsets(subsets);
        return ws;
    }

    static void adaptive(WorkloadSpread ws, String type, Integer seconds) {
        WorkloadSpreadScheduleStrategy s = new WorkloadSpreadScheduleStrategy();
        s.setType(type);
        AdaptiveWorkloadSpreadStrategy a = new AdaptiveWorkloadSpreadStrategy();
        a.setRescheduleCriticalSeconds(seconds);
        a.setDisableSimulationSchedule(true);
        s.setAdaptive(a);
        ws.getSpec().setScheduleStrategy(s);
    }

    static Stream<WorkloadSpread> successCases() {
        WorkloadSpread fixed = target("ws-1", "apps.kruise.io/v1alpha1", "CloneSet",
                List.of(subset("subset-a", new IntOrString(50)), subset("subset-b", null)));
        fixed.getSpec().getSubsets().get(0).setRequiredNodeSelectorTerm(new NodeSelectorTermBuilder()
                .addNewMatchExpression().withKey("topology.kubernetes.io/zone").withOperator("NotIn")
                .withValues("zone-a").endMatchExpression().build());
        fixed.getSpec().getSubsets().get(0).setTolerations(List.of(new Toleration(null, "ecs", "Exists", null, null)));
        WorkloadSpreadScheduleStrategy fixedType = new WorkloadSpreadScheduleStrategy();
        fixedType.setType("Fixed");
        fixed.getSpec().setScheduleStrategy(fixedType);

        WorkloadSpread deployment = target("ws-2", "apps/v1", "Deployment",
                List.of(subset("subset-a", new IntOrString(50)), subset("subset-b", null)));
        deployment.getSpec().getSubsets().get(0).setPreferredNodeSelectorTerms(List.of(new PreferredSchedulingTerm(
                new NodeSelectorTermBuilder().addNewMatchExpression().withKey("topology.kubernetes.io/zone")
                        .withOperator("NotIn").withValues("zone-a").endMatchExpression().build(), 20)));
        adaptive(deployment, "Adaptive", 30);

        WorkloadSpread job = target("ws-3", "batch/v1", "Job",
                List.of(subset("subset-a", new IntOrString("50%")), subset("subset-b", new IntOrString("50%"))));
        WorkloadSpread jobAdaptive = target("ws-4", "batch/v1", "Job", List.of(subset("subset-a",
                new IntOrString("50%")), subset("subset-b", new IntOrString("50%")), subset("subset-c", null)));
        adaptive(jobAdaptive, "Adaptive", 30);
        return Stream.of(fixed,
                target("ws-1", "apps/v1", "StatefulSet", List.of(subset("subset-a", new IntOrString(50)),
                        subset("subset-b", null))),
                target("ws-1", "apps.kruise.io/v1alpha1", "StatefulSet", List.of(subset("subset-a",
                        new IntOrString(50)), subset("subset-b", null))),
                target("ws-1", "apps.kruise.io/v1beta1", "StatefulSet", List.of(subset("subset-a",
                        new IntOrString(50)), subset("subset-b", null))),
                deployment, job, jobAdaptive,
                target("ws-5", "apps/v1", "ReplicaSet", List.of(subset("only", null))));
    }

    @ParameterizedTest
    @MethodSource("successCases")
    void openKruisesSuccessCasesAreAccepted(WorkloadSpread ws) {
        assertEquals(List.of(), validate(ws));
    }

    record ErrorCase(String name, WorkloadSpread ws, String field) {
        @Override
        public String toString() {
            return name;
        }
    }

    static ErrorCase error(String name, String field, Consumer<WorkloadSpread> change) {
        return new ErrorCase(name, demo(change), field);
    }

    static WorkloadSpreadSubset first(WorkloadSpread ws) {
        return ws.getSpec().getSubsets().get(0);
    }

    static Stream<ErrorCase> errorCases() {
        return Stream.of(
                error("targetRef is nil", "spec.targetRef", ws -> ws.getSpec().setTargetRef(null)),
                error("targetRef's APIVersion is empty", "spec.targetRef",
                        ws -> ws.getSpec().getTargetRef().setApiVersion("")),
                error("targetRef's Kind is empty", "spec.targetRef", ws -> ws.getSpec().getTargetRef().setKind("")),
                error("targetRef's Name is empty", "spec.targetRef", ws -> ws.getSpec().getTargetRef().setName("")),
                error("subsets is nil", "spec.subsets", ws -> ws.getSpec().setSubsets(null)),
                error("statefulset group error", "spec.targetRef", ws -> ws.getSpec().setTargetRef(
                        new TargetReference("rollouts.kruise.io/v2", "StatefulSet", "demo"))),
                error("statefulset subset is percentage", "spec.subsets[0].maxReplicas", ws -> {
                    ws.getSpec().setTargetRef(new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "demo"));
                    first(ws).setMaxReplicas(new IntOrString("50%"));
                }),
                error("subset[0]'name is empty", "spec.subsets[0].name", ws -> first(ws).setName("")),
                error("subset[1]'name is empty", "spec.subsets[1].name",
                        ws -> ws.getSpec().getSubsets().get(1).setName("")),
                error("subset[1]'name is conflict with subsets[0]", "spec.subsets[1].name",
                        ws -> first(ws).setName("subset-b")),
                error("requiredNodeSelectorTerm are not valid",
                        "spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].values",
                        ws -> first(ws).setRequiredNodeSelectorTerm(new NodeSelectorTermBuilder().addNewMatchExpression()
                                .withKey("key").withOperator("Exists").withValues("unexpected").endMatchExpression()
                                .build())),
                error("preferredSchedulingTerms' weight are not valid",
                        "spec.subsets[0].preferredSchedulingTerms[0].weight",
                        ws -> first(ws).setPreferredNodeSelectorTerms(List.of(new PreferredSchedulingTerm(
                                new NodeSelectorTermBuilder().addNewMatchExpression().withKey("key")
                                        .withOperator("Exists").withValues("unexpected").endMatchExpression().build(),
                                101)))),
                error("preferredSchedulingTerms are not valid",
                        "spec.subsets[0].preferredSchedulingTerms[0].preference.matchExpressions[0].values",
                        ws -> first(ws).setPreferredNodeSelectorTerms(List.of(new PreferredSchedulingTerm(
                                new NodeSelectorTermBuilder().addNewMatchExpression().withKey("key")
                                        .withOperator("Exists").withValues("unexpected").endMatchExpression().build(),
                                50)))),
                error("subset-a's maxReplicas < 0", "spec.subsets[0].maxReplicas",
                        ws -> first(ws).setMaxReplicas(new IntOrString(-100))),
                error("subset-a's maxReplicas = 0.2%", "spec.subsets[0].maxReplicas",
                        ws -> first(ws).setMaxReplicas(new IntOrString("0.2%"))),
                error("subset-a's maxReplicas = 50.2%", "spec.subsets[0].maxReplicas",
                        ws -> first(ws).setMaxReplicas(new IntOrString("50.2%"))),
                error("subset-a's maxReplicas = 101%", "spec.subsets[0].maxReplicas",
                        ws -> first(ws).setMaxReplicas(new IntOrString("101%"))),
                error("subset-a's maxReplicas = 40%, subset-b's maxReplicas = 70%", "spec.subsets[1].maxReplicas",
                        ws -> {
                            first(ws).setMaxReplicas(new IntOrString("40%"));
                            ws.getSpec().getSubsets().get(1).setMaxReplicas(new IntOrString("70%"));
                        }),
                error("subset-a 40%, subset-b 20%, subset-c 20%", "spec.subsets[0].maxReplicas", ws -> {
                    first(ws).setMaxReplicas(new IntOrString("40%"));
                    ws.getSpec().getSubsets().get(1).setMaxReplicas(new IntOrString("20%"));
                    ws.getSpec().getSubsets().get(2).setMaxReplicas(new IntOrString("20%"));
                }),
                error("subset-a's maxReplicas = -1%", "spec.subsets[0].maxReplicas",
                        ws -> first(ws).setMaxReplicas(new IntOrString("-1%"))),
                error("scheduleStrategy's type is not valid", "spec.scheduleStrategy.type", ws -> {
                    WorkloadSpreadScheduleStrategy s = new WorkloadSpreadScheduleStrategy();
                    s.setType("random");
                    ws.getSpec().setScheduleStrategy(s);
                }),
                error("rescheduleCriticalSeconds = -1", "spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds",
                        ws -> adaptive(ws, "Adaptive", -1)),
                error("rescheduleCriticalSeconds < 0", "spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds",
                        ws -> adaptive(ws, "Adaptive", -20)),
                error("scheduleStrategy's type is not matched", "spec.scheduleStrategy.type",
                        ws -> adaptive(ws, "Fixed", 20)),
                error("the last subset's maxReplicas is not nil when using adaptive", "spec.scheduleStrategy.adaptive",
                        ws -> {
                            adaptive(ws, "Adaptive", 20);
                            ws.getSpec().getSubsets().get(2).setMaxReplicas(new IntOrString(50));
                        }),
                error("a kind that is neither built in nor whitelisted", "spec.targetRef",
                        ws -> ws.getSpec().setTargetRef(new TargetReference("kubeflow.org/v1", "TFJob", "t"))),
                error("CloneSet of another group", "spec.targetRef",
                        ws -> ws.getSpec().getTargetRef().setApiVersion("apps/v1")),
                error("apiVersion with two slashes", "spec.targetRef",
                        ws -> ws.getSpec().getTargetRef().setApiVersion("apps.kruise.io/v1alpha1/x")),
                error("maxReplicas of mixed types", "spec.subsets[1].maxReplicas",
                        ws -> ws.getSpec().getSubsets().get(1).setMaxReplicas(new IntOrString("50%"))),
                error("rescheduleCriticalSeconds above (300 - 5) / (subsets - 1)",
                        "spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds", ws -> {
                            adaptive(ws, "Adaptive", 148);
                            ws.getSpec().getSubsets().get(2).setMaxReplicas(null);
                        }),
                error("bad toleration", "spec.subsets[0].tolerations[0].operator",
                        ws -> first(ws).setTolerations(List.of(new Toleration(null, "", "Equal", null, null)))),
                error("bad targetFilter selector", "spec.targetFilter", ws -> {
                    dev.kruisevertx.api.apps.v1alpha1.TargetFilter f = new dev.kruisevertx.api.apps.v1alpha1.TargetFilter();
                    f.setSelector(new io.fabric8.kubernetes.api.model.LabelSelectorBuilder().addNewMatchExpression()
                            .withKey("a").withOperator("Foo").endMatchExpression().build());
                    ws.getSpec().setTargetFilter(f);
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errorCases")
    void openKruisesErrorCasesNameTheField(ErrorCase c) {
        List<FieldError> errors = validate(c.ws());
        assertTrue(errors.stream().anyMatch(e -> e.field().equals(c.field())), c.field() + " not in " + errors);
    }

    @Test
    void theMessagesAreOpenKruises() {
        assertEquals("spec.targetRef: Required value: no targetRef defined in WorkloadSpread",
                only(demo(ws -> ws.getSpec().setTargetRef(null))));
        assertEquals("spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:\"\", Kind:\"CloneSet\", "
                        + "Name:\"demo\"}: empty TargetReference is not valid for WorkloadSpread.",
                only(demo(ws -> ws.getSpec().getTargetRef().setApiVersion(""))));
        assertEquals("spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:\"apps/v1\", "
                        + "Kind:\"CloneSet\", Name:\"demo\"}: TargetReference is not valid for CloneSet.",
                only(demo(ws -> ws.getSpec().getTargetRef().setApiVersion("apps/v1"))));
        assertEquals("spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:\"kubeflow.org/v1\", "
                        + "Kind:\"TFJob\", Name:\"t\"}: TargetReference's GroupKind is not permitted.",
                only(demo(ws -> ws.getSpec().setTargetRef(new TargetReference("kubeflow.org/v1", "TFJob", "t")))));
        assertEquals("spec.subsets: Required value: subsets number must >= 1 in WorkloadSpread",
                only(demo(ws -> ws.getSpec().setSubsets(List.of()))));
        assertEquals("spec.subsets[0].name: Invalid value: \"\"", only(demo(ws -> first(ws).setName(""))));
        assertEquals("spec.subsets[1].name: Invalid value: \"subset-b\": duplicated subset name subset-b",
                only(demo(ws -> first(ws).setName("subset-b"))));
        assertEquals("spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:0, IntVal:-100, StrVal:\"\"}"
                + ": maxReplicas is not valid for subset", only(demo(ws -> first(ws).setMaxReplicas(
                new IntOrString(-100)))));
        assertEquals("spec.subsets[1].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"50%\"}"
                + ": the maxReplicas type of all subsets must be the same", only(demo(ws -> ws.getSpec().getSubsets()
                .get(1).setMaxReplicas(new IntOrString("50%")))));
        assertEquals("spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"101%\"}"
                + ": the sum of all subset's maxReplicas exceeds 100% is no permitted", only(demo(ws -> {
                    first(ws).setMaxReplicas(new IntOrString("101%"));
                    ws.getSpec().getSubsets().get(1).setMaxReplicas(null);
                })));
        assertEquals("spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"40%\"}"
                + ": maxReplicas sum of all subsets must equal 100% when type is specified as percent", only(demo(ws -> {
                    first(ws).setMaxReplicas(new IntOrString("40%"));
                    ws.getSpec().getSubsets().get(1).setMaxReplicas(new IntOrString("20%"));
                    ws.getSpec().getSubsets().get(2).setMaxReplicas(new IntOrString("20%"));
                })));
        assertEquals("spec.subsets[0].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"50%\"}"
                + ": the maxReplicas type must be Int for StatefulSet", only(demo(ws -> {
                    ws.getSpec().setTargetRef(new TargetReference("apps/v1", "StatefulSet", "demo"));
                    first(ws).setMaxReplicas(new IntOrString("50%"));
                    ws.getSpec().getSubsets().get(1).setMaxReplicas(new IntOrString("50%"));
                })));
        assertEquals("spec.scheduleStrategy.type: Invalid value: \"random\": ScheduleStrategy's type is not valid",
                only(demo(ws -> {
                    WorkloadSpreadScheduleStrategy s = new WorkloadSpreadScheduleStrategy();
                    s.setType("random");
                    ws.getSpec().setScheduleStrategy(s);
                })));
        assertEquals("spec.scheduleStrategy.type: Invalid value: 20: the scheduleStrategy's type must be adaptive "
                + "when using adaptive scheduleStrategy", only(demo(ws -> adaptive(ws, "Fixed", 20))));
        assertEquals("spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds: Invalid value: 148: "
                + "rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > 147 is not permitted",
                only(demo(ws -> adaptive(ws, "Adaptive", 148))));
        assertEquals("spec.scheduleStrategy.adaptive: Invalid value: 20: the last subset's maxReplicas must be not "
                + "specified when using adaptive scheduleStrategy", only(demo(ws -> {
                    adaptive(ws, "Adaptive", 20);
                    ws.getSpec().getSubsets().get(2).setMaxReplicas(new IntOrString(1));
                })));
        assertEquals("spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].values: Forbidden: may not be "
                + "specified when `operator` is 'Exists' or 'DoesNotExist'", only(demo(ws -> first(ws)
                .setRequiredNodeSelectorTerm(new NodeSelectorTermBuilder().addNewMatchExpression().withKey("key")
                        .withOperator("Exists").withValues("x").endMatchExpression().build()))));
        assertEquals("spec.subsets[0].preferredSchedulingTerms[0].weight: Invalid value: 0: must be in the range 1-100",
                only(demo(ws -> first(ws).setPreferredNodeSelectorTerms(List.of(new PreferredSchedulingTerm(
                        new NodeSelectorTermBuilder().build(), 0))))));
    }

    @Test
    void aSingleSubsetWithAnyLimitAndAnAdaptiveStrategyIsAccepted() {
        WorkloadSpread ws = target("one", "apps/v1", "Deployment", List.of(subset("only", new IntOrString(3))));
        adaptive(ws, "Adaptive", 100000);
        assertEquals(List.of(), validate(ws));
    }

    @Test
    void aRequiredTermChecksItsValuesAsLabelValuesButAPreferredOneDoesNot() {
        String bad = "not a label value!";
        assertEquals("spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].values[0]",
                validate(demo(ws -> first(ws).setRequiredNodeSelectorTerm(new NodeSelectorTermBuilder()
                        .addNewMatchExpression().withKey("k").withOperator("In").withValues(bad).endMatchExpression()
                        .build()))).get(0).field());
        assertEquals(List.of(), validate(demo(ws -> first(ws).setPreferredNodeSelectorTerms(List.of(
                new PreferredSchedulingTerm(new NodeSelectorTermBuilder().addNewMatchExpression().withKey("k")
                        .withOperator("In").withValues(bad).endMatchExpression().build(), 5))))));
    }

    @Test
    void whitelistedCustomWorkloadsArePermitted() {
        WorkloadSpread ws = demo(w -> w.getSpec().setTargetRef(new TargetReference("kubeflow.org/v1", "TFJob", "t")));
        assertEquals(List.of(), WorkloadSpreadValidation.validate(ws, null, List.of(),
                () -> CustomWorkloadWhiteList.parse("{\"workloads\":[{\"Group\":\"kubeflow.org\",\"Version\":"
                        + "\"v1\",\"Kind\":\"TFJob\",\"replicasPath\":\"spec.replicas\"}]}")));
        assertEquals("[spec.targetRef: Internal error: ConfigMap kruise-configuration entry "
                + "WorkloadSpread_Watch_Custom_Workload_WhiteList is invalid: it is not JSON]",
                WorkloadSpreadValidation.validate(ws, null, List.of(), () -> CustomWorkloadWhiteList.parse("x"))
                        .toString());
        assertEquals(List.of(), WorkloadSpreadValidation.validate(demo(), null, List.of(), () -> {
            throw new AssertionError("the whitelist is read only for a kind that is not built in");
        }));
    }

    @Test
    void changingTheTargetGroupKindOrNameIsRefusedOnUpdate() {
        for (Consumer<WorkloadSpread> change : List.<Consumer<WorkloadSpread>>of(
                ws -> ws.getSpec().getTargetRef().setApiVersion("apps/v1"),
                ws -> ws.getSpec().getTargetRef().setKind("Deployment"),
                ws -> ws.getSpec().getTargetRef().setName("deploy-1"))) {
            List<FieldError> errors = WorkloadSpreadValidation.validate(demo(change), demo(), List.of(), () -> CustomWorkloadWhiteList.EMPTY);
            FieldError last = errors.get(errors.size() - 1);
            assertEquals("spec.targetRef", last.field());
            assertTrue(last.toString().endsWith("change TargetReference is not permitted for WorkloadSpread"), last
                    .toString());
        }
        WorkloadSpread newVersion = demo(ws -> ws.getSpec().getTargetRef().setApiVersion("apps.kruise.io/v1beta1"));
        assertEquals(List.of(), WorkloadSpreadValidation.validate(newVersion, demo(), List.of(), () -> CustomWorkloadWhiteList.EMPTY),
                "only group, kind and name are compared");
    }

    static WorkloadSpread named(String name, String target) {
        WorkloadSpread ws = demo();
        ws.getMetadata().setName(name);
        ws.getSpec().getTargetRef().setName(target);
        return ws;
    }

    @Test
    void anotherWorkloadSpreadOnTheSameWorkloadConflicts() {
        List<WorkloadSpread> others = List.of(named("ws-1", "test1"), named("ws-2", "test2"), named("ws-3", "test3"));
        assertEquals(null, WorkloadSpreadValidation.conflict(demo(ws -> ws.getSpec().getTargetRef()
                .setApiVersion("apps/v1")), others), "group is different");
        assertEquals(null, WorkloadSpreadValidation.conflict(demo(ws -> ws.getSpec().getTargetRef()
                .setKind("Deployment")), others), "kind is different");
        assertEquals(null, WorkloadSpreadValidation.conflict(demo(ws -> ws.getSpec().getTargetRef()
                .setName("test")), others), "name is different");
        List<WorkloadSpread> clash = List.of(named("ws-1", "test1"), named("ws-2", "test1"), named("ws-3", "test2"));
        FieldError first = WorkloadSpreadValidation.conflict(clash.get(0), clash);
        assertEquals("spec.targetRef", first.field());
        assertTrue(first.toString().endsWith("ws.spec.targetRef is in conflict with other WorkloadSpread ws-2"));
        assertTrue(WorkloadSpreadValidation.conflict(clash.get(1), clash).toString().endsWith("WorkloadSpread ws-1"));
        assertEquals(null, WorkloadSpreadValidation.conflict(clash.get(2), clash));
    }

    static String only(WorkloadSpread ws) {
        List<FieldError> errors = validate(ws);
        assertEquals(1, errors.size(), errors.toString());
        return errors.get(0).toString();
    }
}
