package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.BlockReason;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one SidecarSet reconcile does, decided by {@link SidecarSetPlanner}.
 *
 * @param set           the SidecarSet with the status it will have (pods record its latest revision)
 * @param revisions     the latest revision and what to create or renumber for it
 * @param prune         revisions beyond revisionHistoryLimit to delete
 * @param status        the status to write, null when it does not change
 * @param resets        pods whose idle hot-upgrade container goes back to the empty image
 * @param upgrades      pods whose sidecars get the SidecarSet's images now
 * @param notUpgradable pods whose other sidecar fields changed (condition SidecarSetUpgradable False)
 * @param requeueAfter  when to look again (the cache has not shown our writes yet), null for never
 * @param reason        the decision in a few words
 * @param reasons       what holds pods back
 */
public record SidecarSetPlan(SidecarSet set, SidecarSetRevisions.Resolution revisions, List<ControllerRevision> prune,
                             SidecarSetStatus status, List<Pod> resets, List<Pod> upgrades, List<Pod> notUpgradable,
                             Duration requeueAfter, String reason, List<BlockReason> reasons) {

    public SidecarSetPlan withReasons(List<BlockReason> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<BlockReason> all = new ArrayList<>(reasons);
        all.addAll(more);
        return new SidecarSetPlan(set, revisions, prune, status, resets, upgrades, notUpgradable, requeueAfter, reason,
                List.copyOf(all));
    }

    /** Names, counts and reasons only. */
    public PlanSummary debugSummary() {
        SidecarSetStatus s = status != null ? status : set.getStatus();
        PlanSummary.Builder b = PlanSummary.builder(reason).reasons(reasons)
                .count("upgrade", upgrades.size()).count("resetIdle", resets.size())
                .count("notUpgradable", notUpgradable.size());
        if (s != null) {
            b.count("matched", n(s.getMatchedPods())).count("updated", n(s.getUpdatedPods()))
                    .count("ready", n(s.getReadyPods())).count("updatedReady", n(s.getUpdatedReadyPods()));
        }
        b.action("latest revision " + revisions.latest().getMetadata().getName()
                + (revisions.toCreate() != null ? " (create)" : revisions.renumber() != null ? " (rollback: renumber)" : ""));
        prune.forEach(r -> b.action("delete revision " + r.getMetadata().getName() + ": beyond revisionHistoryLimit"));
        resets.forEach(p -> b.action("reset the idle hot-upgrade container of pod " + p.getMetadata().getName()
                + " to the empty image"));
        upgrades.forEach(p -> b.action("upgrade the sidecars of pod " + p.getMetadata().getName() + " in place"));
        notUpgradable.forEach(p -> b.action("pod " + p.getMetadata().getName()
                + " is not upgradable: other sidecar fields than images changed"));
        if (requeueAfter != null) {
            b.action("next look in " + requeueAfter);
        }
        return b.build();
    }

    private static long n(Integer v) {
        return v == null ? 0 : v;
    }
}
