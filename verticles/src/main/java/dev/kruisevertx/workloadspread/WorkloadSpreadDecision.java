package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The pure decide step of the workloadspread controller (OpenKruise v1.9's {@code syncWorkloadSpread}): groups the
 * workload's pods by version and subset ({@link PodGrouping}), assigns deletion costs per version with the subset
 * order reversed for versions other than the latest ({@link DeletionCost}), and calculates the status
 * ({@link SubsetStatusCalculation}). Nothing is decided while pods this controller patched are not yet shown by the
 * cache at the version the patch returned (a decision on older copies would patch them again).
 */
public final class WorkloadSpreadDecision {
    /** How soon a decision held by the controller's own unseen pod writes is retried (pod events also wake it). */
    static final Duration EXPECTATIONS_RECHECK = Duration.ofSeconds(1);

    private WorkloadSpreadDecision() {
    }

    /**
     * What the decision reads.
     *
     * @param pods         the target's pods (null when the target is gone: decided as no pods and 0 replicas, as
     *                     OpenKruise)
     * @param pendingWrites names of pods this controller patched that the cache does not yet show patched
     */
    public record Snapshot(WorkloadSpread ws, List<Pod> pods, int workloadReplicas, String latestVersion,
                           Function<String, Node> nodes, List<String> pendingWrites) {
        public Snapshot(WorkloadSpread ws, List<Pod> pods, int workloadReplicas, String latestVersion,
                        Function<String, Node> nodes) {
            this(ws, pods, workloadReplicas, latestVersion, nodes, List.of());
        }
    }

    public static WorkloadSpreadPlan decide(Snapshot s, PodVersions versions, Instant now) {
        WorkloadSpread ws = s.ws();
        if (ws.getSpec() == null || ws.getSpec().getTargetRef() == null) {
            return WorkloadSpreadPlan.skip("no targetRef");
        }
        if (!s.pendingWrites().isEmpty()) {
            List<String> names = new ArrayList<>(s.pendingWrites());
            names.sort(null);
            return WorkloadSpreadPlan.waiting(Reasons.expectations("this controller's patches of "
                    + Reasons.pods(names.size()), names), EXPECTATIONS_RECHECK);
        }
        List<Pod> selected = new ArrayList<>();
        for (Pod p : s.pods() == null ? List.<Pod>of() : s.pods()) {
            try {
                if (ws.getSpec().getTargetFilter() == null || ws.getSpec().getTargetFilter().getSelector() == null
                        || WorkloadSpreads.isPodSelected(ws.getSpec().getTargetFilter(), Pods.labels(p))) {
                    selected.add(p);
                }
            } catch (IllegalArgumentException e) {
                return WorkloadSpreadPlan.skip("targetFilter selector cannot be read");
            }
        }
        int replicas = Math.max(0, s.workloadReplicas());
        PodGrouping.Result grouping = PodGrouping.group(ws, selected, versions, replicas, s.nodes());
        List<DeletionCost.Assignment> costs = new ArrayList<>();
        if (DeletionCost.appliesTo(ws.getSpec().getTargetRef())) {
            for (Map.Entry<String, Map<String, List<Pod>>> e : grouping.versioned().entrySet()) {
                costs.addAll(DeletionCost.plan(ws, e.getValue(), replicas,
                        !e.getKey().equals(s.latestVersion())));
            }
        }
        SubsetStatusCalculation.Result calc = SubsetStatusCalculation.calculate(ws, grouping.versioned(),
                grouping.bySubset(), replicas, now);
        boolean changed = !Objects.equals(ApiJson.toJson(ws.status()), ApiJson.toJson(calc.status()));
        List<Pod> rescheduled = new ArrayList<>();
        calc.scheduleFailedPods().values().forEach(rescheduled::addAll);
        return new WorkloadSpreadPlan("", grouping.patches(), costs,
                changed ? calc.status() : null, rescheduled, calc.requeueAfter(), selected.size(), calc.events(),
                unschedulableSubsets(ws, calc, now));
    }

    /**
     * A subset marked Schedulable=False by the Adaptive strategy holds new pods back from it until it recovers
     * ({@link WorkloadSpreads#MAX_SCHEDULED_FAILED_DURATION} after it was marked).
     */
    static List<BlockReason> unschedulableSubsets(WorkloadSpread ws, SubsetStatusCalculation.Result calc, Instant now) {
        List<BlockReason> out = new ArrayList<>();
        List<WorkloadSpreadSubsetStatus> statuses = calc.status().getSubsetStatuses();
        if (statuses == null) {
            return out;
        }
        int seconds = ws.spec().scheduleStrategy().getAdaptive() == null
                || ws.spec().scheduleStrategy().getAdaptive().getRescheduleCriticalSeconds() == null ? 0
                : ws.spec().scheduleStrategy().getAdaptive().getRescheduleCriticalSeconds();
        for (WorkloadSpreadSubsetStatus st : statuses) {
            for (WorkloadSpreadSubsetCondition c : st.conditions()) {
                if (!WorkloadSpreadSubsetCondition.SCHEDULABLE.equals(c.getType()) || !"False".equals(c.getStatus())) {
                    continue;
                }
                Instant since = Pods.parseTime(c.getLastTransitionTime());
                Duration left = since == null ? Duration.ZERO
                        : Duration.between(now, since.plus(WorkloadSpreads.MAX_SCHEDULED_FAILED_DURATION));
                List<String> failed = new ArrayList<>();
                for (Pod p : calc.scheduleFailedPods().getOrDefault(st.getName(), List.of())) {
                    failed.add(p.getMetadata().getName());
                }
                out.add(Reasons.subsetUnschedulable(st.getName(), seconds, failed,
                        left.isNegative() ? Duration.ZERO : left));
            }
        }
        return out;
    }
}
