package dev.kruisevertx.webhook.daemonset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetConversion;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateType;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.WireEnum;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.IntOrPercentRule;
import dev.kruisevertx.webhook.validation.SelectorAndTemplate;
import dev.kruisevertx.webhook.validation.UpdatableSpec;
import dev.kruisevertx.webhook.validation.WorkloadNames;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.ArrayList;
import java.util.List;

/**
 * Advanced DaemonSet validation with OpenKruise's rules and messages, on the v1beta1 form (a v1alpha1 object is
 * converted first; the one v1alpha1-only rule, on the deprecated Surging type, is {@link #alphaSurging}). Pure.
 *
 * <p>Field paths are the real ones where OpenKruise repeats a segment ({@code rollingUpdate.rollingUpdate.type},
 * {@code rollingUpdate.rollingUpdate.partition}).
 */
public final class DaemonSetValidation {
    static final List<String> STRATEGY_TYPES = WireEnum.values(DaemonSetUpdateStrategyType.class);
    static final List<String> ROLLING_TYPES = WireEnum.values(RollingUpdateType.class);
    static final List<String> ALPHA_ROLLING_TYPES = List.of(RollingUpdateType.STANDARD.value(),
            DaemonSetConversion.DEPRECATED_SURGING, RollingUpdateType.IN_PLACE_IF_POSSIBLE.value());
    /** The spec fields an update may change (OpenKruise's list; the selector is what is left). */
    static final List<String> UPDATABLE = List.of("burstReplicas", "template", "lifecycle", "scaleStrategy",
            "updateStrategy", "minReadySeconds", "revisionHistoryLimit");
    static final String UPDATABLE_FIELDS_MESSAGE = "updates to daemonset spec for fields other than 'BurstReplicas', "
            + "'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', and "
            + "'revisionHistoryLimit' are forbidden";
    /** Stricter than OpenKruise (253): the ControllerRevisions are named {@code <name>-<hash>}. */
    static final String NAME_LIMIT_REASON = "ControllerRevisions are named <name>-<hash>, at most "
            + WorkloadNames.DNS_SUBDOMAIN_MAX + " characters";

    private DaemonSetValidation() {
    }

    public static List<FieldError> validateCreate(DaemonSet set) {
        return validate(set, null);
    }

    public static List<FieldError> validateUpdate(DaemonSet set, DaemonSet old) {
        List<FieldError> errors = new ArrayList<>();
        UpdatableSpec.check(set.getSpec(), old.getSpec(), UPDATABLE, UPDATABLE_FIELDS_MESSAGE, errors);
        errors.addAll(validate(set, old));
        return errors;
    }

    /**
     * The v1alpha1 rule for the deprecated {@code rollingUpdateType: Surging}: maxUnavailable must be 0. Read from
     * the v1alpha1 object, as the conversion turns Surging into Standard.
     */
    public static List<FieldError> alphaSurging(ObjectNode alpha) {
        var ru = alpha.path("spec").path("updateStrategy").path("rollingUpdate");
        if (!DaemonSetConversion.DEPRECATED_SURGING.equals(ru.path("rollingUpdateType").asText(null))) {
            return List.of();
        }
        var max = ru.get("maxUnavailable");
        if (max == null || max.isNull()) {
            return List.of();
        }
        IntOrString value = max.isInt() ? new IntOrString(max.asInt()) : new IntOrString(max.asText());
        if (setNonZero(value)) {
            return List.of(FieldError.required("spec.updateStrategy.rollingUpdate.maxUnavailable", "must be 0 for Surging type"));
        }
        return List.of();
    }

    private static List<FieldError> validate(DaemonSet set, DaemonSet old) {
        List<FieldError> errors = new ArrayList<>();
        WorkloadNames.checkUnlessKept(set.getMetadata(), old == null ? null : old.getMetadata(),
                WorkloadNames.CLONESET_MAX, false, NAME_LIMIT_REASON, errors);
        if (set.getSpec() == null) {
            errors.add(FieldError.required("spec", ""));
            return errors;
        }
        errors.addAll(validateSpec(set.getSpec()));
        return errors;
    }

