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

    private final Map<PodMutationStage, AsyncPodMutationStep> steps = new EnumMap<>(PodMutationStage.class);

    /** Registers the step for a stage; each stage holds one step. */
    public PodMutatingPipeline register(PodMutationStage stage, PodMutationStep step) {
        return registerAsync(stage, AsyncPodMutationStep.of(step));
    }

    /** Registers a step that completes later (it waits for an API write); each stage holds one step. */
    public PodMutatingPipeline registerAsync(PodMutationStage stage, AsyncPodMutationStep step) {
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
        Future<Void> chain = Future.succeededFuture();
        for (Map.Entry<PodMutationStage, AsyncPodMutationStep> e : steps.entrySet()) {
            chain = chain.compose(v -> run(e.getKey(), e.getValue(), request, pod));
        }
        return chain.map(v -> AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(pod))))
                .recover(failure -> Future.succeededFuture(AdmissionResponse.errored(500, failure.getMessage())));
    }

    private static Future<Void> run(PodMutationStage stage, AsyncPodMutationStep step, AdmissionRequest request,
                                    Pod pod) {
        Future<Void> done;
        try {
            done = step.mutate(request, pod);
        } catch (RuntimeException failure) {
            done = Future.failedFuture(failure);
        }
        return done.recover(failure -> Future.failedFuture(new IllegalStateException("pod mutation step " + stage
                + " failed: " + failure.getMessage(), failure)));
    }
}
