package dev.kruisevertx.webhook.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.AdvancedStatefulSetTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.DeploymentTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.StatefulSetTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.Subset;
import dev.kruisevertx.api.apps.v1alpha1.SubsetTemplate;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSpec;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.uniteddeployment.SubsetReplicas;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobValidation;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.SchedulingRules;
import dev.kruisevertx.webhook.validation.UpdatableSpec;
import dev.kruisevertx.webhook.validation.WorkloadNames;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * UnitedDeployment validation with OpenKruise's rules and messages. Pure.
 *
 * <p>Differences, all stricter or clearer: field paths are the real ones (OpenKruise reports an
 * advancedStatefulSetTemplate's labels under {@code statefulSetTemplate} and a bad maxReplicas under
 * {@code minReplicas}); the numbers in the replica-sum messages are the numbers (OpenKruise prints a pointer); a
 * changed tolerations list is reported once (OpenKruise reports it twice); and a cloneSetTemplate's pod template is
 * checked like the others (OpenKruise leaves it to the CloneSet webhook, so a bad one surfaces only as failing
 * subset creations).
 */
public final class UnitedDeploymentValidation {
    static final String TEMPLATE_KINDS = "statefulSetTemplate, advancedStatefulSetTemplate, cloneSetTemplate, or "
            + "deploymentTemplate";
    static final String NAME_LIMIT_REASON = "ControllerRevisions are named <name>-<hash>, at most "
            + WorkloadNames.DNS_SUBDOMAIN_MAX + " characters";
    /** The statefulSetTemplate / advancedStatefulSetTemplate spec fields an update may change. */
    static final List<String> UPDATABLE_STATEFUL = List.of("replicas", "template", "updateStrategy");
    /** What OpenKruise's capacity check takes for an unset maxReplicas. */
    static final int UNSET_MAX = 1_000_000;

    private UnitedDeploymentValidation() {
    }

    public static List<FieldError> validateCreate(UnitedDeployment ud) {
        return validate(ud, null);
    }

    public static List<FieldError> validateUpdate(UnitedDeployment ud, UnitedDeployment old) {
        List<FieldError> errors = validate(ud, old);
        UnitedDeploymentSpec spec = ud.spec();
        UnitedDeploymentSpec before = old.spec();
        validateTemplateUpdate(spec.template(), before.template(), errors);
        validateTopologyUpdate(spec, before, errors);
        return errors;
    }

    private static List<FieldError> validate(UnitedDeployment ud, UnitedDeployment old) {
        List<FieldError> errors = new ArrayList<>();
        WorkloadNames.checkUnlessKept(ud.getMetadata(), old == null ? null : old.getMetadata(),
                WorkloadNames.CLONESET_MAX, false, NAME_LIMIT_REASON, errors);
        validateSpec(ud.spec(), errors);
        return errors;
    }

