package dev.kruisevertx.webhook.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetConversion;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.DecodeProblems;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code /mutate-apps-kruise-io-daemonset} (defaults) and {@code /validate-apps-kruise-io-daemonset} (validation)
 * for v1alpha1 and v1beta1, and the v1alpha1 <-> v1beta1 converter for {@code /convert}. A v1alpha1 object is
 * converted to v1beta1, defaulted or validated there, and (for defaults) converted back, so both versions follow the
 * same rules; the deprecated v1alpha1 {@code Surging} type is handled on the v1alpha1 object first.
 */
public final class DaemonSetWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-daemonset";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-daemonset";
    static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.DaemonSet.API_VERSION;

    private DaemonSetWebhooks() {
    }

    public static void register(AdmissionRegistry registry) {
        registry.register(MUTATE_PATH, mutating());
        registry.register(VALIDATE_PATH, validating());
    }

    /** Registers {@link #converter()} for DaemonSet.apps.kruise.io. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(DaemonSet.GROUP, DaemonSet.KIND, converter());
    }

    public static Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (DaemonSet.API_VERSION.equals(desired) && ALPHA.equals(from)) {
                    return DaemonSetConversion.toV1beta1(object);
                }
                if (ALPHA.equals(desired) && DaemonSet.API_VERSION.equals(from)) {
                    return DaemonSetConversion.toV1alpha1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert DaemonSet " + name(object) + " to " + desired + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert DaemonSet from " + from + " to " + desired
                    + ": the served versions are " + ALPHA + " and " + DaemonSet.API_VERSION);
        };
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("namespace").asText("") + "/" + object.path("metadata").path("name").asText("");
    }

    public static AdmissionHandler mutating() {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            ObjectNode object = request.object();
            boolean alpha = ALPHA.equals(object.path("apiVersion").asText(""));
            ObjectNode input = object;
            if (alpha) {
                input = object.deepCopy();
                DaemonSetDefaults.alphaSurging(input);
            }
            DaemonSet changed;
            try {
                changed = decode(input, true);
            } catch (Refused r) {
                return Future.succeededFuture(r.response);
            }
            // For v1beta1 the decoded copy is the base, so only the defaults show in the patch; a v1alpha1 object
            // is patched from what was sent, as the Surging step changes it before decoding.
            JsonNode before = alpha ? object : Json.toTree(changed);
            DaemonSetDefaults.apply(changed);
            JsonNode after = Json.toTree(changed);
            if (alpha) {
                after = DaemonSetConversion.toV1alpha1(after);
            }
            return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.patch(before, after)));
        };
    }

    public static AdmissionHandler validating() {
        return request -> {
            if (request.isDelete() || request.object() == null) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            DaemonSet set;
            DaemonSet old = null;
            try {
                set = decode(request.object(), true);
                if (request.isUpdate() && request.oldObject() != null) {
                    old = decode(request.oldObject(), false);
                }
            } catch (Refused r) {
                return Future.succeededFuture(r.response);
            }
            List<FieldError> errors = new ArrayList<>();
            if (ALPHA.equals(request.object().path("apiVersion").asText(""))) {
                errors.addAll(DaemonSetValidation.alphaSurging(request.object()));
            }
            errors.addAll(old == null ? DaemonSetValidation.validateCreate(set) : DaemonSetValidation.validateUpdate(set, old));
            if (errors.isEmpty()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            return Future.succeededFuture(AdmissionResponse.denied(422, FieldError.aggregate(errors)));
        };
    }

    /**
     * The v1beta1 form of a DaemonSet of either served version.
     *
     * @param sent true for the object of the request (checked strictly), false for the stored old object
     * @throws Refused with the answer when it cannot be read
     */
    static DaemonSet decode(ObjectNode object, boolean sent) throws Refused {
        String apiVersion = object.path("apiVersion").asText("");
        JsonNode beta;
        if (ALPHA.equals(apiVersion)) {
            beta = DaemonSetConversion.toV1beta1(object);
        } else if (apiVersion.isEmpty() || DaemonSet.API_VERSION.equals(apiVersion)) {
            beta = object;
        } else {
            throw new Refused(AdmissionResponse.errored(400, "DaemonSet " + apiVersion + " is not served: the served "
                    + "versions are " + ALPHA + " and " + DaemonSet.API_VERSION));
        }
        try {
            return sent ? Json.decode(beta, DaemonSet.class) : Json.toModel(beta, DaemonSet.class);
        } catch (IllegalArgumentException e) {
            if (sent) {
                throw new Refused(DecodeProblems.denial(e, beta));
            }
            throw new Refused(AdmissionResponse.denied(422, AdmissionObjects.storedUnreadable(DaemonSet.KIND)
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
