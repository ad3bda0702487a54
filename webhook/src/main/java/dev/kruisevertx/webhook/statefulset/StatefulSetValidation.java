package dev.kruisevertx.webhook.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PersistentVolumeClaimRetentionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimComparison;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategyType;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.common.WireEnum;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.validation.IntOrPercentRule;
import dev.kruisevertx.webhook.validation.ResourceQuantities;
import dev.kruisevertx.webhook.validation.SelectorAndTemplate;
import dev.kruisevertx.webhook.validation.UpdatableSpec;
import dev.kruisevertx.webhook.validation.WorkloadNames;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Advanced StatefulSet validation with OpenKruise's rules and messages, on the v1beta1 form (a v1alpha1 object is
 * converted first). Pure.
 */
public final class StatefulSetValidation {
    static final List<String> RETENTION = WireEnum.values(PersistentVolumeClaimRetentionPolicyType.class);
    static final List<String> VCT_UPDATE_TYPES = WireEnum.values(VolumeClaimUpdateStrategyType.class);
    /** OpenKruise caps rollingUpdate.minReadySeconds at 5 minutes. */
    static final int MAX_MIN_READY_SECONDS = 300;
    /** OpenKruise v1.9's updatable spec fields (scaleStrategy is allowed although its message does not say so). */
    static final List<String> UPDATABLE = List.of("replicas", "template", "updateStrategy", "reserveOrdinals",
            "lifecycle", "revisionHistoryLimit", "persistentVolumeClaimRetentionPolicy", "scaleStrategy", "ordinals",
            "volumeClaimTemplates", "volumeClaimUpdateStrategy");
    static final String UPDATABLE_FIELDS_MESSAGE = "updates to statefulset spec for fields other than 'replicas', "
            + "'ordinals', 'template', 'reserveOrdinals', 'lifecycle', 'revisionHistoryLimit', "
            + "'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and "
            + "'updateStrategy' are forbidden";
    /** Stricter than OpenKruise (63, a DNS label): see {@link WorkloadNames}. */
    static final String NAME_LIMIT_REASON = "pods are named <name>-<ordinal> and labelled "
            + "controller-revision-hash=<name>-<hash>, both at most " + WorkloadNames.DNS_LABEL_MAX + " characters";

    private StatefulSetValidation() {
    }

    public static List<FieldError> validateCreate(StatefulSet set) {
        return validate(set, null);
    }

    public static List<FieldError> validateUpdate(StatefulSet set, StatefulSet old) {
        List<FieldError> errors = new ArrayList<>();
        UpdatableSpec.check(set.getSpec(), old.getSpec(), UPDATABLE, UPDATABLE_FIELDS_MESSAGE, errors);
        errors.addAll(validate(set, old));
        return errors;
    }

    private static List<FieldError> validate(StatefulSet set, StatefulSet old) {
        List<FieldError> errors = new ArrayList<>();
        WorkloadNames.checkUnlessKept(set.getMetadata(), old == null ? null : old.getMetadata(),
                WorkloadNames.STATEFULSET_MAX, true, NAME_LIMIT_REASON, errors);
        if (set.getSpec() == null) {
            errors.add(FieldError.required("spec", ""));
            return errors;
        }
        errors.addAll(validateSpec(set.getSpec()));
        return errors;
    }

    /**
     * OpenKruise's volumeClaimTemplates update check (gate StatefulSetAutoResizePVCGate) for
     * {@code volumeClaimUpdateStrategy.type: OnPodRollingUpdate}: no template may be added, removed or renamed, and
     * a template may change only its storage size. (OpenKruise also looks up the StorageClass to refuse a size change
     * it cannot expand; here the controller refuses it when it resizes.)
     */
    public static List<FieldError> validateVolumeClaimTemplateUpdate(StatefulSet set, StatefulSet old) {
        if (set.getSpec() == null || old.getSpec() == null || set.getSpec().getVolumeClaimUpdateStrategy() == null
                || set.getSpec().getVolumeClaimUpdateStrategy().typeValue().orElse(null)
                        != VolumeClaimUpdateStrategyType.ON_POD_ROLLING_UPDATE) {
            return List.of();
        }
        List<PersistentVolumeClaim> now = set.getSpec().getVolumeClaimTemplates() == null ? List.of()
                : set.getSpec().getVolumeClaimTemplates();
        List<PersistentVolumeClaim> before = old.getSpec().getVolumeClaimTemplates() == null ? List.of()
                : old.getSpec().getVolumeClaimTemplates();
        if (now.size() != before.size()) {
            return List.of(FieldError.invalid("spec.volumeClaimTemplates", Json.toNode(now).toString(),
                    "volumeClaimTemplate can not be added or deleted when OnRollingUpdate"));
        }
        // By name, first one wins: a linear scan per template would be quadratic in their number.
        Map<String, PersistentVolumeClaim> previousByName = new HashMap<>();
        for (PersistentVolumeClaim b : before) {
            if (b.getMetadata() != null) {
                previousByName.putIfAbsent(b.getMetadata().getName(), b);
            }
        }
        for (PersistentVolumeClaim t : now) {
            String name = t.getMetadata() == null ? null : t.getMetadata().getName();
            String field = "spec.volumeClaimTemplates[" + name + "]";
            PersistentVolumeClaim previous = previousByName.get(name);
            if (previous == null) {
                return List.of(FieldError.forbidden(field + ".name", "volumeClaimTemplate name can not be modified"));
            }
            if (!VolumeClaimComparison.compatibleWithoutSize(previous, t)) {
                return List.of(FieldError.invalid(field, Json.toNode(t).toString(),
                        "volumeClaimTemplate can not be modified when OnRollingUpdate"));
            }
        }
        return List.of();
    }

