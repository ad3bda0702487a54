package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategy;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdatePriorityWeightTerm;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.bench.DecisionBenchmark;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The decision part of one reconcile of a 1,000-pod Advanced StatefulSet, from cached objects to a plan and a status,
 * through the controller's own snapshot, state builder and planner: resolve the revision (hash the template), index
 * the pods by ordinal, decide (OpenKruise's scale / condemn / rolling-update order, maxUnavailable, in-place check,
 * hooks, the upkeep and refresh of every pod), compute the status. API calls are not part of it.
 *
 * <p>It lives in the controller's package (in this module) because those steps are package-private there: they are
 * the controller's internals, not an API.
 */
public class StatefulSetDecisionBenchmark extends DecisionBenchmark {
    private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");
    private static final FeatureGates GATES = FeatureGates.defaults();

    @Param({"1000"})
    int pods;

    /** Every pod at the update revision, OrderedReady: the reconcile any pod event triggers once settled. */
    private StatefulSet steady;
    /** Parallel, maxUnavailable 20%, InPlaceIfPossible, 60% of the pods on the old revision. */
    private StatefulSet rollout;
    /** The same with an unorderedUpdate.priorityStrategy of two weight terms. */
    private StatefulSet priorityRollout;
    /** Parallel, replicas lowered by 100. */
    private StatefulSet scaleDown;
    /** Parallel, replicas 2147483647: the pods exist, the next plan creates one slice of 500. */
    private StatefulSet largest;
    private List<ControllerRevision> history;
    private String oldRevision;
    private String newRevision;
    private List<Pod> settledPods;
    private List<Pod> rolloutPods;
    private Map<String, Case> scenarios;

    @Setup
    public void setUp() {
        StatefulSet old = statefulSet(pods, "nginx:1");
        ControllerRevision oldRev = StatefulSetRevisions.resolve(old, List.of()).update();
        steady = statefulSet(pods, "nginx:2");
        ControllerRevision newRev = StatefulSetRevisions.resolve(steady, List.of(oldRev)).update();
        history = List.of(oldRev, newRev);
        oldRevision = oldRev.getMetadata().getName();
        newRevision = newRev.getMetadata().getName();

        rollout = statefulSet(pods, "nginx:2");
        rollout.getSpec().setPodManagementPolicy(PodManagementPolicyType.PARALLEL.value());
        RollingUpdateStatefulSetStrategy ru = rollingUpdate(rollout);
        ru.setMaxUnavailable(new IntOrString("20%"));
        ru.setPodUpdatePolicy(PodUpdateStrategyType.IN_PLACE_IF_POSSIBLE.value());

        priorityRollout = statefulSet(pods, "nginx:2");
        priorityRollout.getSpec().setPodManagementPolicy(PodManagementPolicyType.PARALLEL.value());
        RollingUpdateStatefulSetStrategy pru = rollingUpdate(priorityRollout);
        pru.setMaxUnavailable(new IntOrString("20%"));
        pru.setPodUpdatePolicy(PodUpdateStrategyType.IN_PLACE_IF_POSSIBLE.value());
        UpdatePriorityStrategy priority = new UpdatePriorityStrategy();
        priority.setWeightPriority(List.of(weight(50, "tier", "canary"), weight(10, "zone", "a")));
        pru.setUnorderedUpdate(new dev.kruisevertx.api.apps.v1beta1.UnorderedUpdateStrategy());
        pru.getUnorderedUpdate().setPriorityStrategy(priority);

        scaleDown = statefulSet(pods - 100, "nginx:2");
        scaleDown.getSpec().setPodManagementPolicy(PodManagementPolicyType.PARALLEL.value());

        largest = statefulSet(Integer.MAX_VALUE, "nginx:2");
        largest.getSpec().setPodManagementPolicy(PodManagementPolicyType.PARALLEL.value());

        // As in a rollout: the status still names the old revision as current.
        for (StatefulSet set : List.of(steady, rollout, priorityRollout, scaleDown, largest)) {
            set.setStatus(new StatefulSetStatus());
            set.getStatus().setCurrentRevision(oldRevision);
        }

        Random random = new Random(42);
        settledPods = new ArrayList<>(pods);
        rolloutPods = new ArrayList<>(pods);
        for (int i = 0; i < pods; i++) {
            settledPods.add(pod(i, newRevision, random));
            // Highest ordinals first, as a rolling update goes: the top 40% are already updated.
            rolloutPods.add(pod(i, i >= pods * 6 / 10 ? newRevision : oldRevision, random));
        }
        scenarios = Map.of("steady", new Case(steady, settledPods), "inPlaceRollout", new Case(rollout, rolloutPods),
                "priorityRollout", new Case(priorityRollout, rolloutPods), "scaleDownBy100", new Case(scaleDown, settledPods),
                "largestReplicas", new Case(largest, settledPods));
    }

