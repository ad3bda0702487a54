package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1beta1.WorkloadSpreadConversion;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.StoredVersionView;
import io.vertx.core.Future;

import java.util.List;

/**
 * {@code /validate-apps-kruise-io-v1alpha1-workloadspread}: OpenKruise's checks of a WorkloadSpread on CREATE and
 * UPDATE ({@link WorkloadSpreadValidation}), answered as OpenKruise answers them (400 with the aggregated field
 * errors); every request is refused with 403 while the WorkloadSpread feature gate is off. OpenKruise has no
 * defaulting webhook for WorkloadSpread, so neither does this project. A v1beta1 object is judged in its v1alpha1 form
 * (the stored one, which the controller and the pod webhook read) and the errors name the v1beta1 fields;
 * {@link #registerConversion} adds the v1alpha1 <-> v1beta1 converter to {@code /convert}.
 */
public final class WorkloadSpreadWebhooks {
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-v1alpha1-workloadspread";
    static final String GATE_OFF = "feature-gate WorkloadSpread is not enabled";
    static final StoredVersionView VERSIONS = new StoredVersionView(WorkloadSpread.KIND, WorkloadSpreadConversion.ALPHA,
            WorkloadSpreadConversion.BETA, WorkloadSpreadConversion::toV1alpha1, WorkloadSpreadConversion::toV1beta1,
            WorkloadSpreadConversion::betaPath);

    private WorkloadSpreadWebhooks() {
    }

    public static void register(AdmissionRegistry registry, boolean gateOn, WorkloadSpreadLookup lookup) {
        registry.register(VALIDATE_PATH, validating(gateOn, lookup));
    }

    /** Registers the WorkloadSpread converter for {@code /convert}. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(WorkloadSpread.GROUP, WorkloadSpread.KIND, VERSIONS.converter());
    }

    public static AdmissionHandler validating(boolean gateOn, WorkloadSpreadLookup lookup) {
        return sent -> {
            if (!gateOn) {
                return Future.succeededFuture(AdmissionResponse.errored(403, GATE_OFF));
            }
            if (sent.object() == null || sent.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionRequest request;
            try {
                request = VERSIONS.asStored(sent);
            } catch (IllegalArgumentException e) {
                return Future.succeededFuture(AdmissionResponse.errored(400, e.getMessage()));
            }
            AdmissionObjects.Decoded<WorkloadSpread> decoded = AdmissionObjects.decode(request, WorkloadSpread.class,
                    WorkloadSpread.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(VERSIONS.spelledFor(sent.object(), decoded.refusal()));
            }
            WorkloadSpread ws = decoded.object();
            String namespace = ws.getMetadata() != null && ws.getMetadata().getNamespace() != null
                    ? ws.getMetadata().getNamespace() : request.namespace();
            List<FieldError> errors = WorkloadSpreadValidation.validate(ws, decoded.old(),
                    lookup.inNamespace(namespace), lookup::customWorkloads,
                    ws.spec().getTargetRef() == null ? null : lookup.targetTemplate(namespace, ws.spec().getTargetRef()));
            return Future.succeededFuture(errors.isEmpty() ? AdmissionResponse.allow()
                    : AdmissionResponse.errored(400, FieldError.aggregate(VERSIONS.spelledFor(sent.object(), errors))));
        };
    }
}
