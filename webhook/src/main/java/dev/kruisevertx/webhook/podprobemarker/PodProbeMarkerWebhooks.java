package dev.kruisevertx.webhook.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import io.vertx.core.Future;

import java.util.List;

/**
 * {@code /validate-apps-kruise-io-podprobemarker} (CREATE, UPDATE): {@link PodProbeMarkerValidation}. As OpenKruise,
 * every request is refused (403) while PodProbeMarkerGate or KruiseDaemon is off, since no prober would run it.
 */
public final class PodProbeMarkerWebhooks {
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-podprobemarker";

    private PodProbeMarkerWebhooks() {
    }

    public static void register(AdmissionRegistry registry, boolean podProbeMarkerGate, boolean kruiseDaemon) {
        registry.register(VALIDATE_PATH, validating(podProbeMarkerGate, kruiseDaemon));
    }

    public static AdmissionHandler validating(boolean podProbeMarkerGate, boolean kruiseDaemon) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionObjects.Decoded<PodProbeMarker> decoded = AdmissionObjects.decode(request, PodProbeMarker.class,
                    PodProbeMarker.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            if (!podProbeMarkerGate) {
                return Future.succeededFuture(AdmissionResponse.errored(403,
                        "feature-gate PodProbeMarkerGate is not enabled"));
            }
            if (!kruiseDaemon) {
                return Future.succeededFuture(AdmissionResponse.errored(403, "feature-gate KruiseDaemon is not enabled"));
            }
            List<FieldError> errors = PodProbeMarkerValidation.validate(decoded.object(), decoded.old());
            return Future.succeededFuture(errors.isEmpty() ? AdmissionResponse.allow()
                    : AdmissionResponse.denied(422, FieldError.aggregate(errors)));
        };
    }
}
