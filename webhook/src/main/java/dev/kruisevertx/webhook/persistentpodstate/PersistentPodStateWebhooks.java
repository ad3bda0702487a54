package dev.kruisevertx.webhook.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1beta1.PersistentPodStateConversion;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.StoredVersionView;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.vertx.core.Future;

import java.util.List;

/**
 * {@code /validate-apps-kruise-io-persistentpodstate} (the registry adds the legacy {@code -v1alpha1-} spelling):
 * OpenKruise v1.9.0's checks on CREATE and UPDATE ({@link PersistentPodStateValidation}), refused as OpenKruise
 * refuses them: 400 with every error aggregated. OpenKruise has no defaulting webhook and no feature gate for this kind.
 * A v1beta1 object is judged in its v1alpha1 form (the stored one, which the controller and the pod webhook read) and
 * the errors name the v1beta1 fields; {@link #registerConversion} adds the v1alpha1 <-> v1beta1 converter to
 * {@code /convert}.
 */
public final class PersistentPodStateWebhooks {
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-persistentpodstate";
    static final StoredVersionView VERSIONS = new StoredVersionView(PersistentPodState.KIND,
            PersistentPodStateConversion.ALPHA, PersistentPodStateConversion.BETA,
            PersistentPodStateConversion::toV1alpha1, PersistentPodStateConversion::toV1beta1,
            PersistentPodStateConversion::betaPath);

    private PersistentPodStateWebhooks() {
    }

    public static void register(AdmissionRegistry registry, PersistentPodStateLookup lookup) {
        registry.register(VALIDATE_PATH, validating(lookup));
    }

    /** Registers the PersistentPodState converter for {@code /convert}. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(PersistentPodState.GROUP, PersistentPodState.KIND, VERSIONS.converter());
    }

    public static AdmissionHandler validating(PersistentPodStateLookup lookup) {
        return sent -> {
            if (sent.object() == null || sent.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionRequest request;
            try {
                request = VERSIONS.asStored(sent);
            } catch (IllegalArgumentException e) {
                return Future.succeededFuture(AdmissionResponse.errored(400, e.getMessage()));
            }
            AdmissionObjects.Decoded<PersistentPodState> decoded = AdmissionObjects.decode(request,
                    PersistentPodState.class, PersistentPodState.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(VERSIONS.spelledFor(sent.object(), decoded.refusal()));
            }
            CustomWorkloadWhiteList whiteList;
            try {
                whiteList = lookup.customWorkloads();
            } catch (IllegalArgumentException e) {
                // As OpenKruise: an unreadable whitelist is an internal error, the object is not judged.
                return Future.succeededFuture(AdmissionResponse.errored(500,
                        "failed to get persistent pod state config white list, error: " + e.getMessage()));
            }
            // "metadata": null decodes; it is then judged as an object with no name (one clear error, not a crash).
            if (decoded.object().getMetadata() == null) {
                decoded.object().setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
            }
            if (decoded.old() != null && decoded.old().getMetadata() == null) {
                decoded.old().setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
            }
            String namespace = decoded.object().getMetadata().getNamespace() != null
                    ? decoded.object().getMetadata().getNamespace() : request.namespace();
            List<FieldError> errors = PersistentPodStateValidation.validate(decoded.object(), decoded.old(),
                    lookup.inNamespace(namespace), whiteList);
            return Future.succeededFuture(errors.isEmpty() ? AdmissionResponse.allow()
                    : AdmissionResponse.errored(400, FieldError.aggregate(VERSIONS.spelledFor(sent.object(), errors))));
        };
    }
}
