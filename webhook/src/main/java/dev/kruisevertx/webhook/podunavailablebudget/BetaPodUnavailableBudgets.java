package dev.kruisevertx.webhook.podunavailablebudget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudgetConversion;
import dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudgetSpec;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.Converter;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.ArrayList;
import java.util.List;

/**
 * The v1beta1 side of the PodUnavailableBudget webhook: what only v1beta1 has is checked as OpenKruise master checks
 * it (each {@code protectOperations} entry one of DELETE, UPDATE, EVICT, RESIZE; {@code protectTotalReplicas} at
 * least 1, which master's CRD enforces; a non-empty, valid {@code ignoredPodSelector}), then the object is judged in
 * its stored v1alpha1 form by the same rules as a v1alpha1 object.
 */
final class BetaPodUnavailableBudgets {
    private static final String ALPHA = PodUnavailableBudgetConversion.ALPHA;
    // In OpenKruise master's order.
    private static final List<String> SUPPORTED = List.of("DELETE", "UPDATE", "EVICT", "RESIZE");

    private BetaPodUnavailableBudgets() {
    }

    static boolean isBeta(JsonNode object) {
        return object != null && PodUnavailableBudget.API_VERSION.equals(object.path("apiVersion").asText(""));
    }

    /** Master's v1beta1-only checks on a decoded v1beta1 budget. */
    static List<FieldError> validateBetaFields(PodUnavailableBudgetSpec spec) {
        List<FieldError> errors = new ArrayList<>();
        if (spec == null) {
            return errors;
        }
        List<String> operations = spec.getProtectOperations();
        if (operations != null) {
            for (int i = 0; i < operations.size(); i++) {
                String op = operations.get(i);
                if (op == null || PubOperation.fromValue(op).isEmpty()) {
                    errors.add(FieldError.notSupported("spec.protectOperations[" + i + "]", op == null ? "" : op,
                            SUPPORTED));
                }
            }
        }
        Integer total = spec.getProtectTotalReplicas();
        if (total != null && total < 1) {
            errors.add(FieldError.invalid("spec.protectTotalReplicas", total, "must be greater than or equal to 1"));
        }
        LabelSelector ignored = spec.getIgnoredPodSelector();
        if (ignored != null) {
            LabelRules.validateSelector(ignored, "spec.ignoredPodSelector", errors);
            int terms = (ignored.getMatchLabels() == null ? 0 : ignored.getMatchLabels().size())
                    + (ignored.getMatchExpressions() == null ? 0 : ignored.getMatchExpressions().size());
            if (terms == 0) {
                errors.add(FieldError.invalid("spec.ignoredPodSelector", "{}",
                        "empty ignoredPodSelector is not valid for PodUnavailableBudget"));
            }
        }
        return errors;
    }

    /**
     * The request with its objects in v1alpha1.
     *
     * @throws IllegalArgumentException when the object sent cannot be converted (the message names the field)
     */
    static AdmissionRequest asAlpha(AdmissionRequest request) {
        ObjectNode object = PodUnavailableBudgetConversion.toV1alpha1(request.object());
        ObjectNode old = null;
        if (request.oldObject() != null) {
            try {
                old = isBeta(request.oldObject()) ? PodUnavailableBudgetConversion.toV1alpha1(request.oldObject())
                        : request.oldObject();
            } catch (IllegalArgumentException e) {
                old = request.oldObject(); // read leniently later, which names what is wrong with it
            }
        }
        return new AdmissionRequest(request.reviewApiVersion(), request.uid(), request.group(), "v1alpha1",
                request.kind(), request.resource(), request.subResource(), request.name(), request.namespace(),
                request.operation(), object, old, request.dryRun(), request.userInfo());
    }

    /** The {@code /convert} step between v1alpha1 (stored) and v1beta1. */
    static Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (ALPHA.equals(desired) && PodUnavailableBudget.API_VERSION.equals(from)) {
                    return PodUnavailableBudgetConversion.toV1alpha1(object);
                }
                if (PodUnavailableBudget.API_VERSION.equals(desired) && ALPHA.equals(from)) {
                    return PodUnavailableBudgetConversion.toV1beta1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert PodUnavailableBudget "
                        + object.path("metadata").path("namespace").asText("") + "/"
                        + object.path("metadata").path("name").asText("") + " to " + desired + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert PodUnavailableBudget from " + from + " to " + desired
                    + ": the served versions are " + ALPHA + " and " + PodUnavailableBudget.API_VERSION);
        };
    }
}
