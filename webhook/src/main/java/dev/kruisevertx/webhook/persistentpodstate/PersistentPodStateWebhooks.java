package dev.kruisevertx.webhook.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.vertx.core.Future;

import java.util.List;

/**
 * {@code /validate-apps-kruise-io-persistentpodstate} (the registry adds the legacy {@code -v1alpha1-} spelling):
 * OpenKruise v1.9.0's checks on CREATE and UPDATE ({@link PersistentPodStateValidation}), refused as OpenKruise
 * refuses them: 400 with every error aggregated. OpenKruise has no defaulting webhook and no feature gate for this kind.
 */
public final class PersistentPodStateWebhooks {
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-persistentpodstate";

    private PersistentPodStateWebhooks() {
    }

    public static void register(AdmissionRegistry registry, PersistentPodStateLookup lookup) {
        registry.register(VALIDATE_PATH, validating(lookup));
    }

    public static AdmissionHandler validating(PersistentPodStateLookup lookup) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionObjects.Decoded<PersistentPodState> decoded = AdmissionObjects.decode(request,
                    PersistentPodState.class, PersistentPodState.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
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
                    : AdmissionResponse.errored(400, FieldError.aggregate(errors)));
        };
    }
}
