package dev.kruisevertx.podreadiness;

import dev.kruisevertx.controller.PlanSummary;

/** What the podreadiness controller will do to one pod, and why. */
public record PodReadinessPlan(Action action, String reason) {
    public enum Action { NONE, ADD_READY_CONDITION }

    /** The view on {@code /debug/plans}: the reason and, when there is one, the action. */
    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason);
        if (action == Action.ADD_READY_CONDITION) {
            b.action("set condition KruisePodReady=True");
        }
        return b.build();
    }

    static PodReadinessPlan none(String reason) {
        return new PodReadinessPlan(Action.NONE, reason);
    }
}
