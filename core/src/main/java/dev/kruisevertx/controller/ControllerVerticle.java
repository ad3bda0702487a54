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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs one controller: listens to cache events on the event bus, turns them into keys in a rate-limited work
 * queue, and drives {@code workers} reconcile loops on this verticle's event loop. Queue semantics guarantee one
 * key is never reconciled twice at once; failures are settled by their {@link ExpectedFailures.Kind kind};
 * {@link Result#requeueAfter} schedules. Each reconcile runs on a duplicated context carrying its
 * {@link ReconcileContext}, which marks its log lines and recorded plans.
 */
public final class ControllerVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerVerticle.class);

    private final ControllerDefinition definition;
    private final ControllerContext controllerContext;
    private final int workers;
    private final List<MessageConsumer<?>> consumers = new ArrayList<>();
    private Runnable externalSourceStop = () -> { };
    /** What first put each queued key in the queue since it was last picked up (shown with its reconcile). */
    private final Map<Request, String> triggers = new ConcurrentHashMap<>();
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

        for (WatchSpec<?> watch : controller.watches()) {
            consumers.add(subscribe(watch));
        }
        externalSourceStop = controller.externalSource().start(enqueuerFor(() -> "run-time watch"));
        Shards shards = controllerContext.shards();
        if (shards.sharded()) {
            consumers.add(vertx.eventBus().<io.vertx.core.json.JsonArray>localConsumer(Shards.GAINED_ADDRESS,
                    message -> replayShards(message.body())));
            consumers.add(vertx.eventBus().localConsumer(Shards.CLUSTER_KEYS_OWNED_ADDRESS,
                    message -> replayClusterScoped()));
        }
        // The informers synced (and published their initial events) before this verticle existed — on start-up,
        // and again whenever leadership comes back. Replay what the cache holds, as an informer's initial list,
        // so idle objects are reconciled too; the queue folds duplicates with events arriving meanwhile.
        List<Runnable> replays = new ArrayList<>();
        for (WatchSpec<?> watch : controller.watches()) {
            replays.addAll(replay(watch));
        }
        // Workers start once the whole replay is queued: a controller whose mappers build an index from the events
        // (the sidecarset controller's SidecarSet -> pods) would otherwise reconcile against a partial index and
        // write wrong statuses at every restart (a status flap seen in the SidecarSet restart benchmark).
        replayInSlices(replays, 0, () -> {
            for (int i = 0; i < workers; i++) {
                nextItem();
            }
        });
        LOG.info("controller {} started with {} workers", definition.name(), workers);
        return Future.succeededFuture();
    }

    /**
     * An enqueuer that remembers which event put a key in the queue and, with {@code --shards}, takes only keys of
     * the shards this replica holds (every controller filters here, none on its own).
     */
    private Enqueuer enqueuerFor(java.util.function.Supplier<String> trigger) {
        return enqueuerFor(trigger, controllerContext.shards()::owns);
    }

    private Enqueuer enqueuerFor(java.util.function.Supplier<String> trigger,
                                 java.util.function.Predicate<Request> accepts) {
        return new Enqueuer() {
            @Override
            public void add(Request request) {
                if (!accepts.test(request)) {
                    return;
                }
                triggers.computeIfAbsent(request, r -> trigger.get());
                queue.add(request);
            }

            @Override
            public void addAfter(Request request, Duration delay) {
                if (!accepts.test(request)) {
                    return;
                }
                triggers.computeIfAbsent(request, r -> trigger.get());
                queue.addAfter(request, delay);
            }
        };
    }

    /**
     * Shards just won: their keys are enqueued from the cache, as on start (the objects of the other held shards
     * are mapped too, but only keys of the won shards are taken).
     */
    private void replayShards(io.vertx.core.json.JsonArray gained) {
        if (stopping || queue == null) {
            return;
        }
        java.util.Set<Integer> won = new java.util.HashSet<>();
        for (int i = 0; i < gained.size(); i++) {
            won.add(gained.getInteger(i));
        }
        Shards shards = controllerContext.shards();
        replayOwned(() -> "replay of shard(s) " + won + " won", request -> shards.in(request, won),
                "keys of shard(s) " + won);
    }

    /**
     * The cluster-scoped keys became owned after the rest of shard 0 (their cache, listed whole, was complete later):
     * they are queued from the cache, as for a shard won.
     */
    private void replayClusterScoped() {
        if (stopping || queue == null) {
            return;
        }
        replayOwned(() -> "replay of cluster-scoped keys", request -> request.namespace().isEmpty(),
                "cluster-scoped keys");
    }

    private void replayOwned(java.util.function.Supplier<String> trigger, java.util.function.Predicate<Request> which,
                             String what) {
        Shards shards = controllerContext.shards();
        Enqueuer enqueuer = enqueuerFor(trigger, request -> which.test(request) && shards.owns(request));
        List<Runnable> replays = new ArrayList<>();
        for (WatchSpec<?> watch : controller.watches()) {
            replays.addAll(replay(watch, enqueuer));
        }
        replayInSlices(replays, 0, () -> LOG.info("controller {}: {} queued from the cache", definition.name(), what));
    }

    private static String describe(CacheEvent<?> event, Class<?> type) {
        HasMetadata object = event.object();
        String name = object == null || object.getMetadata() == null ? "?" : Request.of(object).key();
        return type.getSimpleName() + " " + event.type() + " " + name;
    }

    private <T extends HasMetadata> MessageConsumer<CacheEvent<T>> subscribe(WatchSpec<T> watch) {
        return vertx.eventBus().<CacheEvent<T>>localConsumer(CacheEventBus.address(watch.type()), message -> {
            try {
                watch.mapper().map(message.body(), enqueuerFor(() -> describe(message.body(), watch.type())));
            } catch (RuntimeException e) {
                // A mapper bug must not take the consumer down: later events still need to flow.
                LOG.error("controller {}: mapping a {} event failed", definition.name(),
                        watch.type().getSimpleName(), e);
            }
        });
    }

    /** Cached objects replayed per event-loop turn: 100,000 in one go held the loop for seconds. */
    static final int REPLAY_SLICE = 500;

    /** One task per cached object of the watched kind (the cache's list taken now: it is a snapshot). */
    private <T extends HasMetadata> List<Runnable> replay(WatchSpec<T> watch) {
        return replay(watch, enqueuerFor(() -> "replay of cached " + watch.type().getSimpleName() + "s"));
    }

    private <T extends HasMetadata> List<Runnable> replay(WatchSpec<T> watch, Enqueuer enqueuer) {
        if (controllerContext.cache() == null) {
            return List.of();
        }
        List<T> objects = controllerContext.cache().resource(watch.type()).list();
        List<Runnable> tasks = new ArrayList<>(objects.size());
        for (T object : objects) {
            tasks.add(() -> {
                try {
                    watch.mapper().map(CacheEvent.added(object, true), enqueuer);
                } catch (RuntimeException e) {
                    LOG.error("controller {}: mapping a cached {} failed", definition.name(),
                            watch.type().getSimpleName(), e);
                }
            });
        }
        return tasks;
    }

    /**
     * Runs the replay {@link #REPLAY_SLICE} objects at a time, yielding the event loop between slices so a large
     * cache does not block it; then {@code done} (events arriving meanwhile are queued as usual).
     */
    private void replayInSlices(List<Runnable> tasks, int from, Runnable done) {
        if (stopping) {
            return;
        }
        int to = Math.min(tasks.size(), from + REPLAY_SLICE);
        for (int i = from; i < to; i++) {
            tasks.get(i).run();
        }
        if (to < tasks.size()) {
            context.runOnContext(v -> replayInSlices(tasks, to, done));
        } else {
            done.run();
        }
    }

    private void nextItem() {
        if (stopping) {
            return;
        }
        queue.next(key -> {
            if (key != null && !controllerContext.shards().owns(key)) {
                // Its shard was lost since it was queued: dropped here (the new holder replays its cache).
                triggers.remove(key);
                queue.forget(key);
                queue.done(key);
                // Through the event loop: the queue may deliver synchronously, and many dropped keys would recurse.
                context.runOnContext(v -> nextItem());
                return;
            }
            if (key != null) {
                // Each reconcile runs on a context of its own that carries its ReconcileContext (see there).
                String trigger = triggers.remove(key);
                ReconcileContext rc = ReconcileContext.next(definition.name(), key.key(),
                        trigger == null ? "requeue" : trigger);
                rc.attachTo(context).runOnContext(v -> process(key, rc));
            }
        });
    }

    private void process(Request key, ReconcileContext rc) {
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
                settle(key, rc, ar.succeeded() ? ar.result() : null, ar.cause());
            } finally {
                queue.done(key);
                metrics.activeWorkers.decrementAndGet();
                nextItem();
            }
        });
    }

    private void settle(Request key, ReconcileContext rc, Result result, Throwable failure) {
        if (failure != null) {
            settleFailure(key, rc, failure);
            return;
        }
        if (result.hasRequeueAfter()) {
            metrics.requeueAfter.increment();
            queue.forget(key);
            triggers.putIfAbsent(key, "requeueAfter " + result.requeueAfter());
            queue.addAfter(key, result.requeueAfter());
        } else if (result.rateLimitedRequeue()) {
            metrics.requeue.increment();
            triggers.putIfAbsent(key, "requeue");
            queue.addRateLimited(key);
        } else {
            metrics.success.increment();
            queue.forget(key);
        }
    }

    /**
     * One policy for every controller (see {@link ExpectedFailures.Kind}): conditions of normal operation are one
     * line naming the controller, the key and the reconcile id; only the unexpected keep their stack trace.
     */
    private void settleFailure(Request key, ReconcileContext rc, Throwable failure) {
        ExpectedFailures.Classified c = ExpectedFailures.classify(failure);
        String name = definition.name();
        if (c.kind() == ExpectedFailures.Kind.GONE) {
            // The object (or one it wrote) was deleted meanwhile: the deletion's own event reconciles again.
            metrics.success.increment();
            queue.forget(key);
            LOG.debug("controller {}: reconcile of {} [id {}] found its object gone: {}", name, key, rc.id(), c.reason());
            return;
        }
        metrics.error.increment();
        metrics.errors.increment();
        if (stopping) {
            return;
        }
        if (c.kind() == ExpectedFailures.Kind.NOT_LEADER) {
            queue.forget(key);
            LOG.info("controller {}: reconcile of {} [id {}] dropped: {}", name, key, rc.id(), c.reason());
            return;
        }
        int retry = queue.numRequeues(key) + 1;
        triggers.putIfAbsent(key, "retry #" + retry + " after reconcile " + rc.id());
        switch (c.kind()) {
            case CONFLICT -> LOG.info("controller {}: reconcile of {} [id {}] lost a race, requeued (retry #{}): {}",
                    name, key, rc.id(), retry, c.reason());
            case TRANSIENT -> LOG.info("controller {}: reconcile of {} [id {}] will back off (retry #{}): {}",
                    name, key, rc.id(), retry, c.reason());
            case ADMISSION_DENIED -> LOG.warn("controller {}: reconcile of {} [id {}] will back off (retry #{}): {}",
                    name, key, rc.id(), retry, c.reason());
            default -> LOG.warn("controller {}: reconcile of {} [id {}] failed (retry #{}): {}", name, key, rc.id(),
                    retry, c.reason(), failure);
        }
        queue.addRateLimited(key);
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        try {
            externalSourceStop.run();
        } catch (RuntimeException e) {
            LOG.warn("controller {}: detaching its run-time watches failed: {}", definition.name(), e.toString());
        }
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
