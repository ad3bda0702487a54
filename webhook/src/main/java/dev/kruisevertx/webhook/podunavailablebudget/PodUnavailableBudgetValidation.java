package dev.kruisevertx.webhook.podunavailablebudget;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.IntOrPercentRule;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OpenKruise's PodUnavailableBudget validation: the α annotations, selector xor targetRef (both immutable),
 * maxUnavailable xor minAvailable (non-negative int or percent, at most 100%), and no two budgets of a namespace
 * protecting the same workload or loosely overlapping selectors. Pure: the other budgets are passed in.
 */
public final class PodUnavailableBudgetValidation {
    private PodUnavailableBudgetValidation() {
    }

    /**
     * @param pub    the budget as submitted
     * @param old    the stored budget on UPDATE, null on CREATE
     * @param others the budgets of the same namespace (the submitted one, by name, is skipped)
     */
    public static List<FieldError> validate(PodUnavailableBudget pub, PodUnavailableBudget old,
                                            List<PodUnavailableBudget> others) {
        List<FieldError> errors = new ArrayList<>();
        Map<String, String> annotations = pub.getMetadata() == null || pub.getMetadata().getAnnotations() == null
                ? Map.of() : pub.getMetadata().getAnnotations();
        String operations = annotations.get(WellKnown.PUB_PROTECT_OPERATIONS_ANNOTATION);
        if (operations != null) {
            // Every bad entry is one error, as OpenKruise reports them (an empty value is one bad entry).
            for (String op : operations.split(",", -1)) {
                if (PubOperation.fromValue(op).isEmpty()) {
                    errors.add(FieldError.internal("metadata", "annotation["
                            + WellKnown.PUB_PROTECT_OPERATIONS_ANNOTATION + "] is invalid"));
                }
            }
        }
        String replicas = annotations.get(WellKnown.PUB_PROTECT_TOTAL_REPLICAS_ANNOTATION);
        if (replicas != null) {
            try {
                Integer.parseInt(replicas);
            } catch (NumberFormatException e) {
                errors.add(FieldError.internal("metadata", "annotation["
                        + WellKnown.PUB_PROTECT_TOTAL_REPLICAS_ANNOTATION + "] is invalid"));
            }
        }
        PodUnavailableBudgetSpec spec = pub.spec();
        validateSpec(spec, errors);
        if (old != null && (!Objects.equals(spec.getSelector(), old.spec().getSelector())
                || !Objects.equals(spec.getTargetRef(), old.spec().getTargetRef()))) {
            errors.add(FieldError.required("spec.selector, targetRef", "selector and targetRef cannot be modified"));
        }
        FieldError conflict = conflict(pub, others);
        if (conflict != null) {
            errors.add(conflict);
        }
        return errors;
    }

    private static void validateSpec(PodUnavailableBudgetSpec spec, List<FieldError> errors) {
        LabelSelector selector = spec.getSelector();
        TargetReference ref = spec.getTargetRef();
        if (selector == null && ref == null) {
            errors.add(FieldError.required("spec.selector, targetRef",
                    "no selector or targetRef defined in PodUnavailableBudget"));
        } else if (selector != null && ref != null) {
            errors.add(FieldError.required("spec.selector, targetRef", "selector and targetRef are mutually exclusive"));
        } else if (ref != null) {
            if (isEmpty(ref.getApiVersion()) || isEmpty(ref.getName()) || isEmpty(ref.getKind())) {
                errors.add(FieldError.invalid("spec.TargetReference", ref.toString(),
                        "empty TargetReference is not valid for PodUnavailableBudget."));
            }
            String gvProblem = groupVersionProblem(ref.getApiVersion());
            if (gvProblem != null) {
                errors.add(FieldError.invalid("spec.TargetReference", ref.toString(), gvProblem));
            }
        } else {
            LabelRules.validateSelector(selector, "spec.selector", errors);
            int terms = (selector.getMatchLabels() == null ? 0 : selector.getMatchLabels().size())
                    + (selector.getMatchExpressions() == null ? 0 : selector.getMatchExpressions().size());
            if (terms == 0) {
                errors.add(FieldError.invalid("spec.selector", "{}",
                        "empty selector is not valid for PodUnavailableBudget."));
            }
        }
        if (spec.getMaxUnavailable() == null && spec.getMinAvailable() == null) {
            errors.add(FieldError.required("spec.maxUnavailable, minAvailable",
                    "no maxUnavailable or minAvailable defined in PodUnavailableBudget"));
        } else if (spec.getMaxUnavailable() != null && spec.getMinAvailable() != null) {
            errors.add(FieldError.required("spec.maxUnavailable, minAvailable",
                    "maxUnavailable and minAvailable are mutually exclusive"));
        } else if (spec.getMaxUnavailable() != null) {
            IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check("spec.maxUnavailable", spec.getMaxUnavailable(), errors);
        } else {
            IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check("spec.minAvailable", spec.getMinAvailable(), errors);
        }
    }

    /** Kubernetes' ParseGroupVersion: "", "v1" and "group/version" parse; more slashes do not. */
    static String groupVersionProblem(String apiVersion) {
        if (apiVersion == null || apiVersion.isEmpty() || apiVersion.indexOf('/') == apiVersion.lastIndexOf('/')) {
            return null;
        }
        return "unexpected GroupVersion string: " + apiVersion;
    }

    static String group(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** The first other budget protecting the same pods, as OpenKruise reports only the first. */
    static FieldError conflict(PodUnavailableBudget pub, List<PodUnavailableBudget> others) {
        String name = pub.getMetadata() == null ? null : pub.getMetadata().getName();
        String namespace = pub.getMetadata() == null ? null : pub.getMetadata().getNamespace();
        PodUnavailableBudgetSpec spec = pub.spec();
        for (PodUnavailableBudget other : others) {
            if (other.getMetadata() == null || Objects.equals(name, other.getMetadata().getName())
                    || (namespace != null && other.getMetadata().getNamespace() != null
                    && !namespace.equals(other.getMetadata().getNamespace()))) {
                continue;
            }
            TargetReference mine = spec.getTargetRef();
            TargetReference theirs = other.spec().getTargetRef();
            if (mine != null && theirs != null) {
                if (group(mine.getApiVersion()).equals(group(theirs.getApiVersion()))
                        && Objects.equals(mine.getKind(), theirs.getKind())
                        && Objects.equals(mine.getName(), theirs.getName())) {
                    return FieldError.invalid("spec.targetReference", mine.toString(),
                            "pub.spec.targetReference is in conflict with other PodUnavailableBudget "
                                    + other.getMetadata().getName());
                }
            } else if (spec.getSelector() != null && other.spec().getSelector() != null
                    && SelectorOverlap.loose(spec.getSelector(), other.spec().getSelector())) {
                return FieldError.invalid("spec.selector", SelectorOverlap.render(spec.getSelector()),
                        "pub.spec.selector is in conflict with other PodUnavailableBudget "
                                + other.getMetadata().getName());
            }
        }
        return null;
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }
}
