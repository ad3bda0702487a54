package dev.kruisevertx.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobStatus;
import dev.kruisevertx.controller.PlanSummary;

import java.time.Duration;
import java.util.List;

/**
 * What one EphemeralJob reconcile does, decided by {@link EphemeralJobDecision}.
 *
 * @param addFinalizer    the job lacks {@code apps.kruise.io/ephemeralcontainers-cleanup}: add it first
 * @param removeFinalizer the job is being deleted: let it go (the containers it added cannot be removed from pods)
 * @param deleteJob       the job finished and its TTL passed: delete it (nothing else happens)
 * @param status          the status to write (null when it does not change)
 * @param injectInto      names of the pods to add the template's ephemeral containers to, in order
 * @param requeueAfter    when to look again (deadline, TTL), null for never
 * @param reason          the decision in a few words, for the debug plan
 * @param holds           what keeps the job from adding containers (for {@code kubectl kruise why})
 */
public record EphemeralJobPlan(boolean addFinalizer, boolean removeFinalizer, boolean deleteJob,
                               EphemeralJobStatus status, List<String> injectInto, Duration requeueAfter,
                               String reason, List<dev.kruisevertx.controller.reason.BlockReason> holds) {

    public EphemeralJobPlan(boolean addFinalizer, boolean removeFinalizer, boolean deleteJob,
                            EphemeralJobStatus status, List<String> injectInto, Duration requeueAfter, String reason) {
        this(addFinalizer, removeFinalizer, deleteJob, status, injectInto, requeueAfter, reason, List.of());
    }

    static EphemeralJobPlan release(String reason) {
        return new EphemeralJobPlan(false, true, false, null, List.of(), null, reason);
    }

    static EphemeralJobPlan expire() {
        return new EphemeralJobPlan(false, false, true, null, List.of(), null,
                "finished and ttlSecondsAfterFinished passed");
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason).reasons(holds).count("inject", injectInto.size());
        if (status != null) {
            b.count("match", status.getMatch()).count("running", status.getRunning())
                    .count("succeeded", status.getSucceeded()).count("failed", status.getFailed())
                    .count("waiting", status.getWaiting());
        }
        if (addFinalizer) {
            b.action("add finalizer " + EphemeralJobDecision.FINALIZER);
        }
        if (removeFinalizer) {
            b.action("remove finalizer " + EphemeralJobDecision.FINALIZER);
        }
        if (deleteJob) {
            b.action("delete the job: ttlSecondsAfterFinished passed");
        }
        for (String pod : injectInto) {
            b.action("add ephemeral containers to pod " + pod);
        }
        if (requeueAfter != null) {
            b.action("next look in " + requeueAfter);
        }
        return b.build();
    }
}
