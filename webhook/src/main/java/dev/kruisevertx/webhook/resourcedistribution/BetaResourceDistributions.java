package dev.kruisevertx.webhook.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.ResourceDistributionConversion;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.Converter;

/**
 * The v1beta1 side of the ResourceDistribution webhook: a v1beta1 object is judged in its v1alpha1 form (the stored
 * one, which the controller reads), so both versions follow the same rules; the answer names the v1beta1 field
 * ({@code spec.targets.namespaceSelector}).
 */
final class BetaResourceDistributions {
    private static final String ALPHA_SELECTOR = "spec.targets.namespaceLabelSelector";
    private static final String BETA_SELECTOR = "spec.targets.namespaceSelector";

    private BetaResourceDistributions() {
    }

    static boolean isBeta(AdmissionRequest request) {
        String apiVersion = request.object().path("apiVersion").asText("");
        return ResourceDistributionConversion.BETA.equals(apiVersion)
                || (apiVersion.isEmpty() && "v1beta1".equals(request.version()));
    }

    /** The request with its objects in v1alpha1 (converting a v1beta1 ResourceDistribution never fails). */
    static AdmissionRequest asAlpha(AdmissionRequest request) {
        ObjectNode object = request.object();
        if (object.path("apiVersion").asText("").isEmpty()) {
            object = object.deepCopy().put("apiVersion", ResourceDistributionConversion.BETA);
        }
        ObjectNode old = request.oldObject();
        if (old != null && ResourceDistributionConversion.BETA.equals(old.path("apiVersion").asText(""))) {
            old = ResourceDistributionConversion.toV1alpha1(old);
        }
        return new AdmissionRequest(request.reviewApiVersion(), request.uid(), request.group(), "v1alpha1",
                request.kind(), request.resource(), request.subResource(), request.name(), request.namespace(),
                request.operation(), ResourceDistributionConversion.toV1alpha1(object), old, request.dryRun(),
                request.userInfo());
    }

    /** A field error about the v1alpha1 form, with the path spelled as in v1beta1. */
    static FieldError betaPath(FieldError error) {
        String field = error.field();
        if (field == null || !field.startsWith(ALPHA_SELECTOR)) {
            return error;
        }
        // The detail may quote the inner error with its path (labelSelectorAsSelector error: ...).
        String detail = error.detail() == null ? null : error.detail().replace(ALPHA_SELECTOR, BETA_SELECTOR);
        return new FieldError(error.type(), BETA_SELECTOR + field.substring(ALPHA_SELECTOR.length()), error.value(),
                detail);
    }

    /** The {@code /convert} step between v1alpha1 (stored) and v1beta1. */
    static Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (ResourceDistributionConversion.ALPHA.equals(desired)
                        && ResourceDistributionConversion.BETA.equals(from)) {
                    return ResourceDistributionConversion.toV1alpha1(object);
                }
                if (ResourceDistributionConversion.BETA.equals(desired)
                        && ResourceDistributionConversion.ALPHA.equals(from)) {
                    return ResourceDistributionConversion.toV1beta1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert ResourceDistribution " + name(object) + " to " + desired
                        + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert ResourceDistribution from " + from + " to " + desired
                    + ": the served versions are " + ResourceDistributionConversion.ALPHA + " and "
                    + ResourceDistributionConversion.BETA);
        };
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText("");
    }
}
