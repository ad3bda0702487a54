package dev.kruisevertx.pub;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * OpenKruise's pubcontrol check-and-decrement: asks a pod's budget whether a DELETE, eviction or unavailable-making
 * UPDATE may go ahead and, when it may, writes the decremented status over the resourceVersion decided from before
 * answering yes. A write that conflicts (409) is decided again on the budget read afresh from the API server, up to
 * four attempts 500 ms apart (±10%), as OpenKruise's ConflictRetry; after that the answer is OpenKruise's Timeout. A
 * budget gone (404) protects nothing. Attempts on one budget are serialized within the process (OpenKruise's keyed
 * mutex), and the status this process last wrote is preferred to an informer cache that has not caught up yet.
 *
 * <p>Runs on the event loop: decisions are pure and in memory, the reads and writes are the store's Futures.
 */
public final class PubGuard {
    private static final Logger LOG = LoggerFactory.getLogger(PubGuard.class);
    /** OpenKruise's ConflictRetry: 4 steps of 500 ms, factor 1, jitter 0.1. */
    public static final int CONFLICT_ATTEMPTS = 4;
    public static final Duration CONFLICT_INTERVAL = Duration.ofMillis(500);
    /** OpenKruise's counter of refused disruptions, by the pod's workload and the requesting user. */
    public static final String METRIC = "pod_unavailable_budget";

    /** The answer: allowed, or refused with the message the requester sees. */
    public record Outcome(boolean allowed, String message) {
        static Outcome allow() {
            return new Outcome(true, "");
        }
    }

    /** Told about each refusal (OpenKruise records the Event {@code PubPreventPodDeletion} on the pod). */
    @FunctionalInterface
    public interface RefusalListener {
        void refused(Pod pod, PodUnavailableBudget pub, String username);

        RefusalListener NONE = (pod, pub, username) -> { };
    }

    private final Vertx vertx;
    private final PubStatusStore store;
    private final BiFunction<String, String, PodUnavailableBudget> cached;
    private final Predicate<Pod> consistent;
    private final boolean resizeIsOwnOperation;
    private final Clock clock;
    private final MeterRegistry meters;
    private final RefusalListener listener;
    private final Duration interval;
    private final Map<String, Future<Void>> tails = new ConcurrentHashMap<>();
    private final Map<String, PodUnavailableBudget> lastWritten = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> refusals = new ConcurrentHashMap<>();

    /**
     * @param cached               the budget from the shared watch cache (namespace, name), or null
     * @param consistent           whether a pod's containers run its spec (no in-place update in flight)
     * @param resizeIsOwnOperation gate InPlacePodVerticalScaling
     * @param meters               where {@value #METRIC} is kept, or null
     */
    public PubGuard(Vertx vertx, PubStatusStore store, BiFunction<String, String, PodUnavailableBudget> cached,
                    Predicate<Pod> consistent, boolean resizeIsOwnOperation, Clock clock, MeterRegistry meters,
                    RefusalListener listener) {
        this(vertx, store, cached, consistent, resizeIsOwnOperation, clock, meters, listener, CONFLICT_INTERVAL);
    }

    PubGuard(Vertx vertx, PubStatusStore store, BiFunction<String, String, PodUnavailableBudget> cached,
             Predicate<Pod> consistent, boolean resizeIsOwnOperation, Clock clock, MeterRegistry meters,
             RefusalListener listener, Duration interval) {
        this.vertx = vertx;
        this.store = store;
        this.cached = cached;
        this.consistent = consistent;
        this.resizeIsOwnOperation = resizeIsOwnOperation;
        this.clock = clock;
        this.meters = meters;
        this.listener = listener == null ? RefusalListener.NONE : listener;
        this.interval = interval;
    }

