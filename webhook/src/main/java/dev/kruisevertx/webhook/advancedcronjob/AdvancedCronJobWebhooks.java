package dev.kruisevertx.webhook.advancedcronjob;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.DecodeProblems;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.FieldIdenticalVersions;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import io.vertx.core.Future;

import java.util.List;
import java.util.Objects;

/**
 * {@code /mutate-apps-kruise-io-advancedcronjob} (defaults) and {@code /validate-apps-kruise-io-advancedcronjob}
 * for v1alpha1 and v1beta1. The two versions are field-identical, so both decode into the v1beta1 model and a
 * mutation's patch applies to either.
 */
public final class AdvancedCronJobWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-advancedcronjob";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-advancedcronjob";
    static final FieldIdenticalVersions VERSIONS = new FieldIdenticalVersions(AdvancedCronJob.KIND,
            List.of(dev.kruisevertx.api.apps.v1alpha1.AdvancedCronJob.VERSION, AdvancedCronJob.VERSION), true);

    private AdvancedCronJobWebhooks() {
    }

    /** @param templateNoDefaults feature gate TemplateNoDefaults */
    public static void register(AdmissionRegistry registry, boolean templateNoDefaults) {
        registry.register(MUTATE_PATH, mutating(templateNoDefaults));
        registry.register(VALIDATE_PATH, validating());
    }

    public static AdmissionHandler mutating(boolean templateNoDefaults) {
        return VERSIONS.handler(AdvancedCronJob.class, (request, decoded) -> {
            AdvancedCronJob acj = decoded.object();
            boolean templateChanged = decoded.old() == null || !Objects.equals(
                    Json.toNode(decoded.old().spec().getTemplate()), Json.toNode(acj.spec().getTemplate()));
            ObjectNode before = Json.toTree(acj);
            AdvancedCronJobDefaults.apply(acj, !templateNoDefaults && templateChanged);
            if (decoded.old() == null) {
                // As OpenKruise, a new object starts without status. On an update nothing is needed: the API server
                // (kube's and the embedded one) keeps the stored status after mutating admission (status subresource).
                acj.setStatus(null);
            }
            return AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(acj)));
        });
    }

    public static AdmissionHandler validating() {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionResponse unserved = VERSIONS.unserved(request);
            if (unserved != null) {
                return Future.succeededFuture(unserved);
            }
            AdvancedCronJob acj;
            try {
                acj = Json.decode(request.object(), AdvancedCronJob.class);
            } catch (IllegalArgumentException e) {
                return Future.succeededFuture(DecodeProblems.denial(e, request.object()));
            }
            List<FieldError> errors;
            if (request.isUpdate()) {
                AdvancedCronJob old;
                try {
                    old = request.oldObject() == null ? null : Json.toModel(request.oldObject(), AdvancedCronJob.class);
                } catch (IllegalArgumentException e) {
                    return Future.succeededFuture(AdmissionResponse.errored(400,
                            AdmissionObjects.storedUnreadable(AdvancedCronJob.KIND) + e.getMessage()));
                }
                if (old == null) {
                    return Future.succeededFuture(AdmissionResponse.errored(400,
                            "an UPDATE of an AdvancedCronJob must carry the stored object (oldObject)"));
                }
                errors = AdvancedCronJobValidation.validateUpdate(acj, old);
            } else {
                errors = AdvancedCronJobValidation.validateCreate(acj);
            }
            return Future.succeededFuture(AdmissionResponse.validated(errors));
        };
    }
}
