package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.AdaptiveWorkloadSpreadStrategy;
import dev.kruisevertx.api.apps.v1alpha1.TargetFilter;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadScheduleStrategyType;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSpec;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.validation.NodeSchedulingRules;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import dev.kruisevertx.workloadspread.WorkloadSpreads;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;

/**
 * OpenKruise's WorkloadSpread validation (v1.9.0), with its field paths and messages: a complete targetRef to a
 * supported workload (CloneSet, Deployment, ReplicaSet, Job, StatefulSet of apps or apps.kruise.io, or a whitelisted
 * custom kind); at least one subset, names unique and not empty, node terms and tolerations valid, maxReplicas all of
 * one type, not negative, integers for a StatefulSet, percentages summing to at most 100% (exactly 100% unless the
 * last subset is unlimited); a known schedule strategy, Adaptive settings only with type Adaptive, an unlimited last
 * subset and {@code rescheduleCriticalSeconds} within {@code [0, (300 - 5) / (subsets - 1)]}; a valid targetFilter
 * selector; no other WorkloadSpread of the namespace targeting the same workload; and on update the same target.
 * Pure: the other WorkloadSpreads and the whitelist are passed in (the whitelist is read only for a kind that is not
 * built in, as OpenKruise reads it).
 */
public final class WorkloadSpreadValidation {
    /** Built-in targets: kind and the API groups it may come from. */
    private static final List<Target> TARGETS = List.of(
            new Target("CloneSet", List.of("apps.kruise.io")),
            new Target("Deployment", List.of("apps")),
            new Target("ReplicaSet", List.of("apps")),
            new Target("Job", List.of("batch")),
            new Target("StatefulSet", List.of("apps", "apps.kruise.io")));

    private record Target(String kind, List<String> groups) {
    }

    private WorkloadSpreadValidation() {
    }

    /**
     * @param old    the stored WorkloadSpread on UPDATE, null on CREATE
     * @param others the WorkloadSpreads of the namespace (the submitted one, by name, is skipped)
     */
    public static List<FieldError> validate(WorkloadSpread ws, WorkloadSpread old, List<WorkloadSpread> others,
                                            Supplier<CustomWorkloadWhiteList> whitelist) {
        return validate(ws, old, others, whitelist, null);
    }

    /**
     * @param targetTemplate the target workload's pod template as JSON, null when the workload is not known (the
     *                       subset patches are then not checked against it)
     */
    public static List<FieldError> validate(WorkloadSpread ws, WorkloadSpread old, List<WorkloadSpread> others,
                                            Supplier<CustomWorkloadWhiteList> whitelist, JsonNode targetTemplate) {
        List<FieldError> errors = new ArrayList<>();
        validateSpec(ws, whitelist, targetTemplate, errors);
        FieldError conflict = conflict(ws, others);
        if (conflict != null) {
            errors.add(conflict);
        }
        if (old != null) {
            validateTargetRefUpdate(ws.spec().getTargetRef(), old.spec().getTargetRef(), errors);
        }
        return errors;
    }

    static void validateSpec(WorkloadSpread ws, Supplier<CustomWorkloadWhiteList> whitelist,
                             List<FieldError> errors) {
        validateSpec(ws, whitelist, null, errors);
    }

    static void validateSpec(WorkloadSpread ws, Supplier<CustomWorkloadWhiteList> whitelist, JsonNode targetTemplate,
                             List<FieldError> errors) {
        WorkloadSpreadSpec spec = ws.spec();
        TargetReference ref = spec.getTargetRef();
        if (ref == null) {
            errors.add(FieldError.required("spec.targetRef", "no targetRef defined in WorkloadSpread"));
        } else if (isEmpty(ref.getApiVersion()) || isEmpty(ref.getName()) || isEmpty(ref.getKind())) {
            errors.add(FieldError.invalid("spec.targetRef", render(ref),
                    "empty TargetReference is not valid for WorkloadSpread."));
        } else {
            validateTarget(ref, whitelist, errors);
        }
        validateSubsets(ws, spec.getSubsets(), targetTemplate, errors);
        validateScheduleStrategy(spec, errors);
        TargetFilter filter = spec.getTargetFilter();
        if (filter != null) {
            try {
                LabelSelectors.compile(filter.getSelector());
            } catch (IllegalArgumentException e) {
                errors.add(FieldError.invalid("spec.targetFilter", renderFilter(filter), e.getMessage()));
            }
        }
    }

