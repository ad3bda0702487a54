package dev.kruisevertx.webhook.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetConversion;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.admission.ServedVersions;
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
    private static final ServedVersions<DaemonSet> VERSIONS = ServedVersions.of(DaemonSet.KIND, ALPHA,
            DaemonSet.API_VERSION, DaemonSet.class, DaemonSetConversion::toV1beta1, DaemonSetConversion::toV1alpha1,
            true);

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
        return VERSIONS.converter();
    }

    public static AdmissionHandler mutating() {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            ObjectNode object = request.object();
            boolean alpha = VERSIONS.isAlpha(object);
            ObjectNode input = object;
            if (alpha) {
                input = object.deepCopy();
                DaemonSetDefaults.alphaSurging(input);
            }
            DaemonSet changed;
            try {
                changed = VERSIONS.decode(input, true);
            } catch (ServedVersions.Refused r) {
                return Future.succeededFuture(r.response());
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
            AdmissionObjects.Decoded<DaemonSet> decoded = VERSIONS.decode(request);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            DaemonSet set = decoded.object();
            DaemonSet old = decoded.old();
            List<FieldError> errors = new ArrayList<>();
            if (VERSIONS.isAlpha(request.object())) {
                errors.addAll(DaemonSetValidation.alphaSurging(request.object()));
            }
            errors.addAll(old == null ? DaemonSetValidation.validateCreate(set) : DaemonSetValidation.validateUpdate(set, old));
            return Future.succeededFuture(AdmissionResponse.validated(errors));
        };
    }
}
