package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

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
 * ({@link SubsetStatusCalculation}).
 */
public final class WorkloadSpreadDecision {
    private WorkloadSpreadDecision() {
    }

    /** What the decision reads. */
    public record Snapshot(WorkloadSpread ws, List<Pod> pods, int workloadReplicas, String latestVersion,
                           Function<String, Node> nodes) {
    }

    public static WorkloadSpreadPlan decide(Snapshot s, PodVersions versions, Instant now) {
        WorkloadSpread ws = s.ws();
        if (ws.getSpec() == null || ws.getSpec().getTargetRef() == null) {
            return WorkloadSpreadPlan.skip("no targetRef");
        }
        List<Pod> selected = new ArrayList<>();
        for (Pod p : s.pods()) {
            try {
                if (ws.getSpec().getTargetFilter() == null || ws.getSpec().getTargetFilter().getSelector() == null
                        || WorkloadSpreads.isPodSelected(ws.getSpec().getTargetFilter(), dev.kruisevertx.podutil.Pods.labels(p))) {
                    selected.add(p);
                }
            } catch (IllegalArgumentException e) {
                return WorkloadSpreadPlan.skip("targetFilter selector cannot be read");
            }
        }
        PodGrouping.Result grouping = PodGrouping.group(ws, selected, versions, s.workloadReplicas(), s.nodes());
        List<DeletionCost.Assignment> costs = new ArrayList<>();
        if (DeletionCost.appliesTo(ws.getSpec().getTargetRef())) {
            for (Map.Entry<String, Map<String, List<Pod>>> e : grouping.versioned().entrySet()) {
                costs.addAll(DeletionCost.plan(ws, e.getValue(), s.workloadReplicas(),
                        !e.getKey().equals(s.latestVersion())));
            }
        }
        SubsetStatusCalculation.Result calc = SubsetStatusCalculation.calculate(ws, grouping.versioned(),
                grouping.bySubset(), s.workloadReplicas(), now);
        boolean changed = !Objects.equals(ApiJson.toJson(ws.status()), ApiJson.toJson(calc.status()));
        List<Pod> rescheduled = new ArrayList<>();
        calc.scheduleFailedPods().values().forEach(rescheduled::addAll);
        return new WorkloadSpreadPlan("", grouping.patches(), costs, changed ? calc.status() : null, rescheduled,
                calc.requeueAfter(), selected.size());
    }
}
