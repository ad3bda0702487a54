package dev.kruisevertx.resourcedistribution;

import dev.kruisevertx.controller.PlanSummary;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the resourcedistribution controller will do for one distribution: a step per namespace (target or holding a
 * copy), and how many namespaces are targets.
 */
public record ResourceDistributionPlan(DistributedResource resource, List<CopyDecision.Step> steps, int desired) {
    public ResourceDistributionPlan {
        steps = List.copyOf(steps);
    }

    /** The steps that write: create, update, delete. */
    public List<CopyDecision.Step> writes() {
        return steps.stream().filter(s -> s.action() == CopyDecision.Action.CREATE
                || s.action() == CopyDecision.Action.UPDATE || s.action() == CopyDecision.Action.DELETE).toList();
    }

    /** Names, counts and reasons only: never the resource's content. */
    public PlanSummary debugSummary() {
        Map<CopyDecision.Action, Long> counts = new EnumMap<>(CopyDecision.Action.class);
        for (CopyDecision.Step s : steps) {
            counts.merge(s.action(), 1L, Long::sum);
        }
        PlanSummary.Builder b = PlanSummary.builder(resource.kind() + " " + resource.name() + " to " + desired
                + " namespace(s)");
        b.count("desired", desired);
        counts.forEach((action, n) -> b.count(action.name().toLowerCase(), n));
        for (CopyDecision.Step s : steps) {
            if (s.action() != CopyDecision.Action.IN_SYNC && s.action() != CopyDecision.Action.NOTHING) {
                b.action(s.action().name().toLowerCase() + " " + s.namespace() + ": " + s.reason());
            }
        }
        return b.build();
    }
}
