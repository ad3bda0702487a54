package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.TargetFilter;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/** OpenKruise's WorkloadSpread constants and the small reads every step shares. */
public final class WorkloadSpreads {
    /** Pod annotation naming the WorkloadSpread and subset a pod was admitted into ({@link MatchedWorkloadSpread}). */
    public static final String MATCHED_ANNOTATION = "apps.kruise.io/matched-workloadspread";
    /** Base of the deletion cost of pods a subset keeps: 100 times the subsets after it, plus one. */
    public static final int DELETION_COST_POSITIVE = 100;
    /** Base of the deletion cost of pods over a subset's maxReplicas: -100 times the subset's position. */
    public static final int DELETION_COST_NEGATIVE = -100;
    /** The version of pods whose workload does not use versioned status. */
    public static final String VERSION_IGNORED = "versionIgnored";
    /** How long a creation the webhook recorded waits for the controller to see the pod. */
    public static final Duration CREATE_POD_TIMEOUT = Duration.ofSeconds(30);
    /** How long a deletion the webhook recorded waits for the controller to see the pod go. */
    public static final Duration DELETE_POD_TIMEOUT = Duration.ofSeconds(15);
    /** The bucket of pods that belong to no subset (deleted first on scale-down). */
    public static final String FAKE_SUBSET_NAME = "kruise.io/workloadspread-fake-subset-name";
    /** Annotation on a WorkloadSpread: "true" stops the controller patching a subset's metadata onto existing pods. */
    public static final String IGNORE_PATCH_EXISTING_PODS_ANNOTATION =
            "workloadspread.kruise.io/ignore-patch-existing-pods-metadata";
    /** The longest a pod may stay unschedulable in OpenKruise's model; bounds rescheduleCriticalSeconds. */
    public static final Duration MAX_SCHEDULED_FAILED_DURATION = Duration.ofSeconds(300);
    /** The manager flag naming the kinds with versioned status (in {@code ManagerSettings.extra()}). */
    public static final String VERSIONED_STATUS_FLAG = "ws-enabled-versioned-status";
    /** Default of {@code --ws-enabled-versioned-status}. */
    public static final String DEFAULT_VERSIONED_STATUS_WORKLOADS = "deployment,replicaset";

    private WorkloadSpreads() {
    }

    /**
     * Kubernetes' {@code GetScaledValueFromIntOrPercent}: an int as is; {@code "<n>%"} of {@code total}, rounded up
     * or down. Empty for a string that is not a percentage or whose number is not a Go integer (signs allowed, as
     * Go's Atoi allows them, so {@code "-1%"} scales to a negative value the callers reject).
     */
    public static OptionalInt scaled(IntOrString value, int total, boolean roundUp) {
        if (value == null) {
            return OptionalInt.empty();
        }
        if (value.getIntVal() != null) {
            return OptionalInt.of(value.getIntVal());
        }
        String s = value.getStrVal();
        if (s == null || !s.endsWith("%")) {
            return OptionalInt.empty();
        }
        Integer n = goAtoi(s.substring(0, s.length() - 1));
        if (n == null) {
            return OptionalInt.empty();
        }
        long product = (long) n * total;
        long result = roundUp ? -Math.floorDiv(-product, 100L) : Math.floorDiv(product, 100L);
        return OptionalInt.of((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, result)));
    }

    /** Whether a subset limit is a percentage (a string ending in '%'), which needs the workload's replicas. */
    public static boolean hasPercentSubset(WorkloadSpread ws) {
        for (WorkloadSpreadSubset s : ws.spec().subsets()) {
            IntOrString m = s.getMaxReplicas();
            if (m != null && m.getIntVal() == null && m.getStrVal() != null && m.getStrVal().endsWith("%")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Go's {@code IntOrString.IntValue()}: the int, or the string read by Atoi (0 when it is not a number, so
     * {@code "50%"} gives 0).
     */
    public static int intValue(IntOrString value) {
        if (value.getIntVal() != null) {
            return value.getIntVal();
        }
        Integer n = value.getStrVal() == null ? null : goAtoi(value.getStrVal());
        return n == null ? 0 : n;
    }

    /** Go's strconv.Atoi for int32: optional sign, ASCII digits only; null when not a number or out of range. */
    static Integer goAtoi(String s) {
        int i = 0;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        if (i >= s.length()) {
            return null;
        }
        long n = 0;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            n = n * 10 + (c - '0');
            if (n > (long) Integer.MAX_VALUE + 1) {
                return null;
            }
        }
        long v = negative ? -n : n;
        return v < Integer.MIN_VALUE || v > Integer.MAX_VALUE ? null : (int) v;
    }

    /**
     * OpenKruise's {@code IsPodSelected}: no filter selects every pod; a filter without a selector selects none
     * (a nil selector is "nothing"); an empty selector selects all.
     *
     * @throws IllegalArgumentException for a malformed selector
     */
    public static boolean isPodSelected(TargetFilter filter, Map<String, String> podLabels) {
        if (filter == null) {
            return true;
        }
        LabelSelector selector = filter.getSelector();
        return LabelSelectors.matches(selector, podLabels);
    }

    /** False when the subset carries a Schedulable condition with status False. */
    public static boolean isSchedulable(WorkloadSpreadSubsetStatus status) {
        for (WorkloadSpreadSubsetCondition c : status.conditions()) {
            if (WorkloadSpreadSubsetCondition.SCHEDULABLE.equals(c.getType()) && "False".equals(c.getStatus())) {
                return false;
            }
        }
        return true;
    }

    /** The subset of the spec named {@code name}, or null. */
    public static WorkloadSpreadSubset subset(WorkloadSpread ws, String name) {
        for (WorkloadSpreadSubset s : ws.spec().subsets()) {
            if (name != null && name.equals(s.getName())) {
                return s;
            }
        }
        return null;
    }

    /** The entry named {@code name} in {@code statuses}, or null. */
    static WorkloadSpreadSubsetStatus statusNamed(List<WorkloadSpreadSubsetStatus> statuses, String name) {
        for (WorkloadSpreadSubsetStatus s : statuses) {
            if (name != null && name.equals(s.getName())) {
                return s;
            }
        }
        return null;
    }
}
