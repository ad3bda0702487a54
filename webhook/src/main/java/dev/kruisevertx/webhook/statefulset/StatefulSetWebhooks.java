package dev.kruisevertx.webhook.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetConversion;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.DecodeProblems;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;
import io.vertx.core.Future;

import java.util.List;
import java.util.Objects;

/**
 * {@code /mutate-apps-kruise-io-statefulset} (defaults) and {@code /validate-apps-kruise-io-statefulset}
 * (validation) for v1alpha1 and v1beta1, with the legacy {@code -v1alpha1-} spellings, and the v1alpha1 <->
 * v1beta1 converter for {@code /convert}. A v1alpha1 object is converted to v1beta1, defaulted or validated there,
 * and (for defaults) converted back, so both versions follow the same rules.
 */
public final class StatefulSetWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-statefulset";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-statefulset";
    static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.StatefulSet.API_VERSION;

    /** Feature gates the webhooks read. */
    public record Gates(boolean templateNoDefaults, boolean autoDeletePvc, boolean autoResizePvc) {
    }

    private StatefulSetWebhooks() {
    }

    public static void register(AdmissionRegistry registry, Gates gates) {
        registry.register(MUTATE_PATH, mutating(gates));
        registry.register(VALIDATE_PATH, validating(gates));
    }

    /** Registers {@link #converter()} for StatefulSet.apps.kruise.io. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(StatefulSet.GROUP, StatefulSet.KIND, converter());
    }

    public static Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (StatefulSet.API_VERSION.equals(desired) && ALPHA.equals(from)) {
                    return StatefulSetConversion.toV1beta1(object);
                }
                if (ALPHA.equals(desired) && StatefulSet.API_VERSION.equals(from)) {
                    return StatefulSetConversion.toV1alpha1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert StatefulSet " + name(object) + " to " + desired + ": "
                        + e.getMessage());
            }
            throw new ConversionException("cannot convert StatefulSet from " + from + " to " + desired
                    + ": the served versions are " + ALPHA + " and " + StatefulSet.API_VERSION);
        };
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("namespace").asText("") + "/" + object.path("metadata").path("name").asText("");
    }

    public static AdmissionHandler mutating(Gates gates) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            boolean alpha = ALPHA.equals(request.object().path("apiVersion").asText(""));
            StatefulSet changed;
            boolean templateChanged;
            try {
                changed = decode(request.object(), true);
                templateChanged = request.oldObject() == null
                        || templateChanged(decode(request.oldObject(), false), changed);
            } catch (Refused r) {
                return Future.succeededFuture(r.response);
            }
            // One decoded copy, serialized before and after the defaults (a large object is large enough once).
            JsonNode before = Json.toTree(changed);
            StatefulSetDefaults.apply(changed, new StatefulSetDefaults.Options(
                    !gates.templateNoDefaults() && (request.isCreate() || templateChanged), !alpha,
                    gates.autoDeletePvc(), gates.autoResizePvc()));
            JsonNode after = Json.toTree(changed);
            if (alpha) {
                before = StatefulSetConversion.toV1alpha1(before);
                after = StatefulSetConversion.toV1alpha1(after);
            }
            return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.patch(before, after)));
        };
    }

    private static boolean templateChanged(StatefulSet old, StatefulSet now) {
        return old.getSpec() == null || now.getSpec() == null
                || !Objects.equals(Json.toNode(old.getSpec().getTemplate()), Json.toNode(now.getSpec().getTemplate()))
                || !Objects.equals(Json.toNode(old.getSpec().getVolumeClaimTemplates()),
                Json.toNode(now.getSpec().getVolumeClaimTemplates()));
    }

    public static AdmissionHandler validating() {
        return validating(new Gates(false, false, false));
    }

    /** Validation; with gate StatefulSetAutoResizePVCGate also OpenKruise's volumeClaimTemplates update check. */
    public static AdmissionHandler validating(Gates gates) {
        return request -> {
            if (request.isDelete() || request.object() == null) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            StatefulSet set;
            StatefulSet old = null;
            try {
                set = decode(request.object(), true);
                if (request.isUpdate() && request.oldObject() != null) {
                    old = decode(request.oldObject(), false);
                }
            } catch (Refused r) {
                return Future.succeededFuture(r.response);
            }
            List<FieldError> errors = old == null ? StatefulSetValidation.validateCreate(set)
                    : StatefulSetValidation.validateUpdate(set, old);
            if (errors.isEmpty() && old != null && gates.autoResizePvc()) {
                errors = StatefulSetValidation.validateVolumeClaimTemplateUpdate(set, old);
            }
            if (errors.isEmpty()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            return Future.succeededFuture(AdmissionResponse.denied(422, FieldError.aggregate(errors)));
        };
    }

    /**
     * The v1beta1 form of a StatefulSet of either served version.
     *
     * @param sent true for the object of the request (checked strictly), false for the stored old object (read as
     *             the API server kept it)
     * @throws Refused with the answer when it cannot be read
     */
    static StatefulSet decode(ObjectNode object, boolean sent) throws Refused {
        String apiVersion = object.path("apiVersion").asText("");
        JsonNode beta;
        if (ALPHA.equals(apiVersion)) {
            try {
                beta = StatefulSetConversion.toV1beta1(object);
            } catch (IllegalArgumentException e) {
                // The only part of a v1alpha1 object the conversion reads is the annotation holding v1beta1 fields.
                String key = StatefulSetConversion.BETA_FIELDS_ANNOTATION;
                FieldError error = FieldError.invalid("metadata.annotations[" + key + "]",
                        object.path("metadata").path("annotations").path(key).asText(""), e.getMessage());
                throw new Refused(AdmissionResponse.denied(422, sent ? error.toString()
                        : AdmissionObjects.storedUnreadable(StatefulSet.KIND) + error));
            }
        } else if (apiVersion.isEmpty() || StatefulSet.API_VERSION.equals(apiVersion)) {
            beta = object;
        } else {
            throw new Refused(AdmissionResponse.errored(400, "StatefulSet " + apiVersion + " is not served: the served "
                    + "versions are " + ALPHA + " and " + StatefulSet.API_VERSION));
        }
        try {
            return sent ? Json.decode(beta, StatefulSet.class) : Json.toModel(beta, StatefulSet.class);
        } catch (IllegalArgumentException e) {
            if (sent) {
                throw new Refused(DecodeProblems.denial(e, beta));
            }
            throw new Refused(AdmissionResponse.denied(422, AdmissionObjects.storedUnreadable(StatefulSet.KIND)
                    + DecodeProblems.fieldError(e, beta)));
        }
    }

    /** A request that cannot be judged, with its answer. */
    static final class Refused extends Exception {
        final transient AdmissionResponse response;

        Refused(AdmissionResponse response) {
            super(response.message(), null, false, false);
            this.response = response;
        }
    }
}
