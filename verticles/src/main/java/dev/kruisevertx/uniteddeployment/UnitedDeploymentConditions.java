package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.Subset;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import dev.kruisevertx.api.common.ApiJson;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code status.conditions} and the status steps around the calculator, as OpenKruise v1.9.0's reconcile sets them.
 * Pure.
 *
 * <ul>
 *   <li>{@code UnitedDeploymentUpdated}: False (reason {@code UnitedDeploymentRevisionUpdating}, "updating to
 *       revision R") while {@code status.currentRevision} differs from the revision the subsets should be at, True
 *       ({@code UnitedDeploymentRevisionUpdated}, "updated to revision R") once it is the same; decided before the
 *       status moves {@code currentRevision};</li>
 *   <li>{@code SubsetProvisioned}: True (no reason) once a reconcile created or deleted subset workloads without
 *       error;</li>
 *   <li>{@code SubsetUpdated}: True (no reason) after every reconcile whose subset writes all went through;</li>
 *   <li>{@code SubsetFailure}: removed (OpenKruise's adapters never report a subset failure).</li>
 * </ul>
 * A condition whose status and reason do not change keeps its transition time. As in OpenKruise, a reconcile whose
 * writes fail writes no status, so the False forms of SubsetProvisioned/SubsetUpdated are never stored.
 */
public final class UnitedDeploymentConditions {
    static final String REVISION_UPDATING = "UnitedDeploymentRevisionUpdating";
    static final String REVISION_UPDATED = "UnitedDeploymentRevisionUpdated";

    private UnitedDeploymentConditions() {
    }

    /**
     * A copy of {@code old} with a subset status for every topology subset (OpenKruise's initStatus); in reservation
     * mode a subset added to a topology that already had subsets starts Schedulable=False (reason {@code created}),
     * so its first pods count as reserved until they run.
     */
    public static UnitedDeploymentStatus initStatus(UnitedDeployment ud, Instant now) {
        UnitedDeploymentStatus status = ud.getStatus() == null ? new UnitedDeploymentStatus()
                : ApiJson.serialization().convertValue(ud.getStatus(), UnitedDeploymentStatus.class);
        List<UnitedDeploymentSubsetStatus> subsets = status.getSubsetStatuses() == null ? new ArrayList<>()
                : new ArrayList<>(status.getSubsetStatuses());
        boolean added = !subsets.isEmpty();
        for (Subset s : ud.spec().topology().subsets()) {
            if (subsets.stream().anyMatch(x -> s.getName().equals(x.getName()))) {
                continue;
            }
            UnitedDeploymentSubsetStatus ss = new UnitedDeploymentSubsetStatus();
            ss.setName(s.getName());
            if (added && ud.spec().topology().scheduleStrategy().reservationMode()) {
                AdaptiveScheduling.setCondition(ss, "False", "created", "newly-created subsets in reservation strategy",
                        now);
            }
            subsets.add(ss);
        }
        status.setSubsetStatuses(subsets.isEmpty() ? null : subsets);
        return status;
    }

    /** Sets UnitedDeploymentUpdated from the status's current revision and the revision wanted now. */
    public static void setUpdated(UnitedDeploymentStatus status, String updatedRevision, Instant now) {
        String current = status.getCurrentRevision() == null || status.getCurrentRevision().isEmpty()
                ? updatedRevision : status.getCurrentRevision();
        if (current.equals(updatedRevision)) {
            set(status, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED, "True", REVISION_UPDATED,
                    "updated to revision " + updatedRevision, now);
        } else {
            set(status, UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED, "False", REVISION_UPDATING,
                    "updating to revision " + updatedRevision, now);
        }
    }

    /**
     * The last steps on the calculator's status after the plan's writes went through: SubsetProvisioned,
     * SubsetUpdated and SubsetFailure; in reservation mode the reserved pods (not counted in {@code replicas}) and
     * the selector of the pods that count.
     */
    public static void finish(UnitedDeploymentStatus status, UnitedDeploymentPlan plan, boolean reservation,
                              Map<String, Integer> reservedPods, Instant now) {
        if (!plan.creates().isEmpty() || !plan.deletes().isEmpty()) {
            set(status, UnitedDeploymentCondition.SUBSET_PROVISIONED, "True", "", "", now);
        }
        set(status, UnitedDeploymentCondition.SUBSET_UPDATED, "True", "", "", now);
        remove(status, UnitedDeploymentCondition.SUBSET_FAILURE);
        if (status.getUpdateStatus() != null && status.getUpdateStatus().getUpdatedRevision() != null) {
            // The calculator may just have moved currentRevision. OpenKruise's next reconcile (started by its own
            // status write) turns UnitedDeploymentUpdated True; here a status-only change starts no reconcile, so
            // the same write carries it.
            setUpdated(status, status.getUpdateStatus().getUpdatedRevision(), now);
        }
        if (!reservation) {
            return;
        }
        int total = 0;
        for (Map.Entry<String, Integer> e : reservedPods.entrySet()) {
            total += e.getValue();
            UnitedDeploymentSubsetStatus ss = subsetStatus(status, e.getKey());
            ss.setReservedPods(e.getValue());
        }
        status.setReplicas(status.getReplicas() - total);
        status.setReservedPods(total);
        if (status.getLabelSelector() != null) {
            status.setLabelSelector(status.getLabelSelector() + "," + UnitedDeployment.RESERVED_POD_LABEL + "=false");
        }
    }

    /** OpenKruise's SetUnitedDeploymentCondition: no change for the same status and reason. */
    static void set(UnitedDeploymentStatus status, String type, String value, String reason, String message,
                    Instant now) {
        UnitedDeploymentCondition current = get(status, type);
        if (current != null && value.equals(current.getStatus()) && reason.equals(nullToEmpty(current.getReason()))) {
            return;
        }
        UnitedDeploymentCondition c = new UnitedDeploymentCondition();
        c.setType(type);
        c.setStatus(value);
        c.setReason(reason.isEmpty() ? null : reason);
        c.setMessage(message.isEmpty() ? null : message);
        c.setLastTransitionTime(current != null && value.equals(current.getStatus()) ? current.getLastTransitionTime()
                : timestamp(now));
        remove(status, type);
        List<UnitedDeploymentCondition> conditions = status.getConditions() == null ? new ArrayList<>()
                : new ArrayList<>(status.getConditions());
        conditions.add(c);
        status.setConditions(conditions);
    }

    static void remove(UnitedDeploymentStatus status, String type) {
        if (status.getConditions() == null) {
            return;
        }
        List<UnitedDeploymentCondition> kept = new ArrayList<>(status.getConditions());
        kept.removeIf(c -> type.equals(c.getType()));
        status.setConditions(kept.isEmpty() ? null : kept);
    }

    static UnitedDeploymentCondition get(UnitedDeploymentStatus status, String type) {
        if (status.getConditions() == null) {
            return null;
        }
        return status.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    /** The subset's status, added when missing. */
    static UnitedDeploymentSubsetStatus subsetStatus(UnitedDeploymentStatus status, String name) {
        List<UnitedDeploymentSubsetStatus> subsets = status.getSubsetStatuses() == null ? new ArrayList<>()
                : new ArrayList<>(status.getSubsetStatuses());
        for (UnitedDeploymentSubsetStatus ss : subsets) {
            if (name.equals(ss.getName())) {
                return ss;
            }
        }
        UnitedDeploymentSubsetStatus ss = new UnitedDeploymentSubsetStatus();
        ss.setName(name);
        subsets.add(ss);
        status.setSubsetStatuses(subsets);
        return ss;
    }

    /** Kubernetes' metav1.Time form: whole seconds. */
    static String timestamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
