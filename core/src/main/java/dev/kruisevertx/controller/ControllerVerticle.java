package dev.kruisevertx.controller;

import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CacheEventBus;
import dev.kruisevertx.queue.RateLimiters;
import dev.kruisevertx.queue.WorkQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one controller: listens to cache events on the event bus, turns them into keys in a rate-limited work
 * queue, and drives {@code workers} reconcile loops on this verticle's event loop. Queue semantics guarantee one
 * key is never reconciled twice at once; failures requeue with backoff; {@link Result#requeueAfter} schedules.
 */
public final class ControllerVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerVerticle.class);

    private final ControllerDefinition definition;
    private final ControllerContext controllerContext;
    private final int workers;
    private final List<MessageConsumer<?>> consumers = new ArrayList<>();
    private WorkQueue<Request> queue;
    private Controller controller;
    private ControllerMetrics metrics;
    private volatile boolean stopping;

    public ControllerVerticle(ControllerDefinition definition, ControllerContext controllerContext) {
        this.definition = definition;
        this.controllerContext = controllerContext;
        this.workers = Math.max(1, controllerContext.settings().workersFor(definition));
    }

    public String name() {
        return definition.name();
    }

    /** The controller's queue, for tests and the debug endpoints. Null before start. */
    public WorkQueue<Request> queue() {
        return queue;
    }

    @Override
    public Future<?> start() {
        ManagerSettings settings = controllerContext.settings();
        queue = WorkQueue.<Request>builder(definition.name())
                .rateLimiter(RateLimiters.controllerDefault(settings.rateLimiterBaseDelay(),
                        settings.rateLimiterMaxDelay(), settings.rateLimiterQps(), settings.rateLimiterBucketSize()))
                .meterRegistry(controllerContext.registry(), definition.name())
                .build();
        metrics = new ControllerMetrics(controllerContext.registry(), definition.name());
        metrics.maxConcurrent.set(workers);
        controller = definition.create(controllerContext);

        Enqueuer enqueuer = new Enqueuer() {
            @Override
            public void add(Request request) {
                queue.add(request);
            }

            @Override
            public void addAfter(Request request, Duration delay) {
                queue.addAfter(request, delay);
            }
        };
        for (WatchSpec<?> watch : controller.watches()) {
            consumers.add(subscribe(watch, enqueuer));
        }
        // The informers synced (and published their initial events) before this verticle existed — on start-up,
        // and again whenever leadership comes back. Replay what the cache holds, as an informer's initial list,
        // so idle objects are reconciled too; the queue folds duplicates with events arriving meanwhile.
        for (WatchSpec<?> watch : controller.watches()) {
            replay(watch, enqueuer);
        }
        for (int i = 0; i < workers; i++) {
            nextItem();
        }
        LOG.info("controller {} started with {} workers", definition.name(), workers);
        return Future.succeededFuture();
    }

    private <T extends HasMetadata> MessageConsumer<CacheEvent<T>> subscribe(WatchSpec<T> watch, Enqueuer enqueuer) {
        return vertx.eventBus().<CacheEvent<T>>localConsumer(CacheEventBus.address(watch.type()), message -> {
            try {
                watch.mapper().map(message.body(), enqueuer);
            } catch (RuntimeException e) {
                // A mapper bug must not take the consumer down: later events still need to flow.
                LOG.error("controller {}: mapping a {} event failed", definition.name(),
                        watch.type().getSimpleName(), e);
            }
        });
    }

    private <T extends HasMetadata> void replay(WatchSpec<T> watch, Enqueuer enqueuer) {
        if (controllerContext.cache() == null) {
            return;
        }
        for (T object : controllerContext.cache().resource(watch.type()).list()) {
            try {
                watch.mapper().map(CacheEvent.added(object, true), enqueuer);
            } catch (RuntimeException e) {
                LOG.error("controller {}: mapping a cached {} failed", definition.name(),
                        watch.type().getSimpleName(), e);
            }
        }
    }

    private void nextItem() {
        if (stopping) {
            return;
        }
        queue.next(key -> {
            if (key != null) {
                context.runOnContext(v -> process(key));
            }
        });
    }

    private void process(Request key) {
        metrics.activeWorkers.incrementAndGet();
        long started = System.nanoTime();
        Future<Result> outcome;
        try {
            outcome = controller.reconciler().reconcile(key);
            if (outcome == null) {
                outcome = Future.failedFuture(new IllegalStateException("reconciler returned no result"));
            }
        } catch (RuntimeException e) {
            outcome = Future.failedFuture(e);
        }
        outcome.onComplete(ar -> {
            metrics.time.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
            try {
                settle(key, ar.succeeded() ? ar.result() : null, ar.cause());
            } finally {
                queue.done(key);
                metrics.activeWorkers.decrementAndGet();
                nextItem();
            }
        });
    }

    private void settle(Request key, Result result, Throwable failure) {
        if (failure != null) {
            metrics.error.increment();
            metrics.errors.increment();
            if (!stopping) {
                int retry = queue.numRequeues(key) + 1;
                String expected = ExpectedFailures.reason(failure);
                if (expected != null) {
                    // Conflicts, objects gone and a lost lease are part of normal operation: a line, no trace.
                    LOG.info("controller {}: reconcile of {} will be retried (retry #{}): {}", definition.name(), key,
                            retry, expected);
                } else {
                    LOG.warn("controller {}: reconcile of {} failed (retry #{}): {}", definition.name(), key,
                            retry, String.valueOf(failure.getMessage()), failure);
                }
                queue.addRateLimited(key);
            }
            return;
        }
        if (result.hasRequeueAfter()) {
            metrics.requeueAfter.increment();
            queue.forget(key);
            queue.addAfter(key, result.requeueAfter());
        } else if (result.rateLimitedRequeue()) {
            metrics.requeue.increment();
            queue.addRateLimited(key);
        } else {
            metrics.success.increment();
            queue.forget(key);
        }
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        List<Future<Void>> unregistered = new ArrayList<>();
        for (MessageConsumer<?> consumer : consumers) {
            unregistered.add(consumer.unregister());
        }
        // Let reconciles that are mid-flight finish (their writes are fenced once leadership is gone).
        return Future.all(unregistered)
                .compose(v -> Future.fromCompletionStage(queue.shutDownWithDrain(), context))
                .onComplete(ar -> LOG.info("controller {} stopped", definition.name()));
    }
}
