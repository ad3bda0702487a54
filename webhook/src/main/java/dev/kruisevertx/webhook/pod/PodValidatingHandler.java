package dev.kruisevertx.webhook.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.pub.PodUpdateKind;
import dev.kruisevertx.pub.PubForPod;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.DecodeProblems;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

import java.util.Optional;

/**
 * {@code /validate-pod}: OpenKruise's PodUnavailableBudget check of pod deletions and evictions (gate
 * PodUnavailableBudgetDeleteGate) and of updates that may make a pod unavailable (gate
 * PodUnavailableBudgetUpdateGate). Only pods carrying the related-pub annotation are the budget's business; the
 * decision and the status write are {@link PubGuard}'s. A refusal answers 403 with OpenKruise's message; a request
 * that cannot be read answers 400, as OpenKruise's handler does.
 */
public final class PodValidatingHandler implements AdmissionHandler {
    public static final String PATH = "/validate-pod";

    private final boolean deleteGate;
    private final boolean updateGate;
    private final boolean resizeIsOwnOperation;
    private final PodLookup pods;
    private final PubGuard guard;

    public PodValidatingHandler(boolean deleteGate, boolean updateGate, boolean resizeIsOwnOperation, PodLookup pods,
                                PubGuard guard) {
        this.deleteGate = deleteGate;
        this.updateGate = updateGate;
        this.resizeIsOwnOperation = resizeIsOwnOperation;
        this.pods = pods;
        this.guard = guard;
    }

    /** What the budget is asked about: the pod as stored, the operation, whether it is a dry run. */
    private record Ask(Pod pod, PubOperation operation, boolean dryRun) {
    }

    @Override
    public Future<AdmissionResponse> handle(AdmissionRequest request) {
        if (!"pods".equals(request.resource())) {
            return allow();
        }
        if (AdmissionRequest.CREATE.equals(request.operation())) {
            if (!deleteGate || !"eviction".equals(request.subResource())) {
                return allow();
            }
            // The evicted pod: from the cache, or (a namespace of another shard's replica) from the API server.
            return pods.findAsync(request.namespace(), request.name()).compose(pod -> {
                Ask ask;
                try {
                    ask = eviction(request, pod);
                } catch (IllegalArgumentException bad) {
                    return Future.succeededFuture(AdmissionResponse.errored(400, PodValidatingPipeline.describe(bad)));
                }
                return judge(request, ask);
            });
        }
        Ask ask;
        try {
            ask = switch (request.operation()) {
                case AdmissionRequest.DELETE -> delete(request);
                case AdmissionRequest.UPDATE -> update(request);
                default -> null;
            };
        } catch (IllegalArgumentException bad) {
            // A decoding failure's own words only: its reference chain names the model's classes.
            return Future.succeededFuture(AdmissionResponse.errored(400, PodValidatingPipeline.describe(bad)));
        }
        return judge(request, ask);
    }

    private Future<AdmissionResponse> judge(AdmissionRequest request, Ask ask) {
        if (ask == null || PubForPod.relatedName(ask.pod()).isEmpty()) {
            return allow();
        }
        return guard.admit(ask.pod(), ask.operation(), request.username(), ask.dryRun())
                .map(o -> o.allowed() ? AdmissionResponse.allow() : AdmissionResponse.denied(403, o.message()));
    }

    private Ask delete(AdmissionRequest request) {
        // Without the old object (very old API servers) there is nothing to check, as in OpenKruise.
        if (!deleteGate || !request.subResource().isEmpty() || request.oldObject() == null) {
            return null;
        }
        return new Ask(decode(request.oldObject(), request), PubOperation.DELETE, request.dryRun());
    }

    private Ask eviction(AdmissionRequest request, Optional<Pod> pod) {
        boolean dryRun = request.dryRun() || evictionIsDryRun(request.object());
        if (pod.isEmpty()) {
            throw new IllegalArgumentException("pods \"" + request.name() + "\" not found");
        }
        return new Ask(pod.get(), PubOperation.EVICT, dryRun);
    }

    private Ask update(AdmissionRequest request) {
        if (!updateGate || !request.subResource().isEmpty() || request.object() == null
                || request.oldObject() == null) {
            return null;
        }
        Pod newPod = decode(request.object(), request);
        if (PubForPod.relatedName(newPod).isEmpty()) {
            return null;
        }
        Pod oldPod = decode(request.oldObject(), request);
        if (!PodUpdateKind.unavailableChanged(oldPod, newPod)) {
            return null;
        }
        PubOperation op = PodUpdateKind.canResizeInPlace(oldPod, newPod) ? PubOperation.RESIZE : PubOperation.UPDATE;
        return new Ask(oldPod, op, request.dryRun());
    }

    private static boolean evictionIsDryRun(ObjectNode eviction) {
        if (eviction == null) {
            return false;
        }
        JsonNode dryRun = eviction.path("deleteOptions").path("dryRun");
        if (dryRun.isArray()) {
            for (JsonNode v : dryRun) {
                if ("All".equals(v.asText())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Pod decode(ObjectNode node, AdmissionRequest request) {
        Pod pod;
        try {
            pod = Json.toModel(node, Pod.class);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot decode the pod: " + DecodeProblems.fieldError(e, node));
        }
        if (pod.getMetadata() == null || pod.getMetadata().getName() == null) {
            throw new IllegalArgumentException("cannot decode the pod: metadata.name is missing");
        }
        if (pod.getMetadata().getNamespace() == null || pod.getMetadata().getNamespace().isEmpty()) {
            pod.getMetadata().setNamespace(request.namespace());
        }
        return pod;
    }

    private static Future<AdmissionResponse> allow() {
        return Future.succeededFuture(AdmissionResponse.allow());
    }
}
