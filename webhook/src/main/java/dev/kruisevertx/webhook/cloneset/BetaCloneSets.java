package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.CloneSet;
import dev.kruisevertx.api.apps.v1beta1.CloneSetConversion;
import dev.kruisevertx.api.apps.v1beta1.CloneSetUpdateStrategyType;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.Converter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The v1beta1 side of the CloneSet webhooks: a v1beta1 object is judged in its v1alpha1 form (the stored one, which
 * the controller reads), so both versions follow the same defaults and rules; field paths in the answer are spelled
 * the v1beta1 way.
 */
final class BetaCloneSets {
    private static final Pattern ROLLING_PATH = Pattern.compile(
            "^spec\\.updateStrategy\\.(partition|maxUnavailable|maxSurge|paused|priorityStrategy|scatterStrategy"
                    + "|inPlaceUpdateStrategy)(?=$|[.\\[])");
    private static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.CloneSet.API_VERSION;

    private BetaCloneSets() {
    }

    static boolean isBeta(JsonNode object) {
        return object != null && CloneSet.API_VERSION.equals(object.path("apiVersion").asText(""));
    }

    /**
     * The request with its objects in v1alpha1.
     *
     * @throws IllegalArgumentException when the object sent cannot be converted (the message says why)
     */
    static AdmissionRequest asAlpha(AdmissionRequest request) {
        ObjectNode object = CloneSetConversion.toV1alpha1(normalized(request.object()));
        ObjectNode old = null;
        if (request.oldObject() != null) {
            try {
                old = isBeta(request.oldObject()) ? CloneSetConversion.toV1alpha1(request.oldObject())
                        : request.oldObject();
            } catch (IllegalArgumentException e) {
                old = request.oldObject(); // read leniently later, which names what is wrong with it
            }
        }
        return new AdmissionRequest(request.reviewApiVersion(), request.uid(), request.group(), "v1alpha1",
                request.kind(), request.resource(), request.subResource(), request.name(), request.namespace(),
                request.operation(), object, old, request.dryRun(), request.userInfo());
    }

    /**
     * A v1beta1 object with the v1alpha1 spellings someone may have copied over moved to their v1beta1 fields: the
     * exclude-preparing-delete label {@code "true"} turns {@code scaleStrategy.excludePreparingDelete} on (the
     * conversion lets the field win, so without this the label would be dropped silently).
     */
    static ObjectNode normalized(ObjectNode beta) {
        JsonNode labels = beta.path("metadata").path("labels");
        String key = WellKnown.CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL;
        if (!"true".equals(labels.path(key).asText(null)) || !(beta.get("spec") instanceof ObjectNode spec)) {
            return beta;
        }
        ObjectNode copy = beta.deepCopy();
        ObjectNode copiedSpec = (ObjectNode) copy.get("spec");
        JsonNode scale = copiedSpec.get("scaleStrategy");
        if (scale != null && !scale.isNull() && !scale.isObject()) {
            return beta;
        }
        ObjectNode s = scale instanceof ObjectNode o ? o : copiedSpec.putObject("scaleStrategy");
        s.put("excludePreparingDelete", true);
        ((ObjectNode) copy.get("metadata").get("labels")).remove(key);
        if (copy.get("metadata").get("labels").isEmpty()) {
            ((ObjectNode) copy.get("metadata")).remove("labels");
        }
        return copy;
    }

    /** A field error about the v1alpha1 form of {@code beta}, with the path spelled as in v1beta1. */
    static FieldError betaPath(FieldError error, JsonNode beta) {
        String field = error.field();
        if (field == null) {
            return error;
        }
        Matcher m = ROLLING_PATH.matcher(field);
        String mapped = field;
        if (m.find()) {
            mapped = "spec.updateStrategy.rollingUpdate." + field.substring("spec.updateStrategy.".length());
        } else if (field.equals("spec.updateStrategy.type")
                && !CloneSetUpdateStrategyType.ON_DELETE.value().equals(beta.path("spec").path("updateStrategy")
                .path("type").asText(""))) {
            mapped = "spec.updateStrategy.rollingUpdate.podUpdatePolicy";
        }
        return mapped.equals(field) ? error : new FieldError(error.type(), mapped, error.value(), error.detail());
    }

    /** The {@code /convert} step between v1alpha1 (stored) and v1beta1. */
    static Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (ALPHA.equals(desired) && CloneSet.API_VERSION.equals(from)) {
                    return CloneSetConversion.toV1alpha1(object);
                }
                if (CloneSet.API_VERSION.equals(desired) && ALPHA.equals(from)) {
                    return CloneSetConversion.toV1beta1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert CloneSet "
                        + object.path("metadata").path("namespace").asText("") + "/"
                        + object.path("metadata").path("name").asText("") + " to " + desired + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert CloneSet from " + from + " to " + desired
                    + ": the served versions are " + ALPHA + " and " + CloneSet.API_VERSION);
        };
    }
}
