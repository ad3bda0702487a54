package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.controller.reason.BlockReason;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WorkloadSpreadDecision#decide} as a table: each case a WorkloadSpread (as YAML), the target's pods, its
 * replicas and latest version, and the whole plan rendered on one line — deletion costs, the subset status
 * ({@code name:replicas/missing}, {@code c}/{@code d} for creating/deleting records, {@code F} for Schedulable=False),
 * adoptions, rescheduling deletions, Events and reason codes.
 */
class WorkloadSpreadDecisionTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");

    static final String ZONES = """
            subsets:
            - name: a
              requiredNodeSelectorTerm:
                matchExpressions: [{key: zone, operator: In, values: [za]}]
              maxReplicas: 2
            - name: b
              requiredNodeSelectorTerm:
                matchExpressions: [{key: zone, operator: In, values: [zb]}]
            """;

    static final String ADAPTIVE = """
            scheduleStrategy: {type: Adaptive, adaptive: {rescheduleCriticalSeconds: 10}}
            subsets:
            - {name: a, maxReplicas: 2}
            - {name: b}
            """;

    record Case(String name, WorkloadSpread ws, List<Pod> pods, int replicas, String latest, List<String> pending,
                String expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    static WorkloadSpread ws(String apiVersion, String kind, String specBody, String statusYaml) {
        String yaml = """
                apiVersion: apps.kruise.io/v1alpha1
                kind: WorkloadSpread
                metadata: {name: spread, namespace: ns, generation: 2}
                spec:
                  targetRef: {apiVersion: %s, kind: %s, name: w}
                %s
                %s""".formatted(apiVersion, kind, specBody.indent(2), statusYaml);
        return ApiJson.serialization().unmarshal(yaml, WorkloadSpread.class);
    }

    static WorkloadSpread cs(String spec) {
        return ws("apps.kruise.io/v1alpha1", "CloneSet", spec, "");
    }

    static WorkloadSpread cs(String spec, String status) {
        return ws("apps.kruise.io/v1alpha1", "CloneSet", spec, status);
    }

    /** A running, ready pod created at minute {@code minute} on node {@code node}, in {@code subset} when not null. */
    static Pod pod(String name, String subset, int minute) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withCreationTimestamp(String.format("2026-01-01T00:%02d:00Z", minute))
                .withLabels(new LinkedHashMap<>(Map.of("app", "web")))
                .addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet").withName("w")
                .withUid("w-uid").withController(true).endOwnerReference()
                .endMetadata()
                .withNewSpec().withNodeName("node-" + (subset == null ? "b" : subset)).endSpec()
                .withNewStatus().withPhase("Running").addToConditions(new PodConditionBuilder().withType("Ready")
                        .withStatus("True").withLastTransitionTime(String.format("2026-01-01T00:%02d:30Z", minute))
                        .build()).endStatus();
        Pod p = b.build();
        if (subset != null) {
            annotate(p, WorkloadSpreads.MATCHED_ANNOTATION, "{\"name\":\"spread\",\"subset\":\"" + subset + "\"}");
        }
        return p;
    }

    static Pod annotate(Pod p, String key, String value) {
        Map<String, String> a = p.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(p.getMetadata().getAnnotations());
        a.put(key, value);
        p.getMetadata().setAnnotations(a);
        return p;
    }

    static Pod cost(Pod p, String value) {
        return annotate(p, WellKnown.POD_DELETION_COST_ANNOTATION, value);
    }

    static Pod label(Pod p, String key, String value) {
        p.getMetadata().getLabels().put(key, value);
        return p;
    }

    static Pod owner(Pod p, String apiVersion, String kind) {
        p.getMetadata().getOwnerReferences().get(0).setApiVersion(apiVersion);
        p.getMetadata().getOwnerReferences().get(0).setKind(kind);
        return p;
    }

    /** Pending, not placed, PodScheduled=False Unschedulable, created {@code secondsAgo} before NOW. */
    static Pod unschedulable(String name, String subset, int secondsAgo) {
        Pod p = pod(name, subset, 0);
        p.getMetadata().setCreationTimestamp(NOW.minusSeconds(secondsAgo).toString());
        p.getSpec().setNodeName(null);
        p.getStatus().setPhase("Pending");
        p.getStatus().setConditions(new ArrayList<>(List.of(new PodConditionBuilder().withType("PodScheduled")
                .withStatus("False").withReason("Unschedulable").build())));
        return p;
    }

    static String ago(int seconds) {
        return NOW.minusSeconds(seconds).toString();
    }

    static final Map<String, Node> NODES = Map.of(
            "node-a", new NodeBuilder().withNewMetadata().withName("node-a").withLabels(Map.of("zone", "za"))
                    .endMetadata().build(),
            "node-b", new NodeBuilder().withNewMetadata().withName("node-b").withLabels(Map.of("zone", "zb"))
                    .endMetadata().build());

    static Stream<Case> cases() {
        return Stream.of(
                new Case("no pods: every subset misses its whole limit", cs(ZONES), List.of(), 4, "", List.of(),
                        "costs={} status=[a:0/2, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("pods within the limits keep positive costs by subset order", cs(ZONES),
                        List.of(pod("a1", "a", 1), pod("b1", "b", 1)), 2, "", List.of(),
                        "costs={a1=200, b1=100} status=[a:1/1, b:1/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("the newest pod over a subset's limit is its surplus", cs(ZONES),
                        List.of(pod("a1", "a", 1), pod("a2", "a", 2), pod("a3", "a", 3)), 3, "", List.of(),
                        "costs={a1=200, a2=200, a3=-100} status=[a:3/0, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("costs already on the pods are not written again", cs(ZONES),
                        List.of(cost(pod("a1", "a", 1), "200"), cost(pod("b1", "b", 1), "100")), 2, "", List.of(),
                        "costs={} status=[a:1/1, b:1/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("a pod naming a subset that is gone is in no subset and goes first", cs(ZONES),
                        List.of(pod("x1", "gone", 1)), 1, "", List.of(),
                        "costs={x1=-300} status=[a:0/2, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("a running pod without the annotation is adopted by the subset its node fits", cs(ZONES),
                        List.of(pod("p1", null, 1)), 1, "", List.of(),
                        "costs={p1=100} status=[a:0/2, b:1/-1] adopt=[p1>b] resched=[] events=[] reasons=[]"),
                new Case("Job target: status only, no deletion costs",
                        ws("batch/v1", "Job", ZONES, ""), List.of(owner(pod("a1", "a", 1), "batch/v1", "Job")), 2,
                        "", List.of(),
                        "costs={} status=[a:1/1, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("StatefulSet target: status only, no deletion costs",
                        ws("apps/v1", "StatefulSet", ZONES, ""),
                        List.of(owner(pod("s-0", "a", 1), "apps/v1", "StatefulSet"),
                                owner(pod("s-1", "a", 2), "apps/v1", "StatefulSet"),
                                owner(pod("s-2", "b", 3), "apps/v1", "StatefulSet")), 3, "", List.of(),
                        "costs={} status=[a:2/0, b:1/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("Advanced StatefulSet target: status only",
                        ws("apps.kruise.io/v1beta1", "StatefulSet", ZONES, ""),
                        List.of(owner(pod("s-0", "a", 1), "apps.kruise.io/v1beta1", "StatefulSet")), 1, "", List.of(),
                        "costs={} status=[a:1/1, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("a custom target: status only",
                        ws("example.io/v1", "GameServerSet", ZONES, ""),
                        List.of(owner(pod("g-0", "b", 1), "example.io/v1", "GameServerSet")), 1, "", List.of(),
                        "costs={} status=[a:0/2, b:1/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("targetFilter selector: unselected pods are not counted",
                        cs("targetFilter: {selector: {matchLabels: {role: main}}}\n" + ZONES),
                        List.of(label(pod("a1", "a", 1), "role", "main"), pod("a2", "a", 2)), 2, "", List.of(),
                        "costs={a1=200} status=[a:1/1, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("percentage limit scaled on the replicas, rounded up",
                        cs("subsets: [{name: a, maxReplicas: 50%}, {name: b}]"),
                        List.of(pod("a1", "a", 1)), 5, "", List.of(),
                        "costs={a1=200} status=[a:1/2, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("negative replicas count as 0: a percentage limit is 0 and its pod is surplus",
                        cs("subsets: [{name: a, maxReplicas: 50%}, {name: b}]"),
                        List.of(pod("a1", "a", 1)), -7, "", List.of(),
                        "costs={a1=-100} status=[a:1/0, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("huge replicas: a percentage limit scales without overflow",
                        cs("subsets: [{name: a, maxReplicas: 100%}]"),
                        List.of(), Integer.MAX_VALUE, "", List.of(),
                        "costs={} status=[a:0/2147483647] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("target gone: no pods and 0 replicas",
                        cs("subsets: [{name: a, maxReplicas: 50%}, {name: b, maxReplicas: 3}]"),
                        null, 0, "", List.of(),
                        "costs={} status=[a:0/0, b:0/3] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("a fresh creating record holds a place until the pod shows up", cs(ZONES, """
                        status:
                          subsetStatuses:
                          - {name: a, replicas: 0, missingReplicas: 1, creatingPods: {a9: "%s"}}
                          - {name: b, replicas: 0, missingReplicas: -1}
                        """.formatted(ago(5))), List.of(), 2, "", List.of(),
                        "costs={} status=[a:0/1c1, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("an expired creating record is dropped with CreatePodFailed", cs(ZONES, """
                        status:
                          subsetStatuses:
                          - {name: a, replicas: 0, missingReplicas: 1, creatingPods: {a9: "%s"}}
                          - {name: b, replicas: 0, missingReplicas: -1}
                        """.formatted(ago(31))), List.of(), 2, "", List.of(),
                        "costs={} status=[a:0/2, b:0/-1] adopt=[] resched=[] events=[CreatePodFailed] reasons=[]"),
                new Case("a creating record ends when its pod is seen", cs(ZONES, """
                        status:
                          subsetStatuses:
                          - {name: a, replicas: 0, missingReplicas: 1, creatingPods: {a1: "%s"}}
                          - {name: b, replicas: 0, missingReplicas: -1}
                        """.formatted(ago(5))), List.of(cost(pod("a1", "a", 9), "200")), 2, "", List.of(),
                        "costs={} status=[a:1/1, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("a fresh deleting record of a still active pod gives its place back", cs(ZONES, """
                        status:
                          subsetStatuses:
                          - {name: a, replicas: 2, missingReplicas: 1, deletingPods: {a1: "%s"}}
                          - {name: b, replicas: 0, missingReplicas: -1}
                        """.formatted(ago(5))), List.of(cost(pod("a1", "a", 1), "200"), cost(pod("a2", "a", 2), "200")),
                        2, "", List.of(),
                        "costs={} status=[a:2/1d1, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("an expired deleting record of a pod still there: DeletePodFailed", cs(ZONES, """
                        status:
                          subsetStatuses:
                          - {name: a, replicas: 2, missingReplicas: 1, deletingPods: {a1: "%s"}}
                          - {name: b, replicas: 0, missingReplicas: -1}
                        """.formatted(ago(16))), List.of(cost(pod("a1", "a", 1), "200"), cost(pod("a2", "a", 2), "200")),
                        2, "", List.of(),
                        "costs={} status=[a:2/0, b:0/-1] adopt=[] resched=[] events=[DeletePodFailed] reasons=[]"),
                new Case("a deleting record of a pod that is gone ends quietly", cs(ZONES, """
                        status:
                          subsetStatuses:
                          - {name: a, replicas: 1, missingReplicas: 2, deletingPods: {a7: "%s"}}
                          - {name: b, replicas: 0, missingReplicas: -1}
                        """.formatted(ago(5))), List.of(), 2, "", List.of(),
                        "costs={} status=[a:0/2, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("Adaptive: a pod unschedulable past rescheduleCriticalSeconds is deleted, its subset False",
                        cs(ADAPTIVE), List.of(unschedulable("a1", "a", 20)), 2, "", List.of(),
                        "costs={a1=200} status=[a:1/1F, b:0/-1] adopt=[] resched=[a1] events=[] reasons=[Unschedulable]"),
                new Case("Adaptive: a pod unschedulable for less than that stays", cs(ADAPTIVE),
                        List.of(unschedulable("a1", "a", 5)), 2, "", List.of(),
                        "costs={a1=200} status=[a:1/1, b:0/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("Adaptive: a subset False for 5 minutes recovers", cs(ADAPTIVE, """
                        status:
                          subsetStatuses:
                          - name: a
                            replicas: 0
                            missingReplicas: 2
                            conditions: [{type: Schedulable, status: "False", lastTransitionTime: "%s"}]
                          - name: b
                            replicas: 0
                            missingReplicas: -1
                            conditions: [{type: Schedulable, status: "True", lastTransitionTime: "%s"}]
                        """.formatted(ago(301), ago(600))), List.of(), 2, "", List.of(),
                        "costs={} status=[a:0/2, b:0/-1] adopt=[] resched=[] events=[RecoverSchedulable] reasons=[]"),
                new Case("Adaptive: a subset False for less than 5 minutes stays False and holds pods back",
                        cs(ADAPTIVE, """
                        status:
                          subsetStatuses:
                          - name: a
                            replicas: 0
                            missingReplicas: 2
                            conditions: [{type: Schedulable, status: "False", lastTransitionTime: "%s"}]
                          - name: b
                            replicas: 0
                            missingReplicas: -1
                            conditions: [{type: Schedulable, status: "True", lastTransitionTime: "%s"}]
                        """.formatted(ago(100), ago(600))), List.of(), 2, "", List.of(),
                        "costs={} status=[a:0/2F, b:0/-1] adopt=[] resched=[] events=[] reasons=[Unschedulable]"),
                new Case("Deployment: pods of an older version get the reversed order",
                        ws("apps/v1", "Deployment", ZONES, ""),
                        List.of(label(owner(pod("new-a", "a", 1), "apps/v1", "ReplicaSet"), "pod-template-hash", "v2"),
                                label(owner(pod("old-a", "a", 1), "apps/v1", "ReplicaSet"), "pod-template-hash", "v1"),
                                label(owner(pod("old-b", "b", 1), "apps/v1", "ReplicaSet"), "pod-template-hash", "v1")),
                        3, "v2", List.of(),
                        "costs={new-a=200, old-a=100, old-b=200} status=[a:2/0, b:1/-1] adopt=[] resched=[] events=[] reasons=[]"),
                new Case("the controller's own pod patches not yet in the cache hold the decision", cs(ZONES),
                        List.of(pod("a1", "a", 1)), 1, "", List.of("a2", "a1"),
                        "waiting costs={} status=unchanged adopt=[] resched=[] events=[] reasons=[Expectations]"),
                new Case("no targetRef", cs(ZONES), List.of(), 1, "", List.of(), "skip: no targetRef"),
                new Case("a targetFilter selector that cannot be read",
                        cs("targetFilter: {selector: {matchExpressions: [{key: k, operator: Bogus}]}}\n" + ZONES),
                        List.of(pod("a1", "a", 1)), 1, "", List.of(),
                        "skip: targetFilter selector cannot be read"));
    }

    static String render(WorkloadSpreadPlan plan) {
        if (!plan.skipped().isEmpty()) {
            return "skip: " + plan.skipped();
        }
        Map<String, String> costs = new TreeMap<>();
        plan.deletionCosts().forEach(a -> costs.put(a.pod().getMetadata().getName(), a.value()));
        String status = "unchanged";
        if (plan.status() != null) {
            List<String> parts = new ArrayList<>();
            for (WorkloadSpreadSubsetStatus s : plan.status().getSubsetStatuses()) {
                String f = s.conditions().stream().anyMatch(c -> WorkloadSpreadSubsetCondition.SCHEDULABLE
                        .equals(c.getType()) && "False".equals(c.getStatus())) ? "F" : "";
                parts.add(s.getName() + ":" + s.getReplicas() + "/" + s.getMissingReplicas()
                        + (s.creatingPods().isEmpty() ? "" : "c" + s.creatingPods().size())
                        + (s.deletingPods().isEmpty() ? "" : "d" + s.deletingPods().size()) + f);
            }
            status = parts.toString();
        }
        return (plan.debugSummary().summary().equals("waiting") ? "waiting " : "")
                + "costs=" + costs + " status=" + status
                + " adopt=" + plan.adoptions().stream().map(a -> a.pod().getMetadata().getName() + ">" + a.subset())
                .toList()
                + " resched=" + plan.rescheduled().stream().map(p -> p.getMetadata().getName()).toList()
                + " events=" + plan.events().stream().map(SubsetStatusCalculation.Event::reason).toList()
                + " reasons=" + plan.reasons().stream().map(r -> r.code().wireName()).toList();
    }

    static WorkloadSpreadPlan decide(Case c) {
        WorkloadSpread ws = c.ws();
        if (c.name().equals("no targetRef")) {
            ws.getSpec().setTargetRef(null);
        }
        Function<String, Node> nodes = NODES::get;
        return WorkloadSpreadDecision.decide(new WorkloadSpreadDecision.Snapshot(ws, c.pods(), c.replicas(),
                c.latest().isEmpty() ? WorkloadSpreads.VERSION_IGNORED : c.latest(), nodes, c.pending()),
                PodVersions.defaults(), NOW);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(Case c) {
        assertEquals(c.expect(), render(decide(c)));
    }

    @Test
    void theTableHasAtLeastTwentyCases() {
        assertTrue(cases().count() >= 20);
    }

    @Test
    void reasonsAndSummaryCarryNamesAndCountsOnly() {
        WorkloadSpreadPlan plan = decide(cases().filter(c -> c.name().startsWith("Adaptive: a pod unschedulable past"))
                .findFirst().orElseThrow());
        BlockReason r = plan.reasons().get(0);
        assertEquals("Unschedulable: subset a is marked Schedulable=False: its pods stayed unschedulable past "
                + "rescheduleCriticalSeconds 10; deleting 1 pod (a1); new pods go to the next subsets until it "
                + "recovers in 5m", r.text());
        WorkloadSpreadPlan waiting = decide(cases().filter(c -> c.name().startsWith("the controller's own"))
                .findFirst().orElseThrow());
        assertEquals("Expectations: waiting for the cache to show this controller's patches of 2 pods",
                waiting.reasons().get(0).text());
        assertEquals(List.of("a1", "a2"), waiting.reasons().get(0).objects());
        assertEquals(WorkloadSpreadDecision.EXPECTATIONS_RECHECK, waiting.requeueAfter().orElseThrow());
    }

    @Test
    void anExpiredRecordRequeuesAtTheEarliestExpiry() {
        WorkloadSpreadPlan plan = decide(cases().filter(c -> c.name().startsWith("a fresh creating record"))
                .findFirst().orElseThrow());
        assertEquals(java.time.Duration.ofSeconds(25), plan.requeueAfter().orElseThrow());
    }
}