    /**
     * Whether {@code operation} on {@code pod} (as stored, before the operation) may go ahead under the budget its
     * related-pub annotation names; a pod without one, or whose budget is not cached, is not protected.
     */
    public Future<Outcome> admit(Pod pod, PubOperation operation, String username, boolean dryRun) {
        Optional<String> name = PubForPod.relatedName(pod);
        if (name.isEmpty()) {
            return Future.succeededFuture(Outcome.allow());
        }
        PodUnavailableBudget pub = cached.apply(pod.getMetadata().getNamespace(), name.get());
        if (pub == null) {
            return Future.succeededFuture(Outcome.allow());
        }
        // Everything that needs no write is answered at once, without queueing behind other admissions; from the
        // freshest status this process knows: a cache behind our own last write would admit a dry run the budget
        // no longer allows.
        PubAdmission.Decision first = decide(pod, freshest(pub), operation, dryRun);
        if (first.verdict() == PubAdmission.Verdict.EXEMPT || first.verdict() == PubAdmission.Verdict.ADMIT_DRY_RUN) {
            return Future.succeededFuture(Outcome.allow());
        }
        Promise<Outcome> answer = Promise.promise();
        attempt(pod, pub, operation, username, dryRun, 1, false, answer);
        return answer.future();
    }

    private void attempt(Pod pod, PodUnavailableBudget known, PubOperation operation, String username, boolean dryRun,
                         int attempt, boolean refresh, Promise<Outcome> answer) {
        String key = known.getMetadata().getNamespace() + "/" + known.getMetadata().getName();
        serialized(key, () -> current(known, refresh).compose(pub -> {
            if (pub.isEmpty()) {
                lastWritten.remove(key);
                return Future.succeededFuture(Step.done(Outcome.allow()));
            }
            PubAdmission.Decision d = decide(pod, pub.get(), operation, dryRun);
            switch (d.verdict()) {
                case EXEMPT, ADMIT_DRY_RUN:
                    return Future.succeededFuture(Step.done(Outcome.allow()));
                case DENY:
                    refused(pod, pub.get(), username);
                    return Future.succeededFuture(Step.done(new Outcome(false, d.reason())));
                default:
                    return store.write(pub.get(), d.status()).map(w -> switch (w.outcome()) {
                        case WRITTEN -> {
                            lastWritten.put(key, w.budget());
                            yield Step.done(Outcome.allow());
                        }
                        case GONE -> {
                            lastWritten.remove(key);
                            yield Step.done(Outcome.allow());
                        }
                        case CONFLICT -> Step.CONFLICT;
                    });
            }
        })).onComplete(ar -> {
            if (ar.failed()) {
                // OpenKruise answers with the error itself; names and reasons only.
                answer.complete(new Outcome(false, failureText(ar.cause())));
            } else if (ar.result().outcome() != null) {
                answer.complete(ar.result().outcome());
            } else if (attempt >= CONFLICT_ATTEMPTS) {
                LOG.info("budget {}: {} conflicting status writes, pod {} not admitted", key, attempt,
                        pod.getMetadata().getName());
                answer.complete(new Outcome(false, "Timeout: couldn't update PodUnavailableBudget "
                        + known.getMetadata().getName() + " due to conflicts"));
            } else {
                long jitter = (long) (interval.toMillis() * 0.1 * ThreadLocalRandom.current().nextDouble());
                vertx.setTimer(Math.max(1, interval.toMillis() + jitter), t -> attempt(pod, known, operation, username,
                        dryRun, attempt + 1, true, answer));
            }
        });
    }

    /** An attempt's result: an answer, or none on a conflict (try again). */
    private record Step(Outcome outcome) {
        static final Step CONFLICT = new Step(null);

        static Step done(Outcome o) {
            return new Step(o);
        }
    }

    /** The budget to decide from: afresh from the API server after a conflict, else the newest copy in memory. */
    private Future<Optional<PodUnavailableBudget>> current(PodUnavailableBudget known, boolean refresh) {
        String ns = known.getMetadata().getNamespace();
        String name = known.getMetadata().getName();
        if (refresh) {
            return store.read(ns, name);
        }
        return Future.succeededFuture(Optional.of(freshest(known)));
    }

