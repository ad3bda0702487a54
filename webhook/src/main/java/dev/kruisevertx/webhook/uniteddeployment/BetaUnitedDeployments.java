package dev.kruisevertx.webhook.uniteddeployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.UnitedDeploymentConversion;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.Converter;

/**
 * The v1beta1 side of the UnitedDeployment webhooks: a v1beta1 object is judged in its v1alpha1 form (the stored one,
 * which the controller reads), so both versions follow the same defaults and rules. The field paths the rules name
 * are spelled the same in both versions (the versions differ only in the status and inside a cloneSetTemplate's
 * CloneSet spec, which the UnitedDeployment rules do not name).
 */
final class BetaUnitedDeployments {
    private BetaUnitedDeployments() {
    }

    static boolean isBeta(AdmissionRequest request) {
        String apiVersion = request.object().path("apiVersion").asText("");
        return UnitedDeploymentConversion.BETA.equals(apiVersion)
                || (apiVersion.isEmpty() && "v1beta1".equals(request.version()));
    }

    /**
     * The request with its objects in v1alpha1.
     *
     * @throws IllegalArgumentException when the object sent cannot be converted (the message says why)
     */
    static AdmissionRequest asAlpha(AdmissionRequest request) {
        ObjectNode object = UnitedDeploymentConversion.toV1alpha1(withBetaVersion(request.object()));
        ObjectNode old = request.oldObject();
        if (old != null && UnitedDeploymentConversion.BETA.equals(old.path("apiVersion").asText(""))) {
            try {
                old = UnitedDeploymentConversion.toV1alpha1(old);
            } catch (IllegalArgumentException e) {
                // read leniently later, which names what is wrong with it
            }
        }
        return new AdmissionRequest(request.reviewApiVersion(), request.uid(), request.group(), "v1alpha1",
                request.kind(), request.resource(), request.subResource(), request.name(), request.namespace(),
                request.operation(), object, old, request.dryRun(), request.userInfo());
    }

    private static ObjectNode withBetaVersion(ObjectNode object) {
        if (object.path("apiVersion").asText("").isEmpty()) {
            ObjectNode copy = object.deepCopy();
            copy.put("apiVersion", UnitedDeploymentConversion.BETA);
            return copy;
        }
        return object;
    }

    /** The {@code /convert} step between v1alpha1 (stored) and v1beta1. */
    static Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (UnitedDeploymentConversion.ALPHA.equals(desired) && UnitedDeploymentConversion.BETA.equals(from)) {
                    return UnitedDeploymentConversion.toV1alpha1(object);
                }
                if (UnitedDeploymentConversion.BETA.equals(desired) && UnitedDeploymentConversion.ALPHA.equals(from)) {
                    return UnitedDeploymentConversion.toV1beta1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert UnitedDeployment " + name(object) + " to " + desired
                        + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert UnitedDeployment from " + from + " to " + desired
                    + ": the served versions are " + UnitedDeploymentConversion.ALPHA + " and "
                    + UnitedDeploymentConversion.BETA);
        };
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("namespace").asText("") + "/"
                + object.path("metadata").path("name").asText("");
    }
}
