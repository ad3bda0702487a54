package dev.kruisevertx.webhook.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /mutate-pod}: runs the registered steps in {@link PodMutationStage} order on a copy of the pod and
 * answers with the JSON patch between the original and the result. Requests for sub-resources or other
 * resources pass untouched.
 */
public final class PodMutatingPipeline implements AdmissionHandler {
    public static final String PATH = "/mutate-pod";

    private final Map<PodMutationStage, PodMutationStep> steps = new EnumMap<>(PodMutationStage.class);

    /** Registers the step for a stage; each stage holds one step. */
    public PodMutatingPipeline register(PodMutationStage stage, PodMutationStep step) {
        if (steps.putIfAbsent(stage, step) != null) {
            throw new IllegalArgumentException("a pod mutation step is already registered for " + stage);
        }
        return this;
    }

    /** Registered stages, in the order they run. */
    public List<PodMutationStage> stages() {
        return List.copyOf(steps.keySet());
    }

    @Override
    public Future<AdmissionResponse> handle(AdmissionRequest request) {
        if (!request.subResource().isEmpty() || !"pods".equals(request.resource()) || request.object() == null) {
            return Future.succeededFuture(AdmissionResponse.allow());
        }
        Pod pod;
        try {
            pod = Json.toModel(request.object(), Pod.class);
        } catch (IllegalArgumentException e) {
            return Future.succeededFuture(AdmissionResponse.errored(400, "cannot decode the pod: "
                    + dev.kruisevertx.webhook.admission.DecodeProblems.fieldError(e, request.object())));
        }
        // The API server fills the namespace in after admission; steps need it now.
        if (pod.getMetadata() != null && (pod.getMetadata().getNamespace() == null || pod.getMetadata().getNamespace().isEmpty())) {
            pod.getMetadata().setNamespace(request.namespace());
        }
        // Serialized before the steps run, so both sides of the diff went through the same serializer.
        ObjectNode before = Json.toTree(pod);
        for (Map.Entry<PodMutationStage, PodMutationStep> e : steps.entrySet()) {
            try {
                e.getValue().mutate(request, pod);
            } catch (RuntimeException failure) {
                return Future.succeededFuture(AdmissionResponse.errored(500, "pod mutation step "
                        + e.getKey() + " failed: " + failure.getMessage()));
            }
        }
        return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(pod))));
    }
}
