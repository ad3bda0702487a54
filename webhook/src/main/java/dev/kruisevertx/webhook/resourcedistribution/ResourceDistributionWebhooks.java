package dev.kruisevertx.webhook.resourcedistribution;

import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import io.vertx.core.Future;

/**
 * {@code /validate-apps-kruise-io-resourcedistribution} (the registry adds the legacy {@code -v1alpha1-} spelling):
 * OpenKruise v1.9.0's checks of a ResourceDistribution on CREATE and UPDATE ({@link ResourceDistributionValidation}),
 * refused with 422 listing every error; every request is refused with 403 while the ResourceDistributionGate is off.
 * OpenKruise has no defaulting webhook for this kind, so neither does this project.
 */
public final class ResourceDistributionWebhooks {
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-resourcedistribution";
    static final String GATE_OFF = "feature-gate ResourceDistributionGate is not enabled";

    private ResourceDistributionWebhooks() {
    }

    public static void register(AdmissionRegistry registry, boolean gateOn) {
        registry.register(VALIDATE_PATH, validating(gateOn));
    }

    public static AdmissionHandler validating(boolean gateOn) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionObjects.Decoded<ResourceDistribution> decoded = AdmissionObjects.decode(request,
                    ResourceDistribution.class, ResourceDistribution.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            // As OpenKruise: decoding comes first (a bad object is 400 either way), then the gate.
            if (!gateOn) {
                return Future.succeededFuture(AdmissionResponse.errored(403, GATE_OFF));
            }
            return Future.succeededFuture(AdmissionResponse.validated(
                    ResourceDistributionValidation.validate(decoded.object(), decoded.old())));
        };
    }
}
