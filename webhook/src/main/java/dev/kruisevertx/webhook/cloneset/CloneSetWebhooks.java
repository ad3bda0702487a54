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
import dev.kruisevertx.api.apps.v1beta1.CloneSetConversion;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;
import io.vertx.core.Future;

import java.util.List;
import java.util.Objects;

/**
 * {@code /mutate-apps-kruise-io-cloneset} (defaults) and {@code /validate-apps-kruise-io-cloneset}
 * (validation), with their legacy {@code -v1alpha1-} spellings, for both served versions: a v1beta1 object is
 * converted to v1alpha1 (the stored version), defaulted or validated there and, for defaults, converted back, so
 * both versions follow the same rules (a v1beta1 CloneSet defaults to RollingUpdate with podUpdatePolicy ReCreate).
 * Objects of other versions are refused with a message naming the version. {@link #registerConversion} adds the
 * v1alpha1 <-> v1beta1 converter to {@code /convert}.
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

    /** Registers the CloneSet converter for {@code /convert}. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(CloneSet.GROUP, CloneSet.KIND, converter());
    }

    public static Converter converter() {
        return BetaCloneSets.converter();
    }

    public static AdmissionHandler mutating(boolean templateNoDefaults) {
        return handler((request, decoded, beta) -> {
            CloneSet changed = decoded.object();
            boolean templateChanged = decoded.old() == null || templateChanged(decoded.old(), changed);
            boolean injectTemplateDefaults = !templateNoDefaults && (request.isCreate() || templateChanged);
            // One decoded copy, serialized before and after the defaults: a 3 MiB CloneSet is large enough in
            // memory once.
            ObjectNode before = Json.toTree(changed);
            CloneSetDefaults.apply(changed, injectTemplateDefaults);
            ObjectNode after = Json.toTree(changed);
            if (beta != null) {
                // The patch applies to the v1beta1 object as sent.
                before = beta;
                after = CloneSetConversion.toV1beta1(after);
            }
            return AdmissionResponse.patched(ObjectMutation.patch(before, after));
        });
    }

    private static boolean templateChanged(CloneSet old, CloneSet now) {
        return old.getSpec() == null || now.getSpec() == null
                || !Objects.equals(Json.toNode(old.getSpec().getTemplate()), Json.toNode(now.getSpec().getTemplate()))
                || !Objects.equals(Json.toNode(old.getSpec().getVolumeClaimTemplates()),
                Json.toNode(now.getSpec().getVolumeClaimTemplates()));
    }

    public static AdmissionHandler validating(PodLookup pods) {
        return request -> podsToDelete(request, pods).compose(known -> validatingWith(known).handle(request));
    }

    /**
     * The pods newly named in {@code podsToDelete}, read before the (in-memory) validation: a replica of a sharded
     * manager reads those of namespaces it does not cache from the API server. Other reads go to {@code pods}.
     */
    static Future<PodLookup> podsToDelete(AdmissionRequest request, PodLookup pods) {
        if (request.object() == null || request.isDelete()) {
            return Future.succeededFuture(pods);
        }
        com.fasterxml.jackson.databind.JsonNode names = request.object().path("spec").path("scaleStrategy")
                .path("podsToDelete");
        if (!names.isArray() || names.isEmpty()) {
            return Future.succeededFuture(pods);
        }
        java.util.Set<String> before = new java.util.HashSet<>();
        if (request.oldObject() != null) {
            request.oldObject().path("spec").path("scaleStrategy").path("podsToDelete")
                    .forEach(n -> before.add(n.asText()));
        }
        String namespace = request.object().path("metadata").path("namespace").asText("");
        String ns = namespace.isEmpty() ? request.namespace() : namespace;
        java.util.Map<String, java.util.Optional<io.fabric8.kubernetes.api.model.Pod>> found =
                new java.util.concurrent.ConcurrentHashMap<>();
        List<Future<?>> reads = new java.util.ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode n : names) {
            String name = n.asText();
            if (!before.contains(name) && !found.containsKey(name)) {
                found.put(name, java.util.Optional.empty());
                reads.add(pods.findAsync(ns, name).onSuccess(pod -> found.put(name, pod)));
            }
        }
        return Future.all(reads).map(v -> (PodLookup) (namespace2, name) ->
                ns.equals(namespace2) && found.containsKey(name) ? found.get(name) : pods.find(namespace2, name));
    }

    private static AdmissionHandler validatingWith(PodLookup pods) {
        return handler((request, decoded, beta) -> {
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
            if (beta != null) {
                errors = errors.stream().map(e -> BetaCloneSets.betaPath(e, beta)).toList();
            }
            return AdmissionResponse.denied(422, FieldError.aggregate(errors));
        });
    }

    /**
     * A handler that answers with {@code body} once the request's CloneSets are read: deletes (and requests without
     * an object) are allowed, other versions refused, objects that cannot be read denied.
     */
    private static AdmissionHandler handler(Body body) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionResponse refused = refuseOtherVersions(request);
            if (refused != null) {
                return Future.succeededFuture(refused);
            }
            ObjectNode beta = null;
            AdmissionRequest judged = request;
            if (BetaCloneSets.isBeta(request.object())) {
                beta = request.object();
                try {
                    judged = BetaCloneSets.asAlpha(request);
                } catch (IllegalArgumentException e) {
                    return Future.succeededFuture(AdmissionResponse.denied(422, e.getMessage()));
                }
            }
            AdmissionObjects.Decoded<CloneSet> decoded = AdmissionObjects.decode(judged, CloneSet.class, CloneSet.KIND);
            return Future.succeededFuture(decoded.refusal() != null ? decoded.refusal()
                    : body.answer(judged, decoded, beta));
        };
    }

    /** What a handler answers once the CloneSets are read. */
    @FunctionalInterface
    private interface Body {
        /**
         * @param request the request, its objects in v1alpha1
         * @param beta    the object as sent when it was v1beta1, else null
         */
        AdmissionResponse answer(AdmissionRequest request, AdmissionObjects.Decoded<CloneSet> decoded, ObjectNode beta);
    }

    private static AdmissionResponse refuseOtherVersions(AdmissionRequest request) {
        String apiVersion = request.object().path("apiVersion").asText("");
        if (!apiVersion.isEmpty() && !CloneSet.API_VERSION.equals(apiVersion)
                && !BetaCloneSets.isBeta(request.object())) {
            return AdmissionResponse.errored(400, "CloneSet " + apiVersion + " is not served by this webhook: "
                    + "the CloneSet CRD serves " + CloneSet.API_VERSION + " and "
                    + dev.kruisevertx.api.apps.v1beta1.CloneSet.API_VERSION);
        }
        return null;
    }
}
