package dev.kruisevertx.webhook.resourcedistribution;

import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;
import io.vertx.core.Future;

import java.util.List;

/**
 * {@code /validate-apps-kruise-io-resourcedistribution} (the registry adds the legacy {@code -v1alpha1-} spelling):
 * OpenKruise v1.9.0's checks of a ResourceDistribution on CREATE and UPDATE ({@link ResourceDistributionValidation}),
 * refused with 422 listing every error; every request is refused with 403 while the ResourceDistributionGate is off.
 * OpenKruise has no defaulting webhook for this kind, so neither does this project. Both served versions are judged:
 * a v1beta1 object in its v1alpha1 form (the stored one), its errors naming the v1beta1 fields.
 * {@link #registerConversion} adds the v1alpha1 <-> v1beta1 converter to {@code /convert}.
 */
public final class ResourceDistributionWebhooks {
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-resourcedistribution";
    static final String GATE_OFF = "feature-gate ResourceDistributionGate is not enabled";

    private ResourceDistributionWebhooks() {
    }

    public static void register(AdmissionRegistry registry, boolean gateOn) {
        registry.register(VALIDATE_PATH, validating(gateOn));
    }

    /** Registers the ResourceDistribution converter for {@code /convert}. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(ResourceDistribution.GROUP, ResourceDistribution.KIND, converter());
    }

    public static Converter converter() {
        return BetaResourceDistributions.converter();
    }

    public static AdmissionHandler validating(boolean gateOn) {
        return sent -> {
            if (sent.object() == null || sent.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            boolean beta = BetaResourceDistributions.isBeta(sent);
            AdmissionRequest request = beta ? BetaResourceDistributions.asAlpha(sent) : sent;
            AdmissionObjects.Decoded<ResourceDistribution> decoded = AdmissionObjects.decode(request,
                    ResourceDistribution.class, ResourceDistribution.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            // As OpenKruise: decoding comes first (a bad object is 400 either way), then the gate.
            if (!gateOn) {
                return Future.succeededFuture(AdmissionResponse.errored(403, GATE_OFF));
            }
            List<FieldError> errors = ResourceDistributionValidation.validate(decoded.object(), decoded.old());
            if (beta) {
                errors = errors.stream().map(BetaResourceDistributions::betaPath).toList();
            }
            return Future.succeededFuture(AdmissionResponse.validated(errors));
        };
    }
}
