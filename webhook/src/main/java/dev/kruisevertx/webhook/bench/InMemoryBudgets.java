package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.pub.PubStatusStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PodUnavailableBudgets kept in memory with the API server's optimistic concurrency (a status write over a stale
 * resourceVersion is a conflict, one over a deleted budget is gone), so {@code /validate-pod} runs its whole
 * check-and-record path without a cluster: the hostile input suites aim at the pod webhook with it.
 */
public final class InMemoryBudgets implements PubStatusStore {
    private final Map<String, PodUnavailableBudget> stored = new ConcurrentHashMap<>();

    /** Stores a copy of {@code budget} (resourceVersion 1 when it has none). */
    public InMemoryBudgets put(PodUnavailableBudget budget) {
        PodUnavailableBudget copy = ApiJson.serialization().clone(budget);
        if (copy.getMetadata().getResourceVersion() == null) {
            copy.getMetadata().setResourceVersion("1");
        }
        stored.put(key(copy.getMetadata().getNamespace(), copy.getMetadata().getName()), copy);
        return this;
    }

    /** The stored budget, as an informer would hand it out (a copy), or null. */
    public PodUnavailableBudget get(String namespace, String name) {
        PodUnavailableBudget b = stored.get(key(namespace, name));
        return b == null ? null : ApiJson.serialization().clone(b);
    }

    @Override
    public Future<Optional<PodUnavailableBudget>> read(String namespace, String name) {
        return Future.succeededFuture(Optional.ofNullable(get(namespace, name)));
    }

    @Override
    public Future<Write> write(PodUnavailableBudget decidedFrom, PodUnavailableBudgetStatus status) {
        String key = key(decidedFrom.getMetadata().getNamespace(), decidedFrom.getMetadata().getName());
        Write[] outcome = new Write[1];
        stored.compute(key, (k, current) -> {
            if (current == null) {
                outcome[0] = new Write(Outcome.GONE, null);
                return null;
            }
            if (!current.getMetadata().getResourceVersion().equals(decidedFrom.getMetadata().getResourceVersion())) {
                outcome[0] = new Write(Outcome.CONFLICT, null);
                return current;
            }
            PodUnavailableBudget next = ApiJson.serialization().clone(current);
            next.setStatus(status);
            next.getMetadata().setResourceVersion(
                    String.valueOf(Long.parseLong(current.getMetadata().getResourceVersion()) + 1));
            outcome[0] = new Write(Outcome.WRITTEN, ApiJson.serialization().clone(next));
            return next;
        });
        return Future.succeededFuture(outcome[0]);
    }

    /** A guard over these budgets as the manager builds it (every pod consistent, no Events). */
    public PubGuard guard(Vertx vertx) {
        return new PubGuard(vertx, this, this::get, pod -> true, false, Clock.systemUTC(), new SimpleMeterRegistry(),
                null);
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
