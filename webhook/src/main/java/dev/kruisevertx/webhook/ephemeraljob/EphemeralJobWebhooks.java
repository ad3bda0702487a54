package dev.kruisevertx.webhook.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import io.vertx.core.Future;

/**
 * {@code /validate-apps-kruise-io-v1alpha1-ephemeraljob} (CREATE and UPDATE), as OpenKruise v1.9.0: validation only
 * (OpenKruise has no defaulting webhook for this kind). An object that does not decode is refused with the field
 * that is wrong; validation errors are 422 (OpenKruise answers 400 with the same list).
 */
public final class EphemeralJobWebhooks {
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-v1alpha1-ephemeraljob";

    private EphemeralJobWebhooks() {
    }

    public static void register(AdmissionRegistry registry) {
        registry.register(VALIDATE_PATH, validating());
    }

    public static AdmissionHandler validating() {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionObjects.Decoded<EphemeralJob> decoded = AdmissionObjects.decode(request, EphemeralJob.class,
                    EphemeralJob.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            return Future.succeededFuture(AdmissionResponse.validated(EphemeralJobValidation.validate(decoded.object())));
        };
    }
}