    private static void validateTarget(TargetReference ref, Supplier<CustomWorkloadWhiteList> whitelist,
                                       List<FieldError> errors) {
        for (Target t : TARGETS) {
            if (t.kind().equals(ref.getKind())) {
                if (!groupVersionParses(ref.getApiVersion()) || !t.groups().contains(ref.group())) {
                    errors.add(FieldError.invalid("spec.targetRef", render(ref),
                            "TargetReference is not valid for " + t.kind() + "."));
                }
                return;
            }
        }
        CustomWorkloadWhiteList custom;
        try {
            custom = whitelist.get();
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.internal("spec.targetRef", e.getMessage()));
            return;
        }
        if (groupVersionParses(ref.getApiVersion()) && custom.permits(ref.group(), ref.getKind())) {
            return;
        }
        errors.add(FieldError.invalid("spec.targetRef", render(ref), "TargetReference's GroupKind is not permitted."));
    }

    static void validateSubsets(WorkloadSpread ws, List<WorkloadSpreadSubset> subsets, List<FieldError> errors) {
        validateSubsets(ws, subsets, null, errors);
    }

    static void validateSubsets(WorkloadSpread ws, List<WorkloadSpreadSubset> subsets, JsonNode targetTemplate,
                                List<FieldError> errors) {
        if (subsets == null || subsets.isEmpty()) {
            errors.add(FieldError.required("spec.subsets", "subsets number must >= 1 in WorkloadSpread"));
            return;
        }
        Set<String> names = new HashSet<>();
        int percentSum = 0;
        Boolean firstIsInt = null;
        TargetReference ref = ws.spec().getTargetRef();
        for (int i = 0; i < subsets.size(); i++) {
            WorkloadSpreadSubset subset = subsets.get(i);
            String path = "spec.subsets[" + i + "]";
            String name = subset.getName() == null ? "" : subset.getName();
            if (name.isEmpty()) {
                errors.add(FieldError.invalid(path + ".name", name, ""));
            } else {
                if (names.contains(name)) {
                    errors.add(FieldError.invalid(path + ".name", name, "duplicated subset name " + name));
                }
                names.add(name);
            }
            if (subset.getRequiredNodeSelectorTerm() != null) {
                NodeSchedulingRules.validateNodeSelectorTerm(subset.getRequiredNodeSelectorTerm(), false,
                        path + ".requiredNodeSelectorTerm", errors);
            }
            if (subset.getPreferredNodeSelectorTerms() != null) {
                NodeSchedulingRules.validatePreferredSchedulingTerms(subset.getPreferredNodeSelectorTerms(),
                        path + ".preferredSchedulingTerms", errors);
            }
            if (subset.getTolerations() != null) {
                NodeSchedulingRules.validateTolerations(subset.getTolerations(), path + ".tolerations", errors);
            }
            // Only when the workload exists (a WorkloadSpread may be created before its workload), as OpenKruise.
            if (subset.getPatch() != null && !subset.getPatch().isNull() && targetTemplate != null) {
                SubsetPatchCheck.check(targetTemplate, subset.getPatch(), path + ".patch", errors);
            }
            IntOrString max = subset.getMaxReplicas();
            if (max == null) {
                continue;
            }
            boolean isInt = max.getIntVal() != null;
            String maxPath = path + ".maxReplicas";
            if (firstIsInt == null) {
                firstIsInt = isInt;
            } else if (firstIsInt != isInt) {
                errors.add(FieldError.invalid(maxPath, render(max), "the maxReplicas type of all subsets must be "
                        + "the same"));
                return;
            }
            if (ref != null && "StatefulSet".equals(ref.getKind()) && !isInt) {
                errors.add(FieldError.invalid(maxPath, render(max), "the maxReplicas type must be Int for "
                        + "StatefulSet"));
                return;
            }
            OptionalInt value = WorkloadSpreads.scaled(max, 100, true);
            if (value.isEmpty() || value.getAsInt() < 0) {
                errors.add(FieldError.invalid(maxPath, render(max), "maxReplicas is not valid for subset"));
                return;
            }
            if (!isInt) {
                percentSum += value.getAsInt();
                if (percentSum > 100) {
                    errors.add(FieldError.invalid(maxPath, render(max), "the sum of all subset's maxReplicas "
                            + "exceeds 100% is no permitted"));
                    return;
                }
            }
        }
        if (Boolean.FALSE.equals(firstIsInt) && percentSum < 100
                && subsets.get(subsets.size() - 1).getMaxReplicas() != null) {
            errors.add(FieldError.invalid("spec.subsets[0].maxReplicas", render(subsets.get(0).getMaxReplicas()),
                    "maxReplicas sum of all subsets must equal 100% when type is specified as percent"));
        }
    }

    private static void validateScheduleStrategy(WorkloadSpreadSpec spec, List<FieldError> errors) {
        WorkloadSpreadScheduleStrategy strategy = spec.scheduleStrategy();
        String type = strategy.getType() == null ? "" : strategy.getType();
        if (!type.isEmpty() && WorkloadSpreadScheduleStrategyType.fromValue(type).isEmpty()) {
            errors.add(FieldError.invalid("spec.scheduleStrategy.type", type, "ScheduleStrategy's type is not valid"));
        }
        AdaptiveWorkloadSpreadStrategy adaptive = strategy.getAdaptive();
        if (adaptive == null) {
            return;
        }
        Integer seconds = adaptive.getRescheduleCriticalSeconds();
        Object shown = seconds == null ? "null" : seconds;
        if (!strategy.isAdaptive()) {
            errors.add(FieldError.invalid("spec.scheduleStrategy.type", shown,
                    "the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy"));
        }
        List<WorkloadSpreadSubset> subsets = spec.subsets();
        if (subsets.size() > 1 && subsets.get(subsets.size() - 1).getMaxReplicas() != null) {
            errors.add(FieldError.invalid("spec.scheduleStrategy.adaptive", shown,
                    "the last subset's maxReplicas must be not specified when using adaptive scheduleStrategy"));
        }
        long allowedMax = Integer.MAX_VALUE;
        if (subsets.size() > 1) {
            // OpenKruise's bound: a pod must not bounce between unschedulable subsets longer than the 300s a
            // subset stays unschedulable, less 5s for reconcile delays.
            allowedMax = (WorkloadSpreads.MAX_SCHEDULED_FAILED_DURATION.toSeconds() - 5) / (subsets.size() - 1);
        }
        if (seconds != null && (seconds < 0 || seconds > allowedMax)) {
            errors.add(FieldError.invalid("spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds", seconds,
                    "rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > " + allowedMax
                            + " is not permitted"));
        }
    }

    /** The first other WorkloadSpread of the namespace targeting the same group, kind and name. */
    static FieldError conflict(WorkloadSpread ws, List<WorkloadSpread> others) {
        TargetReference mine = ws.spec().getTargetRef();
        if (mine == null) {
            return null;
        }
        String name = ws.getMetadata() == null ? null : ws.getMetadata().getName();
        for (WorkloadSpread other : others) {
            String otherName = other.getMetadata() == null ? null : other.getMetadata().getName();
            if (Objects.equals(name, otherName)) {
                continue;
            }
            TargetReference theirs = other.spec().getTargetRef();
            if (theirs != null && mine.group().equals(theirs.group()) && Objects.equals(mine.getKind(), theirs.getKind())
                    && Objects.equals(mine.getName(), theirs.getName())) {
                return FieldError.invalid("spec.targetRef", render(mine),
                        "ws.spec.targetRef is in conflict with other WorkloadSpread " + otherName);
            }
        }
        return null;
    }

    static void validateTargetRefUpdate(TargetReference ref, TargetReference oldRef, List<FieldError> errors) {
        if (ref == null || oldRef == null) {
            return;
        }
        if (!ref.group().equals(oldRef.group()) || !Objects.equals(ref.getKind(), oldRef.getKind())
                || !Objects.equals(ref.getName(), oldRef.getName())) {
            errors.add(FieldError.invalid("spec.targetRef", render(ref),
                    "change TargetReference is not permitted for WorkloadSpread"));
        }
    }

    /** Kubernetes' ParseGroupVersion accepts "", "v1" and "group/version", not more slashes. */
    private static boolean groupVersionParses(String apiVersion) {
        return apiVersion == null || apiVersion.indexOf('/') == apiVersion.lastIndexOf('/');
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    /** A value printed as is in a field error (not quoted like a string). */
    private record Printed(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** A targetRef as the API server prints a Go struct value in a field error. */
    static Object render(TargetReference ref) {
        return new Printed("v1alpha1.TargetReference{APIVersion:" + quote(ref.getApiVersion()) + ", Kind:" + quote(ref.getKind())
                + ", Name:" + quote(ref.getName()) + "}");
    }

    /** A maxReplicas as the API server prints Go's IntOrString value (type 0 int, 1 string). */
    static Object render(IntOrString v) {
        boolean isInt = v.getIntVal() != null;
        return new Printed("intstr.IntOrString{Type:" + (isInt ? 0 : 1) + ", IntVal:" + (isInt ? v.getIntVal() : 0)
                + ", StrVal:" + quote(isInt ? "" : v.getStrVal()) + "}");
    }

    private static Object renderFilter(TargetFilter filter) {
        return new Printed("v1alpha1.TargetFilter{Selector:" + (filter.getSelector() == null ? "null" : "{...}")
                + ", ReplicasPathList:" + (filter.getReplicasPathList() == null ? "[]" : filter.getReplicasPathList())
                + "}");
    }

    private static String quote(String s) {
        String v = s == null ? "" : s;
        // Bounded: a hostile value is quoted by its start only (FieldError bounds the whole value as well).
        if (v.length() > 253) {
            v = v.substring(0, 253) + "...";
        }
        return "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
