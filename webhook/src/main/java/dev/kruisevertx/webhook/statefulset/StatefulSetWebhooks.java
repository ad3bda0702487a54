package dev.kruisevertx.webhook.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetConversion;
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
    // The only part of a v1alpha1 object the conversion reads is the annotation holding v1beta1 fields.
    private static final ServedVersions<StatefulSet> VERSIONS = ServedVersions.of(StatefulSet.KIND, ALPHA,
                    StatefulSet.API_VERSION, StatefulSet.class, StatefulSetConversion::toV1beta1,
                    StatefulSetConversion::toV1alpha1, true)
            .refusingUnconvertible((object, e) -> FieldError.invalid(
                    "metadata.annotations[" + StatefulSetConversion.BETA_FIELDS_ANNOTATION + "]",
                    object.path("metadata").path("annotations").path(StatefulSetConversion.BETA_FIELDS_ANNOTATION)
                            .asText(""), e.getMessage()));

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
        return VERSIONS.converter();
    }

    public static AdmissionHandler mutating(Gates gates) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            boolean alpha = VERSIONS.isAlpha(request.object());
            StatefulSet changed;
            boolean templateChanged;
            try {
                changed = VERSIONS.decode(request.object(), true);
                templateChanged = request.oldObject() == null
                        || templateChanged(VERSIONS.decode(request.oldObject(), false), changed);
            } catch (ServedVersions.Refused r) {
                return Future.succeededFuture(r.response());
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
            AdmissionObjects.Decoded<StatefulSet> decoded = VERSIONS.decode(request);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            StatefulSet set = decoded.object();
            StatefulSet old = decoded.old();
            List<FieldError> errors = old == null ? StatefulSetValidation.validateCreate(set)
                    : StatefulSetValidation.validateUpdate(set, old);
            if (errors.isEmpty() && old != null && gates.autoResizePvc()) {
                errors = StatefulSetValidation.validateVolumeClaimTemplateUpdate(set, old);
            }
            return Future.succeededFuture(AdmissionResponse.validated(errors));
        };
    }
}