    static void validateSpec(UnitedDeploymentSpec spec, List<FieldError> errors) {
        if (spec.getReplicas() != null && spec.getReplicas() < 0) {
            errors.add(FieldError.invalid("spec.replicas", spec.getReplicas(), "must be greater than or equal to 0"));
        }
        LabelSelector selector = spec.getSelector();
        if (selector == null) {
            errors.add(FieldError.required("spec.selector", ""));
        } else {
            int before = errors.size();
            LabelRules.validateSelector(selector, "spec.selector", errors);
            if (LabelRules.isEmpty(selector)) {
                errors.add(FieldError.invalid("spec.selector", "", "empty selector is invalid for statefulset"));
            }
            if (errors.size() > before) {
                selector = null;
            }
        }
        UnitedDeploymentScheduleStrategy schedule = spec.topology().scheduleStrategy();
        SubsetTemplate template = spec.template();
        if (schedule.reservationMode() && (template.getAdvancedStatefulSetTemplate() != null
                || template.getStatefulSetTemplate() != null)) {
            errors.add(FieldError.invalid("spec.topology.scheduleStrategy", schedule.getType(),
                    "only stateless workloads (Deployment and CloneSet) are supported by reserved rescheduling"));
        }
        validateTemplate(template, selector, errors);
        List<Subset> subsets = spec.topology().subsets();
        validateSubsetReplicas(spec.getReplicas(), subsets, errors);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < subsets.size(); i++) {
            Subset s = subsets.get(i);
            String p = "spec.topology.subsets[" + i + "]";
            String name = s.getName() == null ? "" : s.getName();
            if (name.isEmpty()) {
                errors.add(FieldError.required(p + ".name", ""));
            }
            if (!names.add(name)) {
                errors.add(FieldError.invalid(p + ".name", name, "duplicated subset name " + name));
            }
            if (!LabelRules.isDnsLabel(name)) {
                errors.add(FieldError.invalid(p + ".name", name, "invalid subset name " + WorkloadNames.LABEL_SYNTAX));
            }
            SchedulingRules.checkNodeSelectorTerm(s.getNodeSelectorTerm(), p + ".nodeSelectorTerm", errors);
            SchedulingRules.checkTolerations(s.getTolerations(), p + ".tolerations", errors);
            if (s.getReplicas() != null && schedule.adaptiveMode()) {
                errors.add(FieldError.forbidden(p + ".replicas",
                        "specify replicas use minReplicas/maxReplicas to enable adaptive strategy"));
            }
        }
        Map<String, Integer> partitions = spec.getUpdateStrategy() == null
                || spec.getUpdateStrategy().getManualUpdate() == null ? null
                : spec.getUpdateStrategy().getManualUpdate().getPartitions();
        if (partitions != null) {
            for (Map.Entry<String, Integer> e : partitions.entrySet()) {
                if (!names.contains(e.getKey())) {
                    errors.add(FieldError.invalid("spec.updateStrategy.partitions", partitions.toString(),
                            "subset " + e.getKey() + " does not exist"));
                }
                if (e.getValue() != null && e.getValue() < 0) {
                    // Stricter than OpenKruise: a negative partition would be refused by the subset workload.
                    errors.add(FieldError.invalid("spec.updateStrategy.manualUpdate.partitions[" + e.getKey() + "]",
                            e.getValue(), "must be greater than or equal to 0"));
                }
            }
        }
    }

    private static void validateTemplate(SubsetTemplate template, LabelSelector selector, List<FieldError> errors) {
        int count = (template.getStatefulSetTemplate() != null ? 1 : 0)
                + (template.getAdvancedStatefulSetTemplate() != null ? 1 : 0)
                + (template.getCloneSetTemplate() != null ? 1 : 0)
                + (template.getDeploymentTemplate() != null ? 1 : 0);
        if (count < 1) {
            errors.add(FieldError.required("spec.template", "should provide one of " + TEMPLATE_KINDS));
        } else if (count > 1) {
            errors.add(FieldError.invalid("spec.template", "", "should provide only one of " + TEMPLATE_KINDS));
        }
        if (template.getStatefulSetTemplate() != null) {
            StatefulSetTemplateSpec t = template.getStatefulSetTemplate();
            String p = "spec.template.statefulSetTemplate";
            checkLabels(t.getMetadata(), selector, p, errors);
            if (t.getSpec() != null) {
                if (t.getSpec().getReplicas() != null) {
                    errors.add(FieldError.invalid(p + ".spec.replicas", t.getSpec().getReplicas(),
                            "replicas in statefulSetTemplate will not be used"));
                }
                var strategy = t.getSpec().getUpdateStrategy();
                if (strategy != null && "RollingUpdate".equals(strategy.getType()) && strategy.getRollingUpdate() != null
                        && strategy.getRollingUpdate().getPartition() != null) {
                    errors.add(FieldError.invalid(p + ".spec.updateStrategy.rollingUpdate.partition",
                            strategy.getRollingUpdate().getPartition(), "partition in statefulSetTemplate will not be used"));
                }
            }
            checkPodTemplate(t.getSpec() == null ? null : t.getSpec().getTemplate(), selector, p, "StatefulSet", errors);
        } else if (template.getAdvancedStatefulSetTemplate() != null) {
            AdvancedStatefulSetTemplateSpec t = template.getAdvancedStatefulSetTemplate();
            String p = "spec.template.advancedStatefulSetTemplate";
            checkLabels(t.getMetadata(), selector, p, errors);
            if (t.getSpec() != null) {
                if (t.getSpec().getReplicas() != null) {
                    errors.add(FieldError.invalid(p + ".spec.replicas", t.getSpec().getReplicas(),
                            "replicas in advancedStatefulSetTemplate will not be used"));
                }
                var strategy = t.getSpec().getUpdateStrategy();
                if (strategy != null && "RollingUpdate".equals(strategy.getType()) && strategy.getRollingUpdate() != null
                        && strategy.getRollingUpdate().getPartition() != null) {
                    errors.add(FieldError.invalid(p + ".spec.updateStrategy.rollingUpdate.partition",
                            strategy.getRollingUpdate().getPartition(),
                            "partition in advancedStatefulSetTemplate will not be used"));
                }
            }
            checkPodTemplate(t.getSpec() == null ? null : t.getSpec().getTemplate(), selector, p, "StatefulSet", errors);
        } else if (template.getDeploymentTemplate() != null) {
            DeploymentTemplateSpec t = template.getDeploymentTemplate();
            String p = "spec.template.deploymentTemplate";
            checkLabels(t.getMetadata(), selector, p, errors);
            if (t.getSpec() != null && t.getSpec().getReplicas() != null) {
                errors.add(FieldError.invalid(p + ".spec.replicas", t.getSpec().getReplicas(),
                        "replicas in deploymentTemplate will not be used"));
            }
            checkPodTemplate(t.getSpec() == null ? null : t.getSpec().getTemplate(), selector, p, "ReplicaSet", errors);
        } else if (template.getCloneSetTemplate() != null) {
            CloneSetTemplateSpec t = template.getCloneSetTemplate();
            String p = "spec.template.cloneSetTemplate";
            checkLabels(t.getMetadata(), selector, p, errors);
            checkPodTemplate(t.getSpec() == null ? null : t.getSpec().getTemplate(), selector, p, "CloneSet", errors);
        }
    }

    private static void checkLabels(ObjectMeta meta, LabelSelector selector, String path, List<FieldError> errors) {
        Map<String, String> labels = meta == null || meta.getLabels() == null ? Map.of() : meta.getLabels();
        if (selector != null && !matches(selector, labels)) {
            errors.add(FieldError.invalid(path + ".metadata.labels", labels.toString(),
                    "`selector` does not match template `labels`"));
        }
    }

    private static boolean matches(LabelSelector selector, Map<String, String> labels) {
        try {
            return LabelSelectors.matches(selector, labels);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    // Kubernetes' pod template rules for a workload whose pods always run: what the subset workload's own
    // validation would refuse when the controller creates it.
    private static void checkPodTemplate(PodTemplateSpec template, LabelSelector selector, String path, String kind,
                                         List<FieldError> errors) {
        String p = path + ".spec.template";
        if (template == null) {
            errors.add(FieldError.required(p, ""));
            return;
        }
        Map<String, String> labels = template.getMetadata() == null || template.getMetadata().getLabels() == null
                ? Map.of() : template.getMetadata().getLabels();
        if (selector != null && !matches(selector, labels)) {
            errors.add(FieldError.invalid(p + ".metadata.labels", labels.toString(),
                    "`selector` does not match template `labels`"));
        }
        AdvancedCronJobValidation.validatePodTemplate(template, path + ".spec", false, errors);
        if (template.getSpec() != null) {
            String restart = template.getSpec().getRestartPolicy();
            if (restart != null && !restart.isEmpty() && !"Always".equals(restart)) {
                errors.add(FieldError.notSupported(p + ".spec.restartPolicy", restart, List.of("Always")));
            }
            if (template.getSpec().getActiveDeadlineSeconds() != null) {
                errors.add(FieldError.forbidden(p + ".spec.activeDeadlineSeconds",
                        "activeDeadlineSeconds in " + kind + " is not Supported"));
            }
        }
    }

    static void validateSubsetReplicas(Integer udReplicas, List<Subset> subsets, List<FieldError> errors) {
        String p = "spec.topology.subsets";
        int expected = udReplicas == null ? SubsetReplicas.UNSET : udReplicas;
        long sum = 0;
        long sumMin = 0;
        long sumMax = 0;
        int countReplicas = 0;
        int countMax = 0;
        boolean fixed = false;
        boolean capacities = false;
        for (int i = 0; i < subsets.size(); i++) {
            Subset s = subsets.get(i);
            String sp = p + "[" + i + "]";
            int replicas = 0;
            if (s.getReplicas() != null) {
                countReplicas++;
                fixed = true;
                replicas = parse(expected, s.getReplicas(), sp + ".replicas", errors);
            }
            sum += replicas;
            int min = 0;
            if (s.getMinReplicas() != null) {
                capacities = true;
                min = parse(expected, s.getMinReplicas(), sp + ".minReplicas", errors);
            }
            sumMin += min;
            int max = UNSET_MAX;
            if (s.getMaxReplicas() != null) {
                countMax++;
                capacities = true;
                max = parse(expected, s.getMaxReplicas(), sp + ".maxReplicas", errors);
            }
            sumMax += max;
            if (min > max) {
                errors.add(FieldError.invalid(sp + ".minReplicas", show(s.getMinReplicas()),
                        "subset[" + i + "].minReplicas must be more than or equal to maxReplicas"));
            }
        }
        if (fixed && capacities) {
            errors.add(FieldError.invalid(p, "", "subset.Replicas and subset.MinReplicas/subset.MaxReplicas are "
                    + "mutually exclusive in a UnitedDeployment"));
            return;
        }
        if (capacities) {
            if (expected == SubsetReplicas.UNSET) {
                errors.add(FieldError.invalid(p, expected,
                        "spec.replicas must be not empty if you set subset.minReplicas/maxReplicas"));
            }
            if (countMax >= subsets.size()) {
                errors.add(FieldError.invalid(p, countMax, "at least one subset.maxReplicas must be empty"));
            }
            if (sumMin > sumMax) {
                errors.add(FieldError.invalid(p, sumMin, "sum of indicated subset.minReplicas should not be greater "
                        + "than sum of indicated subset.maxReplicas"));
            }
        } else if (expected != SubsetReplicas.UNSET) {
            if (sum > expected) {
                errors.add(FieldError.invalid(p, sum, "sum of indicated subset replicas " + sum
                        + " should not be greater than UnitedDeployment replicas " + expected));
            }
            if (countReplicas > 0 && countReplicas == subsets.size() && sum != expected) {
                errors.add(FieldError.invalid(p, sum, "if replicas of all subsets are provided, the sum of indicated "
                        + "subset replicas " + sum + " should equal UnitedDeployment replicas " + expected));
            }
        } else if (countReplicas != subsets.size()) {
            errors.add(FieldError.invalid(p, sum,
                    "if UnitedDeployment replicas is not provided, replicas of all subsets should be provided"));
        }
    }

    private static int parse(int expected, IntOrString value, String path, List<FieldError> errors) {
        try {
            return SubsetReplicas.parse(expected, value);
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.invalid(path, show(value), e.getMessage()));
            return 0;
        }
    }

    private static String show(IntOrString v) {
        return v == null ? "" : v.getIntVal() != null ? v.getIntVal().toString() : String.valueOf(v.getStrVal());
    }

    private static void validateTemplateUpdate(SubsetTemplate now, SubsetTemplate before, List<FieldError> errors) {
        if (now.getStatefulSetTemplate() != null && before.getStatefulSetTemplate() != null) {
            String p = "spec.template.statefulSetTemplate.spec";
            if (!UpdatableSpec.withoutUpdatable(now.getStatefulSetTemplate().getSpec(), UPDATABLE_STATEFUL)
                    .equals(UpdatableSpec.withoutUpdatable(before.getStatefulSetTemplate().getSpec(), UPDATABLE_STATEFUL))) {
                errors.add(FieldError.forbidden(p, "updates to statefulsetTemplate spec for fields other than "
                        + "'template', and 'updateStrategy' are forbidden"));
            }
            nonNegativeReplicas(now.getStatefulSetTemplate().getSpec() == null ? null
                    : now.getStatefulSetTemplate().getSpec().getReplicas(), p, errors);
        } else if (now.getAdvancedStatefulSetTemplate() != null && before.getAdvancedStatefulSetTemplate() != null) {
            String p = "spec.template.advancedStatefulSetTemplate.spec";
            if (!UpdatableSpec.withoutUpdatable(now.getAdvancedStatefulSetTemplate().getSpec(), UPDATABLE_STATEFUL)
                    .equals(UpdatableSpec.withoutUpdatable(before.getAdvancedStatefulSetTemplate().getSpec(),
                            UPDATABLE_STATEFUL))) {
                errors.add(FieldError.forbidden(p, "updates to advancedStatefulsetTemplate spec for fields other "
                        + "than 'template', and 'updateStrategy' are forbidden"));
            }
            nonNegativeReplicas(now.getAdvancedStatefulSetTemplate().getSpec() == null ? null
                    : now.getAdvancedStatefulSetTemplate().getSpec().getReplicas(), p, errors);
        } else if (now.getDeploymentTemplate() != null && before.getDeploymentTemplate() != null) {
            nonNegativeReplicas(now.getDeploymentTemplate().getSpec() == null ? null
                    : now.getDeploymentTemplate().getSpec().getReplicas(), "spec.template.deploymentTemplate.spec", errors);
        }
    }

    private static void nonNegativeReplicas(Integer replicas, String specPath, List<FieldError> errors) {
        if (replicas != null && replicas < 0) {
            errors.add(FieldError.invalid(specPath + ".replicas", replicas, "must be greater than or equal to 0"));
        }
    }

    private static void validateTopologyUpdate(UnitedDeploymentSpec now, UnitedDeploymentSpec before,
                                               List<FieldError> errors) {
        Map<String, Subset> old = new java.util.HashMap<>();
        for (Subset s : before.topology().subsets()) {
            old.put(s.getName(), s);
        }
        List<Subset> subsets = now.topology().subsets();
        for (int i = 0; i < subsets.size(); i++) {
            Subset s = subsets.get(i);
            Subset o = old.get(s.getName());
            if (o == null) {
                continue;
            }
            String p = "spec.topology.subsets[" + i + "]";
            if (!Objects.equals(Json.toNode(emptyTermAsNull(o)), Json.toNode(emptyTermAsNull(s)))) {
                errors.add(FieldError.forbidden(p + ".nodeSelectorTerm", "may not be changed in an update"));
            }
            if (!Objects.equals(Json.toNode(emptyListAsNull(o.getTolerations())),
                    Json.toNode(emptyListAsNull(s.getTolerations())))) {
                errors.add(FieldError.forbidden(p + ".tolerations", "may not be changed in an update"));
            }
        }
    }

    // Semantic equality as Kubernetes has it: an empty term or list is the same as none.
    private static Object emptyTermAsNull(Subset s) {
        var t = s.getNodeSelectorTerm();
        if (t == null || ((t.getMatchExpressions() == null || t.getMatchExpressions().isEmpty())
                && (t.getMatchFields() == null || t.getMatchFields().isEmpty()))) {
            return null;
        }
        return t;
    }

    private static Object emptyListAsNull(List<?> list) {
        return list == null || list.isEmpty() ? null : list;
    }
}
