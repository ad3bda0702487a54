package dev.kruisevertx.webhook.crr;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.ContainerRecreateRequestConversion;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

import java.util.Optional;

/**
 * {@code /mutate-apps-kruise-io-containerrecreaterequest}: defaults and checks ContainerRecreateRequests
 * ({@link CrrAdmission}). Like OpenKruise, every request is refused while the KruiseDaemon feature gate is off, as
 * nothing would carry it out.
 */
public final class CrrWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-containerrecreaterequest";

    private CrrWebhooks() {
    }

    /**
     * @param pods         in-memory pod lookup (the shared watch cache)
     * @param kruiseDaemon feature gate KruiseDaemon
     */
    public static void register(AdmissionRegistry registry, PodLookup pods, boolean kruiseDaemon) {
        register(registry, pods, NodeLookup.NONE, kruiseDaemon);
    }

    /** @param nodes reads the pod's node, to copy its virtual-kubelet label */
    public static void register(AdmissionRegistry registry, PodLookup pods, NodeLookup nodes, boolean kruiseDaemon) {
        // The registry serves the legacy "-v1alpha1-" spelling of the path as well.
        registry.register(MUTATE_PATH, mutating(pods, nodes, kruiseDaemon));
    }

    /** Registers the ContainerRecreateRequest converter for {@code /convert}. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(dev.kruisevertx.api.apps.v1alpha1.CloneSet.GROUP, ContainerRecreateRequest.KIND,
                converter());
    }

    /** The {@code /convert} step between v1alpha1 (stored) and v1beta1. */
    public static Converter converter() {
        String alpha = ContainerRecreateRequest.API_VERSION;
        String betaVersion = ContainerRecreateRequestConversion.BETA;
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (alpha.equals(desired) && betaVersion.equals(from)) {
                    return ContainerRecreateRequestConversion.toV1alpha1(object);
                }
                if (betaVersion.equals(desired) && alpha.equals(from)) {
                    return ContainerRecreateRequestConversion.toV1beta1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert ContainerRecreateRequest "
                        + object.path("metadata").path("namespace").asText("") + "/"
                        + object.path("metadata").path("name").asText("") + " to " + desired + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert ContainerRecreateRequest from " + from + " to " + desired
                    + ": the served versions are " + alpha + " and " + betaVersion);
        };
    }

    /** The request with its objects in v1alpha1; throws IllegalArgumentException naming the field it cannot convert. */
    private static AdmissionRequest asAlpha(AdmissionRequest request) {
        ObjectNode object = ContainerRecreateRequestConversion.toV1alpha1(request.object());
        ObjectNode old = request.oldObject();
        if (old != null && ContainerRecreateRequestConversion.BETA.equals(old.path("apiVersion").asText(""))) {
            try {
                old = ContainerRecreateRequestConversion.toV1alpha1(old);
            } catch (IllegalArgumentException e) {
                // read leniently later, which names what is wrong with it
            }
        }
        return new AdmissionRequest(request.reviewApiVersion(), request.uid(), request.group(), "v1alpha1",
                request.kind(), request.resource(), request.subResource(), request.name(), request.namespace(),
                request.operation(), object, old, request.dryRun(), request.userInfo());
    }

    public static AdmissionHandler mutating(PodLookup pods, boolean kruiseDaemon) {
        return mutating(pods, NodeLookup.NONE, kruiseDaemon);
    }

    public static AdmissionHandler mutating(PodLookup pods, NodeLookup nodes, boolean kruiseDaemon) {
        return request -> {
            if (!kruiseDaemon) {
                return Future.succeededFuture(AdmissionResponse.errored(403, "feature-gate KruiseDaemon is not enabled"));
            }
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            String apiVersion = request.object().path("apiVersion").asText("");
            boolean beta = ContainerRecreateRequestConversion.BETA.equals(apiVersion);
            if (!apiVersion.isEmpty() && !ContainerRecreateRequest.API_VERSION.equals(apiVersion) && !beta) {
                return Future.succeededFuture(AdmissionResponse.errored(400, "ContainerRecreateRequest " + apiVersion
                        + " is not served by this webhook: the CRD serves " + ContainerRecreateRequest.API_VERSION
                        + " and " + ContainerRecreateRequestConversion.BETA));
            }
            AdmissionRequest judged = request;
            if (beta) {
                // Judged in the stored v1alpha1 form, so both versions follow the same defaults and rules.
                AdmissionObjects.Decoded<dev.kruisevertx.api.apps.v1beta1.ContainerRecreateRequest> sent =
                        AdmissionObjects.decode(request, dev.kruisevertx.api.apps.v1beta1.ContainerRecreateRequest.class,
                                ContainerRecreateRequest.KIND);
                if (sent.refusal() != null) {
                    return Future.succeededFuture(sent.refusal());
                }
                try {
                    judged = asAlpha(request);
                } catch (IllegalArgumentException e) {
                    return Future.succeededFuture(AdmissionResponse.denied(422, e.getMessage()));
                }
            }
            AdmissionObjects.Decoded<ContainerRecreateRequest> decoded = AdmissionObjects.decode(judged,
                    ContainerRecreateRequest.class, ContainerRecreateRequest.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            ContainerRecreateRequest changed = decoded.object();
            ContainerRecreateRequest old = decoded.old();
            // The patch is the difference between the object as sent and as changed: a second copy as sent (it
            // decoded once, so it decodes again).
            ContainerRecreateRequest original = Json.decode(judged.object(), ContainerRecreateRequest.class);
            if (old != null) {
                try {
                    CrrAdmission.checkUpdate(changed, old);
                } catch (CrrAdmission.Rejection r) {
                    return Future.succeededFuture(AdmissionResponse.errored(r.code(), r.getMessage()));
                }
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            if (changed.getMetadata() == null) {
                changed.setMetadata(new ObjectMeta());
            }
            String namespace = changed.getMetadata().getNamespace() == null
                    || changed.getMetadata().getNamespace().isEmpty()
                    ? request.namespace() : changed.getMetadata().getNamespace();
            String podName = changed.getSpec() == null ? null : changed.getSpec().getPodName();
            // From the cache, or (a namespace of another shard's replica) from the API server.
            Future<Optional<Pod>> podRead = podName == null || podName.isEmpty()
                    ? Future.succeededFuture(Optional.empty()) : pods.findAsync(namespace, podName);
            return podRead.compose(pod -> {
            String nodeName = pod.map(p -> p.getSpec() == null ? null : p.getSpec().getNodeName()).orElse(null);
            Future<Optional<Node>> node = nodeName == null || nodeName.isEmpty()
                    ? Future.succeededFuture(Optional.empty()) : nodes.find(nodeName);
            return node.transform(ar -> {
                if (ar.failed()) {
                    return Future.succeededFuture(AdmissionResponse.errored(500,
                            "failed to find Node " + nodeName + ": " + ar.cause().getMessage()));
                }
                try {
                    CrrAdmission.defaultCreate(changed, pod, ar.result());
                } catch (CrrAdmission.Rejection r) {
                    return Future.succeededFuture(AdmissionResponse.errored(r.code(), r.getMessage()));
                }
                if (beta) {
                    // The patch applies to the v1beta1 object as sent.
                    return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.patch(request.object(),
                            ContainerRecreateRequestConversion.toV1beta1(Json.toTree(changed)))));
                }
                return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.diffModels(original, changed)));
            });
            });
        };
    }
}