    static List<FieldError> validateSpec(StatefulSetSpec spec) {
        List<FieldError> errors = new ArrayList<>();
        String policy = spec.getPodManagementPolicy();
        boolean parallel = spec.podManagementPolicyValue().orElse(null) == PodManagementPolicyType.PARALLEL;
        if (policy == null || policy.isEmpty()) {
            errors.add(FieldError.required("spec.podManagementPolicy", ""));
        } else if (spec.podManagementPolicyValue().isEmpty()) {
            errors.add(FieldError.invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
        }
        String type = spec.getUpdateStrategy() == null ? null : spec.getUpdateStrategy().getType();
        StatefulSetUpdateStrategyType known = spec.getUpdateStrategy() == null ? null
                : spec.getUpdateStrategy().typeValue().orElse(null);
        RollingUpdateStatefulSetStrategy ru = spec.getUpdateStrategy() == null ? null
                : spec.getUpdateStrategy().getRollingUpdate();
        if (type == null || type.isEmpty()) {
            errors.add(FieldError.required("spec.updateStrategy", ""));
        } else if (known == StatefulSetUpdateStrategyType.ON_DELETE) {
            if (ru != null) {
                errors.add(FieldError.invalid("spec.updateStrategy.rollingUpdate", Json.toNode(ru).toString(),
                        "only allowed for updateStrategy 'RollingUpdate'"));
            }
        } else if (known == StatefulSetUpdateStrategyType.ROLLING_UPDATE) {
            if (ru != null) {
                errors.addAll(validateRollingUpdate(spec, ru, parallel));
            }
        } else {
            errors.add(FieldError.invalid("spec.updateStrategy", type, "must be 'RollingUpdate' or 'OnDelete'"));
        }
        if (spec.getReplicas() != null && spec.getReplicas() < 0) {
            errors.add(FieldError.invalid("spec.replicas", spec.getReplicas(), "must be greater than or equal to 0"));
        }
        if (spec.getRevisionHistoryLimit() != null && spec.getRevisionHistoryLimit() < 0) {
            errors.add(FieldError.invalid("spec.revisionHistoryLimit", spec.getRevisionHistoryLimit(),
                    "must be greater than or equal to 0"));
        }
        errors.addAll(validateSelectorAndTemplate(spec));
        long reserved = 0;
        try {
            reserved = PodOrdinals.checkReserved(spec.getReserveOrdinals());
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.invalid("spec.reserveOrdinals", Json.toNode(spec.getReserveOrdinals()).toString(),
                    e.getMessage()));
        }
        // Ordinals past the int range would wrap around to negative pod names.
        long start = spec.getOrdinals() == null ? 0 : Math.max(spec.getOrdinals().getStart(), 0);
        long replicas = spec.getReplicas() == null ? 0 : Math.max(spec.getReplicas(), 0);
        if (start + replicas + reserved - 1 > Integer.MAX_VALUE) {
            errors.add(FieldError.invalid("spec.ordinals.start", start, "ordinals.start + replicas + reserved "
                    + "ordinals must not pass " + Integer.MAX_VALUE));
        }
        if (spec.getScaleStrategy() != null) {
            IntOrPercentRule.POSITIVE_AT_MOST_ALL.check("spec.scaleStrategy.maxUnavailable",
                    spec.getScaleStrategy().getMaxUnavailable(), errors);
        }
        validateVolumeClaimTemplateNames(spec, errors);
        StatefulSetPersistentVolumeClaimRetentionPolicy retention = spec.getPersistentVolumeClaimRetentionPolicy();
        if (retention != null) {
            enumValue("spec.persistentVolumeClaimRetentionPolicy.whenDeleted", retention.getWhenDeleted(), errors);
            enumValue("spec.persistentVolumeClaimRetentionPolicy.whenScaled", retention.getWhenScaled(), errors);
        }
        if (spec.getOrdinals() != null && spec.getOrdinals().getStart() < 0) {
            errors.add(FieldError.invalid("spec.ordinals.start", spec.getOrdinals().getStart(),
                    "must be greater than or equal to 0"));
        }
        if (spec.getVolumeClaimUpdateStrategy() != null && spec.getVolumeClaimUpdateStrategy().getType() != null
                && spec.getVolumeClaimUpdateStrategy().typeValue().isEmpty()) {
            errors.add(FieldError.notSupported("spec.volumeClaimUpdateStrategy.type",
                    spec.getVolumeClaimUpdateStrategy().getType(), VCT_UPDATE_TYPES));
        }
        return errors;
    }