    private Pod pod(int ordinal, String revision, Random random) {
        return new PodBuilder().withNewMetadata().withName(PodOrdinals.podName("db", ordinal)).withNamespace("default")
                .withUid("uid-" + ordinal).withCreationTimestamp(NOW.minusSeconds(3600 + random.nextInt(600)).toString())
                .addToLabels("app", "db").addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision)
                .addToLabels(StatefulSetPods.POD_NAME_LABEL, PodOrdinals.podName("db", ordinal))
                .addToLabels("tier", ordinal % 10 == 0 ? "canary" : "main")
                .addToLabels("zone", ordinal % 3 == 0 ? "a" : "b")
                .endMetadata()
                .withNewSpec().withNodeName("node-" + random.nextInt(100)).addNewContainer().withName("main")
                .withImage(revision.equals(newRevision) ? "nginx:2" : "nginx:1").endContainer().addNewReadinessGate()
                .withConditionType(WellKnown.INPLACE_UPDATE_READY_CONDITION).endReadinessGate().endSpec()
                .withNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("True")
                .withLastTransitionTime(NOW.minusSeconds(60 + random.nextInt(3000)).toString()).endCondition()
                .addNewCondition().withType(WellKnown.INPLACE_UPDATE_READY_CONDITION).withStatus("True").endCondition()
                .endStatus().build();
    }

    private static UpdatePriorityWeightTerm weight(int weight, String key, String value) {
        UpdatePriorityWeightTerm t = new UpdatePriorityWeightTerm();
        t.setWeight(weight);
        t.setMatchSelector(new LabelSelectorBuilder().addToMatchLabels(key, value).build());
        return t;
    }

    private static StatefulSet statefulSet(int replicas, String image) {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName("db").withNamespace("default").withUid("sts-uid")
                .withGeneration(2L).build());
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setReplicas(replicas);
        spec.setServiceName("db");
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "db").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "db").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer().endSpec().build());
        set.setSpec(spec);
        return set;
    }

    private static RollingUpdateStatefulSetStrategy rollingUpdate(StatefulSet set) {
        StatefulSetUpdateStrategy us = new StatefulSetUpdateStrategy();
        us.setRollingUpdate(new RollingUpdateStatefulSetStrategy());
        set.getSpec().setUpdateStrategy(us);
        return us.getRollingUpdate();
    }

    /**
     * The decision of one reconcile through the controller's own steps: the snapshot as the cache reader builds it,
     * the revisions resolved, the state builder, the planner (every decision, with the upkeep and refresh of every
     * pod), the status.
     */
    private Decision decide(StatefulSet set, List<Pod> podList) {
        StatefulSetSnapshot snap = StatefulSetSnapshot.of(set, DesiredOrdinals.of(set.getSpec().getReplicas(), 0,
                set.getSpec().getReserveOrdinals()), podList, List.of(), List.of(), history, Map.of());
        TemplateRevisions.Resolution revs = StatefulSetRevisions.resolve(set, snap.history());
        StatefulSetPlanner.Input input = StatefulSetStateBuilder.build(snap, revs, GATES, NOW);
        StatefulSetPlan plan = StatefulSetPlanner.plan(input);
        StatefulSetStatus status = StatefulSetStatusCalculator.calculate(input, revs.collisionCount(), null,
                StatefulSetClaims.status(set, snap.desired(), (ns, name) -> null, List::of));
        return new Decision(plan, status);
    }

    public record Decision(StatefulSetPlan plan, StatefulSetStatus status) {
    }

    /** Which reconcile {@link #decide(Scenario)} measures: one of the sets above with its pods. */
    @State(Scope.Benchmark)
    public static class Scenario {
        @Param({"steady", "inPlaceRollout", "priorityRollout", "scaleDownBy100", "largestReplicas"})
        public String scenario;
    }

    private record Case(StatefulSet set, List<Pod> pods) {
    }

    @Benchmark
    public Decision decide(Scenario scenario) {
        return decide(scenario.scenario);
    }

    /** The decision of one named scenario (see the sets' comments). */
    Decision decide(String scenario) {
        Case c = scenarios.get(scenario);
        if (c == null) {
            throw new IllegalArgumentException("unknown scenario " + scenario + ", expected one of " + scenarios.keySet());
        }
        return decide(c.set(), c.pods());
    }

    @Benchmark
    public ControllerRevision revisionOnly() {
        return StatefulSetRevisions.resolve(rollout, history).update();
    }

    @Benchmark
    public StatefulSetStatus statusOnly() {
        return StatefulSetStatusCalculator.calculate(rollout, rolloutPods,
                p -> Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL), oldRevision, newRevision, pods, 0, NOW,
                0, List.of(), List.of());
    }
}