    /** The newest of the given budget, the cached one and the one this process last wrote (same uid). */
    private PodUnavailableBudget freshest(PodUnavailableBudget known) {
        String ns = known.getMetadata().getNamespace();
        String name = known.getMetadata().getName();
        PodUnavailableBudget best = known;
        PodUnavailableBudget informer = cached.apply(ns, name);
        if (informer != null && newer(informer, best)) {
            best = informer;
        }
        PodUnavailableBudget mine = lastWritten.get(ns + "/" + name);
        if (mine != null && Optional.ofNullable(mine.getMetadata().getUid()).equals(
                Optional.ofNullable(best.getMetadata().getUid())) && newer(mine, best)) {
            best = mine;
        }
        return best;
    }

    private static boolean newer(PodUnavailableBudget a, PodUnavailableBudget b) {
        return version(a) > version(b);
    }

    private static long version(PodUnavailableBudget pub) {
        try {
            return Long.parseLong(pub.getMetadata().getResourceVersion());
        } catch (RuntimeException notANumber) {
            return -1;
        }
    }

    private PubAdmission.Decision decide(Pod pod, PodUnavailableBudget pub, PubOperation operation, boolean dryRun) {
        return PubAdmission.decide(pod, consistent.test(pod), pub, operation, resizeIsOwnOperation, dryRun,
                clock.instant());
    }

    /** Runs one attempt after the previous attempt on the same budget in this process has finished. */
    private <T> Future<T> serialized(String key, java.util.function.Supplier<Future<T>> work) {
        Promise<T> result = Promise.promise();
        Promise<Void> done = Promise.promise();
        Future<Void> mine = done.future();
        Future<Void> previous = tails.put(key, mine);
        (previous == null ? Future.<Void>succeededFuture() : previous).onComplete(ignored -> {
            Future<T> f;
            try {
                f = work.get();
            } catch (RuntimeException e) {
                f = Future.failedFuture(e);
            }
            f.onComplete(ar -> {
                tails.remove(key, mine);
                done.complete();
                result.handle(ar);
            });
        });
        return result.future();
    }

    private void refused(Pod pod, PodUnavailableBudget pub, String username) {
        if (meters != null) {
            String ns = pod.getMetadata().getNamespace() == null || pod.getMetadata().getNamespace().isEmpty()
                    ? "default" : pod.getMetadata().getNamespace();
            Optional<OwnerReference> owner = Pods.controllerOf(pod);
            String label = owner.map(o -> o.getKind() + "_" + ns + "_" + o.getName())
                    .orElse("unknown_" + ns + "_" + pod.getMetadata().getName());
            String user = username == null ? "" : username;
            // A gauge that only grows: Prometheus' Java client would name a counter pod_unavailable_budget_total,
            // and OpenKruise's dashboards read pod_unavailable_budget.
            refusals.computeIfAbsent(label + "\u0000" + user, k -> {
                AtomicLong n = new AtomicLong();
                Gauge.builder(METRIC, n, AtomicLong::get)
                        .description("Pod deletions, evictions and updates refused by a PodUnavailableBudget")
                        .tag("kind_namespace_name", label).tag("username", user).register(meters);
                return n;
            }).incrementAndGet();
        }
        listener.refused(pod, pub, username);
    }

    /**
     * The error a refused pod is answered with: a JSON failure's own words only (its text names the model's classes
     * and fields in a reference chain; the hostile-input storm found one through a 65,101-character pod name).
     */
    static String failureText(Throwable cause) {
        for (Throwable t = cause; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof com.fasterxml.jackson.core.JsonProcessingException json) {
                return "cannot write the budget's status: " + json.getOriginalMessage();
            }
        }
        return String.valueOf(cause.getMessage());
    }
}
