package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import io.vertx.core.Future;

import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * {@code /mutate-apps-kruise-io-cloneset} (defaults) and {@code /validate-apps-kruise-io-cloneset}
 * (validation), with their legacy {@code -v1alpha1-} spellings. The CRD serves apps.kruise.io/v1alpha1;
 * objects of other versions are refused with a message naming the version.
 */
public final class CloneSetWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-cloneset";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-cloneset";

    private CloneSetWebhooks() {
    }

    /**
     * @param pods               pod lookup for podsToDelete checks (the shared watch cache)
     * @param templateNoDefaults feature gate TemplateNoDefaults: leave the pod and PVC templates as given
     */
    public static void register(AdmissionRegistry registry, PodLookup pods, boolean templateNoDefaults) {
        registry.register(MUTATE_PATH, mutating(templateNoDefaults));
        registry.register(VALIDATE_PATH, validating(pods));
    }

    public static AdmissionHandler mutating(boolean templateNoDefaults) {
        return handler((request, decoded) -> {
            CloneSet changed = decoded.object();
            boolean templateChanged = decoded.old() == null || templateChanged(decoded.old(), changed);
            boolean injectTemplateDefaults = !templateNoDefaults && (request.isCreate() || templateChanged);
            // One decoded copy, serialized before and after the defaults: a 3 MiB CloneSet is large enough in
            // memory once.
            ObjectNode before = Json.toTree(changed);
            CloneSetDefaults.apply(changed, injectTemplateDefaults);
            return AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(changed)));
        });
    }

    private static boolean templateChanged(CloneSet old, CloneSet now) {
        return old.getSpec() == null || now.getSpec() == null
                || !Objects.equals(Json.toNode(old.getSpec().getTemplate()), Json.toNode(now.getSpec().getTemplate()))
                || !Objects.equals(Json.toNode(old.getSpec().getVolumeClaimTemplates()),
                Json.toNode(now.getSpec().getVolumeClaimTemplates()));
    }

    public static AdmissionHandler validating(PodLookup pods) {
        return handler((request, decoded) -> {
            CloneSet cloneSet = decoded.object();
            CloneSet old = decoded.old();
            if (cloneSet.getMetadata() != null && (cloneSet.getMetadata().getNamespace() == null
                    || cloneSet.getMetadata().getNamespace().isEmpty())) {
                cloneSet.getMetadata().setNamespace(request.namespace());
            }
            List<FieldError> errors = old == null
                    ? CloneSetValidation.validateCreate(cloneSet, pods)
                    : CloneSetValidation.validateUpdate(cloneSet, old, pods);
            if (errors.isEmpty()) {
                return AdmissionResponse.allow().withWarnings(CloneSetValidation.warnings(cloneSet, old));
            }
            return AdmissionResponse.denied(422, FieldError.aggregate(errors));
        });
    }

    /**
     * A handler that answers with {@code body} once the request's CloneSets are read: deletes (and requests without
     * an object) are allowed, other versions refused, objects that cannot be read denied.
     */
    private static AdmissionHandler handler(
            BiFunction<AdmissionRequest, AdmissionObjects.Decoded<CloneSet>, AdmissionResponse> body) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionResponse refused = refuseOtherVersions(request);
            if (refused != null) {
                return Future.succeededFuture(refused);
            }
            AdmissionObjects.Decoded<CloneSet> decoded = AdmissionObjects.decode(request, CloneSet.class, CloneSet.KIND);
            return Future.succeededFuture(decoded.refusal() != null ? decoded.refusal() : body.apply(request, decoded));
        };
    }

    private static AdmissionResponse refuseOtherVersions(AdmissionRequest request) {
        String apiVersion = request.object().path("apiVersion").asText("");
        if (!apiVersion.isEmpty() && !CloneSet.API_VERSION.equals(apiVersion)) {
            return AdmissionResponse.errored(400, "CloneSet " + apiVersion + " is not served by this webhook: "
                    + "the CloneSet CRD serves " + CloneSet.API_VERSION);
        }
        return null;
    }
}