    static List<FieldError> validateSpec(DaemonSetSpec spec) {
        List<FieldError> errors = new ArrayList<>();
        validateSelectorAndTemplate(spec, errors);
        if (spec.getMinReadySeconds() < 0) {
            errors.add(FieldError.invalid("spec.minReadySeconds", spec.getMinReadySeconds(), "must be greater than or equal to 0"));
        }
        validateUpdateStrategy(spec.getUpdateStrategy(), errors);
        if (spec.getRevisionHistoryLimit() != null && spec.getRevisionHistoryLimit() < 0) {
            errors.add(FieldError.invalid("spec.revisionHistoryLimit", spec.getRevisionHistoryLimit(),
                    "must be greater than or equal to 0"));
        }
        // Stricter than OpenKruise, which takes an unusable value as 0 and then never creates a pod.
        IntOrPercentRule.POSITIVE_AT_MOST_ALL.check("spec.burstReplicas", spec.getBurstReplicas(), errors);
        if (spec.getLifecycle() != null && spec.getLifecycle().getInPlaceUpdate() != null) {
            errors.add(FieldError.forbidden("spec.lifecycle.inPlaceUpdate", "inPlaceUpdate hook has not supported yet"));
        }
        return errors;
    }

    private static void validateUpdateStrategy(DaemonSetUpdateStrategy strategy, List<FieldError> errors) {
        String path = "spec.updateStrategy";
        String type = strategy == null ? null : strategy.getType();
        DaemonSetUpdateStrategyType known = strategy == null ? null : strategy.typeValue().orElse(null);
        if (known == DaemonSetUpdateStrategyType.ON_DELETE) {
            return;
        }
        if (known == DaemonSetUpdateStrategyType.ROLLING_UPDATE) {
            if (strategy.getRollingUpdate() == null) {
                errors.add(FieldError.required(path + ".rollingUpdate", ""));
                return;
            }
            validateRollingUpdate(strategy.getRollingUpdate(), errors);
            return;
        }
        errors.add(FieldError.notSupported(path + ".type", type == null ? "" : type, STRATEGY_TYPES));
    }

    private static void validateRollingUpdate(RollingUpdateDaemonSet ru, List<FieldError> errors) {
        String base = "spec.updateStrategy.rollingUpdate";
        boolean hasUnavailable = false;
        boolean hasSurge = false;
        if (setNonZero(ru.getMaxUnavailable())) {
            hasUnavailable = true;
            IntOrPercentRule.POSITIVE_AT_MOST_ALL.check(base + ".maxUnavailable", ru.getMaxUnavailable(), errors);
        }
        if (setNonZero(ru.getMaxSurge())) {
            hasSurge = true;
            IntOrPercentRule.POSITIVE_AT_MOST_ALL.check(base + ".maxSurge", ru.getMaxSurge(), errors);
        }
        if (hasUnavailable && hasSurge) {
            errors.add(FieldError.invalid(base + ".maxSurge", show(ru.getMaxSurge()), "may not be set when maxUnavailable is non-zero"));
        } else if (!hasUnavailable && !hasSurge) {
            errors.add(FieldError.required(base + ".maxUnavailable", "cannot be 0 when maxSurge is 0"));
        }
        String type = ru.getRollingUpdateType();
        if (type != null && !type.isEmpty()) {
            RollingUpdateType known = ru.rollingUpdateTypeValue().orElse(null);
            if (known == null) {
                errors.add(FieldError.notSupported(base + ".rollingUpdateType", type, ROLLING_TYPES));
            } else if (known == RollingUpdateType.IN_PLACE_IF_POSSIBLE && hasSurge) {
                errors.add(FieldError.required(base + ".maxSurge", "must be 0 for InPlaceIfPossible type"));
            }
        }
        IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check(base + ".partition", ru.getPartition(), errors);
        if (ru.getSelector() != null) {
            LabelRules.validateSelector(ru.getSelector(), base + ".selector", errors);
        }
    }

    /**
     * Whether an int-or-percent is set to something other than 0 (or 0%). Stricter than OpenKruise, which reads a
     * malformed string as 0 and lets it through: a malformed one counts as set, so its syntax is reported.
     */
    static boolean setNonZero(IntOrString v) {
        if (v == null) {
            return false;
        }
        if (v.getIntVal() != null) {
            return v.getIntVal() != 0;
        }
        if (v.getStrVal() == null) {
            return false;
        }
        try {
            return IntOrPercent.percent(v.getStrVal()) != 0;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    private static String show(IntOrString v) {
        return v.getIntVal() != null ? v.getIntVal().toString() : v.getStrVal();
    }

    private static void validateSelectorAndTemplate(DaemonSetSpec spec, List<FieldError> errors) {
        if (SelectorAndTemplate.check(spec.getSelector(), spec.getTemplate(), "daemonset", errors)) {
            SelectorAndTemplate.checkAlwaysRunning(spec.getTemplate().getSpec(), "DaemonSet", errors);
        }
    }
}
