package dev.kruisevertx.bench.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.bench.DecisionBenchmark;
import dev.kruisevertx.cloneset.CloneSetDiff;
import dev.kruisevertx.cloneset.CloneSetPlan;
import dev.kruisevertx.cloneset.CloneSetPlanner;
import dev.kruisevertx.cloneset.CloneSetStatusCalculator;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The decision part of one reconcile of a 1,000-pod CloneSet, from cached objects to a plan: the diff alone,
 * the whole plan mid-rollout (sorting the candidates, limiting by maxUnavailable), a scale-down of 100 (the
 * deletion ranking with the same-node spread rank) and the status; and the first plan of a new CloneSet of 100,000
 * replicas. API calls are not part of it.
 */
public class CloneSetDecisionBenchmark extends DecisionBenchmark {
    private static final String OLD = "web-6d4cf56db6";
    private static final String NEW = "web-7b66b966b7";
    private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

    @Param({"1000"})
    int pods;

    private CloneSet rollout;
    private CloneSet scaleDown;
    private List<Pod> podList;
    private CloneSetPlanner.State rolloutState;
    private CloneSetPlanner.State scaleDownState;
    private CloneSetPlanner.State hugeScaleUpState;

    @Setup
    public void setUp() {
        rollout = cloneSet(pods);
        scaleDown = cloneSet(pods - 100);
        scaleDown.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nginx:2");
        Random random = new Random(42);
        podList = new ArrayList<>(pods);
        for (int i = 0; i < pods; i++) {
            // 40% already updated, spread over 100 nodes, ready since different times.
            String revision = i % 5 < 2 ? NEW : OLD;
            podList.add(new PodBuilder().withNewMetadata().withName(String.format("web-%05d", i)).withNamespace("default")
                    .withUid("uid-" + i).withCreationTimestamp(NOW.minusSeconds(3600 + random.nextInt(600)).toString())
                    .addToLabels("app", "web").addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision)
                    .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_NORMAL)
                    .addToLabels(WellKnown.CLONESET_INSTANCE_ID_LABEL, String.format("i%04d", i))
                    .endMetadata()
                    .withNewSpec().withNodeName("node-" + random.nextInt(100)).addNewContainer().withName("main")
                    .withImage("nginx").endContainer().addNewReadinessGate()
                    .withConditionType(WellKnown.INPLACE_UPDATE_READY_CONDITION).endReadinessGate().endSpec()
                    .withNewStatus().withPhase("Running")
                    .addNewCondition().withType("Ready").withStatus("True")
                    .withLastTransitionTime(NOW.minusSeconds(random.nextInt(3000)).toString()).endCondition()
                    .addNewCondition().withType(WellKnown.INPLACE_UPDATE_READY_CONDITION).withStatus("True").endCondition()
                    .addNewContainerStatus().withName("main").withRestartCount(random.nextInt(3)).endContainerStatus()
                    .endStatus().build());
        }
        CloneSetPlanner.Options options = CloneSetPlanner.Options.defaults();
        rolloutState = new CloneSetPlanner.State(rollout, podList, List.of(), OLD, rollout.getSpec().getTemplate(), NEW,
                options, NOW, Set.of());
        scaleDownState = new CloneSetPlanner.State(scaleDown, podList, List.of(), OLD, scaleDown.getSpec().getTemplate(),
                NEW, options, NOW, Set.of());
        CloneSet huge = cloneSet(100_000);
        hugeScaleUpState = new CloneSetPlanner.State(huge, List.of(), List.of(), NEW, huge.getSpec().getTemplate(), NEW,
                options, NOW, Set.of());
    }

    private static CloneSet cloneSet(int replicas) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("default").withUid("cs-uid").withGeneration(2L).build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:2").endContainer().endSpec().build());
        CloneSetUpdateStrategy us = new CloneSetUpdateStrategy();
        us.setMaxUnavailable(new IntOrString("20%"));
        spec.setUpdateStrategy(us);
        cs.setSpec(spec);
        return cs;
    }

    @Benchmark
    public CloneSetDiff diff() {
        return CloneSetDiff.calculate(rollout, podList, OLD, NEW, false, null, NOW);
    }

    @Benchmark
    public CloneSetPlan planRollout() {
        return CloneSetPlanner.plan(rolloutState, new Random(1));
    }

    @Benchmark
    public CloneSetPlan planScaleDownBy100() {
        return CloneSetPlanner.plan(scaleDownState, new Random(1));
    }

    /** A new CloneSet of 100,000 replicas: one plan holds {@link CloneSetPlanner#MAX_CREATES_PER_PLAN} new pods. */
    @Benchmark
    public CloneSetPlan planScaleUpTo100000() {
        return CloneSetPlanner.plan(hugeScaleUpState, new Random(1));
    }

    @Benchmark
    public CloneSetStatus status() {
        return CloneSetStatusCalculator.calculate(rollout, podList, OLD, NEW, null, null, null, NOW);
    }
}
