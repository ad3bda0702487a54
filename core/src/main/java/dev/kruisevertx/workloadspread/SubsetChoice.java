package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadStatus;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The subset a pod goes to when the webhook admits its creation, and the status record of the creation or deletion,
 * as OpenKruise's pod webhook computes them. Pure: the caller writes {@link Decision#status()} to the WorkloadSpread's
 * status subresource (retrying on conflict with a fresh object) when {@link Decision#statusChanged()}.
 *
 * <p>The records live in {@code status.versionedSubsetStatuses[version]} (the pod's version, or
 * {@value WorkloadSpreads#VERSION_IGNORED}); when that entry is missing it starts from the spec, each subset missing
 * its whole {@code maxReplicas} (-1 without one). A create goes to the first subset that is not marked unschedulable
 * and still misses pods (or has no limit); a subset without a limit is not recorded.
 */
public final class SubsetChoice {
    private static final Pattern STATEFUL_POD = Pattern.compile("(.*)-([0-9]+)$");

    private SubsetChoice() {
    }

    /**
     * What the admission step decided.
     *
     * @param subset        the chosen subset, null when none
     * @param statusChanged whether {@link #status} must be written
     * @param generatedUid  the id a nameless pod's creation was recorded under, "" otherwise
     * @param status        the WorkloadSpread's whole new status (a copy) when changed, null otherwise
     */
    public record Decision(String subset, boolean statusChanged, String generatedUid, WorkloadSpreadStatus status) {
        static Decision unchanged(String subset) {
            return new Decision(subset, false, "", null);
        }
    }

    /**
     * The subset for a pod being created.
     *
     * @param workloadReplicas the workload's (filtered) replicas; read only when a percentage limit needs it
     * @param uids             a fresh unique id for a pod without a name (generateName)
     */
    public static Decision forCreate(WorkloadSpread ws, Pod pod, PodVersions versions, IntSupplier workloadReplicas,
                                     Instant now, Supplier<String> uids) {
        Decision shortcut = shortcut(ws, pod);
        if (shortcut != null) {
            return shortcut;
        }
        WorkloadSpreadStatus status = copy(ws.status());
        List<WorkloadSpreadSubsetStatus> subsets = versionStatuses(ws, status, versions.of(pod), workloadReplicas);
        String podName = name(pod);
        if (!podName.isEmpty()) {
            WorkloadSpreadSubsetStatus recorded = recordedIn(subsets, podName);
            if (recorded != null) {
                return Decision.unchanged(recorded.getName());
            }
        }
        WorkloadSpreadSubsetStatus chosen = null;
        for (WorkloadSpreadSubsetStatus s : subsets) {
            if (WorkloadSpreads.isSchedulable(s) && (s.getMissingReplicas() > 0 || s.getMissingReplicas() == -1)) {
                chosen = s;
                break;
            }
        }
        if (chosen == null) {
            return Decision.unchanged(null);
        }
        if (chosen.getMissingReplicas() == -1) {
            return Decision.unchanged(chosen.getName());
        }
        String uid = "";
        String key = podName;
        if (podName.isEmpty()) {
            uid = uids.get();
            key = uid;
        }
        Map<String, String> creating = chosen.getCreatingPods() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(chosen.getCreatingPods());
        creating.put(key, Pods.formatTime(now));
        chosen.setCreatingPods(creating);
        if (chosen.getMissingReplicas() > 0) {
            chosen.setMissingReplicas(chosen.getMissingReplicas() - 1);
        }
        return new Decision(chosen.getName(), true, uid, status);
    }

    /**
     * The record of a pod being deleted or evicted from the subset its annotation names: the subset misses one
     * more pod until the controller sees the pod go. Nothing when the pod is already recorded, its subset is gone
     * or has no limit.
     */
    public static Decision forDeletion(WorkloadSpread ws, Pod pod, MatchedWorkloadSpread injected,
                                       PodVersions versions, IntSupplier workloadReplicas, Instant now) {
        Decision shortcut = shortcut(ws, pod);
        if (shortcut != null) {
            return shortcut;
        }
        WorkloadSpreadStatus status = copy(ws.status());
        List<WorkloadSpreadSubsetStatus> subsets = versionStatuses(ws, status, versions.of(pod), workloadReplicas);
        String podName = name(pod);
        if (recordedIn(subsets, podName) != null) {
            return Decision.unchanged(null);
        }
        WorkloadSpreadSubsetStatus subset = WorkloadSpreads.statusNamed(subsets, injected.subset());
        if (subset == null) {
            return Decision.unchanged(null);
        }
        if (subset.getMissingReplicas() == -1) {
            return Decision.unchanged(subset.getName());
        }
        Map<String, String> deleting = subset.getDeletingPods() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(subset.getDeletingPods());
        deleting.put(podName, Pods.formatTime(now));
        subset.setDeletingPods(deleting);
        if (subset.getMissingReplicas() >= 0) {
            subset.setMissingReplicas(subset.getMissingReplicas() + 1);
        }
        return new Decision(subset.getName(), true, "", status);
    }

    /**
     * The two cases that need no status: a single subset without a limit takes every pod, and a StatefulSet's
     * pods go by ordinal ({@link #forStatefulPod}). Null otherwise.
     */
    private static Decision shortcut(WorkloadSpread ws, Pod pod) {
        List<WorkloadSpreadSubset> subsets = ws.spec().subsets();
        if (subsets.size() == 1 && subsets.get(0).getMaxReplicas() == null) {
            return Decision.unchanged(subsets.get(0).getName());
        }
        if (ws.spec().getTargetRef() != null && "StatefulSet".equals(ws.spec().getTargetRef().getKind())) {
            return Decision.unchanged(forStatefulPod(ws, name(pod)));
        }
        return null;
    }

    /**
     * A StatefulSet pod's subset by its ordinal: subsets not marked unschedulable are filled in order, each taking
     * the ordinals below the running sum of their {@code maxReplicas} (no limit: the int32 maximum; a percentage
     * counts as 0). A name without an ordinal counts as -1 (first subset). Null when the ordinal is past every limit.
     */
    public static String forStatefulPod(WorkloadSpread ws, String podName) {
        long threshold = 0;
        int ordinal = ordinal(podName);
        for (WorkloadSpreadSubset subset : ws.spec().subsets()) {
            WorkloadSpreadSubsetStatus status = WorkloadSpreads.statusNamed(ws.status().subsetStatuses(),
                    subset.getName());
            if (status != null && !WorkloadSpreads.isSchedulable(status)) {
                continue;
            }
            threshold += subset.getMaxReplicas() == null ? Integer.MAX_VALUE
                    : WorkloadSpreads.intValue(subset.getMaxReplicas());
            if (ordinal < threshold) {
                return subset.getName();
            }
        }
        return null;
    }

    /** The ordinal of a StatefulSet pod name ({@code <parent>-<n>}), -1 when there is none or it overflows int32. */
    static int ordinal(String podName) {
        Matcher m = STATEFUL_POD.matcher(podName == null ? "" : podName);
        if (!m.matches()) {
            return -1;
        }
        try {
            return Integer.parseInt(m.group(2));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The subset entries of {@code version} in {@code status}, created from the spec when missing or empty (and
     * stored there, so a write keeps them).
     */
    static List<WorkloadSpreadSubsetStatus> versionStatuses(WorkloadSpread ws, WorkloadSpreadStatus status,
                                                            String version, IntSupplier workloadReplicas) {
        Map<String, List<WorkloadSpreadSubsetStatus>> versioned = status.getVersionedSubsetStatuses();
        List<WorkloadSpreadSubsetStatus> current = versioned == null ? null : versioned.get(version);
        if (current != null && !current.isEmpty()) {
            return current;
        }
        List<WorkloadSpreadSubsetStatus> initial = initialStatuses(ws, workloadReplicas);
        if (versioned == null) {
            versioned = new LinkedHashMap<>();
            status.setVersionedSubsetStatuses(versioned);
        }
        versioned.put(version, initial);
        return initial;
    }

    /**
     * One entry per subset: missing its whole {@code maxReplicas} (a percentage of the workload's replicas, rounded
     * up; an unreadable one counts as 0), or -1 without a limit. The replicas are only read when a limit is a
     * percentage, as in OpenKruise.
     */
    public static List<WorkloadSpreadSubsetStatus> initialStatuses(WorkloadSpread ws, IntSupplier workloadReplicas) {
        int replicas = WorkloadSpreads.hasPercentSubset(ws) ? workloadReplicas.getAsInt() : 0;
        List<WorkloadSpreadSubsetStatus> out = new ArrayList<>();
        for (WorkloadSpreadSubset subset : ws.spec().subsets()) {
            int missing = subset.getMaxReplicas() == null ? -1
                    : WorkloadSpreads.scaled(subset.getMaxReplicas(), replicas, true).orElse(0);
            out.add(new WorkloadSpreadSubsetStatus(subset.getName(), 0, missing));
        }
        return out;
    }

    private static WorkloadSpreadSubsetStatus recordedIn(List<WorkloadSpreadSubsetStatus> subsets, String podName) {
        for (WorkloadSpreadSubsetStatus s : subsets) {
            if (s.creatingPods().containsKey(podName) || s.deletingPods().containsKey(podName)) {
                return s;
            }
        }
        return null;
    }

    private static String name(Pod pod) {
        return pod.getMetadata() == null || pod.getMetadata().getName() == null ? "" : pod.getMetadata().getName();
    }

    /** A deep copy of the subset entries, so the cached object the decision started from is never changed. */
    static WorkloadSpreadStatus copy(WorkloadSpreadStatus status) {
        WorkloadSpreadStatus c = new WorkloadSpreadStatus();
        c.setObservedGeneration(status.getObservedGeneration());
        c.setSubsetStatuses(copyList(status.getSubsetStatuses()));
        if (status.getVersionedSubsetStatuses() != null) {
            Map<String, List<WorkloadSpreadSubsetStatus>> versioned = new LinkedHashMap<>();
            status.getVersionedSubsetStatuses().forEach((k, v) -> versioned.put(k, copyList(v)));
            c.setVersionedSubsetStatuses(versioned);
        }
        status.getAdditionalProperties().forEach(c::setAdditionalProperty);
        return c;
    }

    private static List<WorkloadSpreadSubsetStatus> copyList(List<WorkloadSpreadSubsetStatus> list) {
        if (list == null) {
            return null;
        }
        List<WorkloadSpreadSubsetStatus> out = new ArrayList<>(list.size());
        for (WorkloadSpreadSubsetStatus s : list) {
            out.add(s == null ? null : s.copy());
        }
        return out;
    }
}
