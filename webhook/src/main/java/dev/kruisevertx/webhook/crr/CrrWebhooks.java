package dev.kruisevertx.webhook.crr;

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
            if (!apiVersion.isEmpty() && !ContainerRecreateRequest.API_VERSION.equals(apiVersion)) {
                return Future.succeededFuture(AdmissionResponse.errored(400, "ContainerRecreateRequest " + apiVersion
                        + " is not served by this webhook: the CRD serves " + ContainerRecreateRequest.API_VERSION));
            }
            AdmissionObjects.Decoded<ContainerRecreateRequest> decoded = AdmissionObjects.decode(request,
                    ContainerRecreateRequest.class, ContainerRecreateRequest.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            ContainerRecreateRequest changed = decoded.object();
            ContainerRecreateRequest old = decoded.old();
            // The patch is the difference between the object as sent and as changed: a second copy as sent (it
            // decoded once, so it decodes again).
            ContainerRecreateRequest original = Json.decode(request.object(), ContainerRecreateRequest.class);
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
            Optional<Pod> pod = podName == null || podName.isEmpty() ? Optional.empty() : pods.find(namespace, podName);
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
                return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.diffModels(original, changed)));
            });
        };
    }
}