    private static void enumValue(String field, String value, List<FieldError> errors) {
        if (value != null && !value.isEmpty() && PersistentVolumeClaimRetentionPolicyType.fromValue(value).isEmpty()) {
            errors.add(FieldError.notSupported(field, value, RETENTION));
        }
    }

    private static List<FieldError> validateRollingUpdate(StatefulSetSpec spec, RollingUpdateStatefulSetStrategy ru,
                                                          boolean parallel) {
        List<FieldError> errors = new ArrayList<>();
        String base = "spec.updateStrategy.rollingUpdate";
        if (ru.getPartition() != null && ru.getPartition() < 0) {
            errors.add(FieldError.invalid(base + ".partition", ru.getPartition(), "must be greater than or equal to 0"));
        }
        if (ru.getMinReadySeconds() != null) {
            if (ru.getMinReadySeconds() < 0) {
                errors.add(FieldError.invalid(base + ".minReadySeconds", ru.getMinReadySeconds(),
                        "must be greater than or equal to 0"));
            } else if (ru.getMinReadySeconds() > MAX_MIN_READY_SECONDS) {
                errors.add(FieldError.invalid(base + ".minReadySeconds", ru.getMinReadySeconds(),
                        "must be less than 5 mins"));
            }
        }
        IntOrString max = ru.getMaxUnavailable();
        if (max == null) {
            errors.add(FieldError.required(base + ".maxUnavailable", ""));
        } else {
            IntOrPercentRule.POSITIVE_AT_MOST_ALL.check(base + ".maxUnavailable", max, errors);
            if (!parallel && (max.getIntVal() == null || max.getIntVal() != 1)) {
                errors.add(FieldError.invalid(base + ".maxUnavailable", show(max),
                        "maxUnavailable can just work with Parallel PodManagementPolicyType"));
            }
        }
        String podUpdatePolicy = ru.getPodUpdatePolicy();
        if (podUpdatePolicy == null || podUpdatePolicy.isEmpty()) {
            errors.add(FieldError.required(base + ".podUpdatePolicy", ""));
        } else if (ru.podUpdatePolicyValue().isEmpty()) {
            errors.add(FieldError.invalid(base + ".podUpdatePolicy", podUpdatePolicy,
                    "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"));
        } else if (ru.podUpdatePolicyValue().get().inPlace() && !hasInPlaceReadinessGate(spec)) {
            errors.add(FieldError.invalid("spec.template.spec.readinessGates", "",
                    "must contains " + WellKnown.INPLACE_UPDATE_READY_CONDITION + " when podUpdatePolicy is "
                            + podUpdatePolicy));
        }
        if (ru.getUnorderedUpdate() != null) {
            if (!parallel) {
                errors.add(FieldError.required(base + ".unorderedUpdate",
                        "unorderedUpdate can only work with Parallel PodManagementPolicyType"));
            }
            if (ru.getUnorderedUpdate().getPriorityStrategy() != null) {
                ru.getUnorderedUpdate().getPriorityStrategy().fieldsValidation().ifPresent(problem ->
                        errors.add(FieldError.required(base + ".unorderedUpdate.priorityStrategy", problem)));
            }
        }
        return errors;
    }

    private static boolean hasInPlaceReadinessGate(StatefulSetSpec spec) {
        PodSpec ps = spec.getTemplate() == null ? null : spec.getTemplate().getSpec();
        if (ps == null || ps.getReadinessGates() == null) {
            return false;
        }
        for (PodReadinessGate g : ps.getReadinessGates()) {
            if (WellKnown.INPLACE_UPDATE_READY_CONDITION.equals(g.getConditionType())) {
                return true;
            }
        }
        return false;
    }

    /** Each claim template names a volume of every pod (a DNS label) and a PVC {@code <template>-<set>-<ordinal>}. */
    private static void validateVolumeClaimTemplateNames(StatefulSetSpec spec, List<FieldError> errors) {
        List<PersistentVolumeClaim> claims = spec.getVolumeClaimTemplates() == null ? List.of()
                : spec.getVolumeClaimTemplates();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < claims.size(); i++) {
            String n = WorkloadNames.claimTemplateName(claims.get(i), i, errors);
            if (n != null && !seen.add(n)) {
                errors.add(FieldError.duplicate(WorkloadNames.claimTemplateNamePath(i), n));
            }
        }
    }

    private static String show(IntOrString v) {
        return v.getIntVal() != null ? v.getIntVal().toString() : v.getStrVal();
    }

    private static List<FieldError> validateSelectorAndTemplate(StatefulSetSpec spec) {
        List<FieldError> errors = new ArrayList<>();
        if (!SelectorAndTemplate.check(spec.getSelector(), spec.getTemplate(), "statefulset", errors)) {
            return errors;
        }
        ResourceQuantities.checkClaims(spec.getVolumeClaimTemplates(), "spec.volumeClaimTemplates", errors);
        SelectorAndTemplate.checkAlwaysRunning(spec.getTemplate().getSpec(), "StatefulSet", errors);
        return errors;
    }
}
