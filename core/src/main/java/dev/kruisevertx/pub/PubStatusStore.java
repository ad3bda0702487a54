package dev.kruisevertx.pub;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * Where {@link PubGuard} reads a budget afresh and writes its status. Both are calls to the API server, so an
 * implementation answers with a Future completed off the event loop.
 */
public interface PubStatusStore {
    /** What became of a status write. */
    enum Outcome {
        /** Written; {@link Write#budget()} is the stored object. */
        WRITTEN,
        /** The budget changed since it was read (409): read it again and decide again. */
        CONFLICT,
        /** The budget is gone (404): nothing protects the pod any more. */
        GONE
    }

    record Write(Outcome outcome, PodUnavailableBudget budget) {
    }

    /** The budget as the API server has it now; empty when it is gone. */
    Future<Optional<PodUnavailableBudget>> read(String namespace, String name);

    /** Writes {@code status} over the very resourceVersion of {@code decidedFrom} (a PUT of the status). */
    Future<Write> write(PodUnavailableBudget decidedFrom, PodUnavailableBudgetStatus status);

    /**
     * The store over a fabric8 client; {@code offLoop} runs each blocking call on a worker (e.g.
     * {@code KubeExecutor::call}, never its leader-fenced write: the webhook writes on every replica).
     */
    static PubStatusStore of(KubernetesClient client, Function<Callable<Object>, Future<Object>> offLoop) {
        return new PubStatusStore() {
            @Override
            @SuppressWarnings("unchecked")
            public Future<Optional<PodUnavailableBudget>> read(String namespace, String name) {
                return offLoop.apply(() -> Optional.ofNullable(client.resources(PodUnavailableBudget.class)
                        .inNamespace(namespace).withName(name).get())).map(o -> (Optional<PodUnavailableBudget>) o);
            }

            @Override
            public Future<Write> write(PodUnavailableBudget decidedFrom, PodUnavailableBudgetStatus status) {
                return offLoop.apply(() -> {
                    // A copy: decidedFrom may be the shared cache's instance.
                    PodUnavailableBudget next = ApiJson.serialization().clone(decidedFrom);
                    next.setStatus(status);
                    try {
                        PodUnavailableBudget stored = client.resources(PodUnavailableBudget.class)
                                .inNamespace(next.getMetadata().getNamespace()).resource(next).updateStatus();
                        return new Write(Outcome.WRITTEN, stored);
                    } catch (KubernetesClientException e) {
                        if (ApiErrors.isConflict(e)) {
                            return new Write(Outcome.CONFLICT, null);
                        }
                        if (ApiErrors.isNotFound(e)) {
                            return new Write(Outcome.GONE, null);
                        }
                        throw e;
                    }
                }).map(Write.class::cast);
            }
        };
    }
}
