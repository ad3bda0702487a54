package dev.kruisevertx.queue;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A de-duplicating, rate-limited work queue of keys with the semantics of client-go's workqueue:
 * <ul>
 *   <li>a key is queued at most once, however often it is added before a consumer takes it;</li>
 *   <li>a key handed to a consumer is "processing" until {@link #done}; it is never handed to a second
 *       consumer meanwhile. Adding it again while processing marks it dirty, and it is queued again only
 *       when {@code done} is called;</li>
 *   <li>{@link #addAfter} holds a key back until its due time (a timer wheel and one thread per queue, never
 *       a timer per key); a key already waiting keeps the earlier due time;</li>
 *   <li>{@link #addRateLimited} delays by what the {@link RateLimiter} says; {@link #forget} resets it;</li>
 *   <li>after {@link #shutDown} adds are ignored, keys still queued are handed out, and consumers waiting on
 *       an empty queue get {@code null}.</li>
 * </ul>
 * Consumers either block ({@link #take}), poll ({@link #poll}) or register a callback ({@link #next}), which
 * suits Vert.x workers that must not block.
 *
 * <p>One lock guards everything; every operation takes it once and does one hash lookup, and the metrics are
 * plain fields updated under that lock.
 *
 * <p>{@link Builder#spinBeforePark} (off by default) lets a taker that finds the queue empty spin for a bounded
 * time before it parks: waking a parked thread costs tens of microseconds at best and milliseconds when the OS
 * is slow to reschedule it, while a spinning taker sees the next key at once. The spin burns a core for its
 * length on every empty take, CPU that other controllers may need, so it is only for latency-critical queues.
 *
 * @param <K> the key type; keys must have stable {@code equals}/{@code hashCode} and must not be null
 */
public final class WorkQueue<K> {

    private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);

    private final String name;
    private final RateLimiter<K> rateLimiter;
    private final Ticker ticker;
    private final WorkQueueMetrics metrics;
    private final DelayedAdds<K> delayed;
    /** How long {@link #take} spins on an empty queue before parking; 0 = park at once. */
    private final long spinNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final KeyTable<K, ItemState<K>> items = new KeyTable<>();
    /** Queued keys, oldest first. */
    private final ItemList<K> queued = new ItemList<>();
    private final ProcessingKeys<K> processing = new ProcessingKeys<>();
    /** Dirty keys, queued or waiting for their processing to finish: what workqueue_depth reports. */
    private int dirty;
    private long adds;
    private long retries;
    private int blockedTakers;
    private final ArrayDeque<Consumer<? super K>> callbacks = new ArrayDeque<>();
    private boolean shuttingDown;
    /** Mirror of shuttingDown for the lock-free checks of delayed adds. */
    private volatile boolean closed;
    private CompletableFuture<Void> drained;
    /**
     * True while keys are queued, for spinning takers to read without the lock. Written only on the
     * empty/non-empty transitions and only when spinning is on, so the default queue pays nothing for it.
     */
    private volatile boolean keysQueued;
    /** Takes that found the queue empty and spun; volatile for tests reading it while a taker spins. */
    private volatile long spunTakes;

    private WorkQueue(Builder<K> b) {
        this.name = b.name;
        this.rateLimiter = b.rateLimiter != null ? b.rateLimiter : RateLimiters.controllerDefault();
        this.ticker = b.ticker;
        this.spinNanos = b.spinNanos;
        this.delayed = new DelayedAdds<>("workqueue-" + name + "-delay", ticker, this::addDue, b.manualDelays);
        this.metrics = b.registry == null ? null : new WorkQueueMetrics(b.registry, name, b.controller, this);
    }

    public static <K> Builder<K> builder(String name) {
        return new Builder<>(name);
    }

    public String name() {
        return name;
    }

    /** Queues {@code key} unless it is already queued; a key being processed is queued again after done. */
    public void add(K key) {
        Objects.requireNonNull(key, "work queue key must not be null");
        Consumer<? super K> callback = null;
        K handed = null;
        lock.lock();
        try {
            if (shuttingDown || !markDirty(key, timestamp())) {
                return;
            }
            if (!callbacks.isEmpty() && !queued.isEmpty()) {
                callback = callbacks.poll();
                handed = pop().key;
            } else {
                wakeTakerIfFirst();
            }
        } finally {
            lock.unlock();
        }
        if (callback != null) {
            deliver(callback, handed);
        }
    }

    /** Queues {@code key} once {@code delay} has passed; a zero or negative delay adds it now. */
    public void addAfter(K key, Duration delay) {
        Objects.requireNonNull(key, "work queue key must not be null");
        Objects.requireNonNull(delay, "delay must not be null");
        if (closed) {
            return;
        }
        if (delay.isNegative() || delay.isZero()) {
            add(key);
            return;
        }
        long nanos = ItemExponentialFailureRateLimiter.saturatedNanos(delay);
        long now = ticker.nanoTime();
        // Clamp so that "now + delay" cannot wrap; a due time ~292 years away is as good as never.
        long dueAt = nanos > Long.MAX_VALUE / 2 ? now + Long.MAX_VALUE / 2 : now + nanos;
        delayed.schedule(key, dueAt);
    }

    /** Queues {@code key} after the delay its rate limiter gives it, and counts a retry. */
    public void addRateLimited(K key) {
        Objects.requireNonNull(key, "work queue key must not be null");
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            retries++;
        } finally {
            lock.unlock();
        }
        addAfter(key, rateLimiter.when(key));
    }

    /** Resets the rate limiter's memory of {@code key}; call it once the key was processed successfully. */
    public void forget(K key) {
        rateLimiter.forget(key);
    }

    public int numRequeues(K key) {
        return rateLimiter.numRequeues(key);
    }

    /** The next queued key, now marked processing, or {@code null} if none is queued. Never blocks. */
    public K poll() {
        lock.lock();
        try {
            return queued.isEmpty() ? null : pop().key;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the next queued key and marks it processing. Returns {@code null} once the queue is shut down
     * and nothing is queued.
     */
    public K take() throws InterruptedException {
        if (spinNanos > 0) {
            spinWhileEmpty();
        }
        lock.lockInterruptibly();
        try {
            while (queued.isEmpty() && !shuttingDown) {
                blockedTakers++;
                try {
                    notEmpty.await();
                } catch (InterruptedException e) {
                    // This taker may have consumed the wake-up meant for a queued key: pass it on.
                    wakeNextTaker();
                    throw e;
                } finally {
                    blockedTakers--;
                }
            }
            if (queued.isEmpty()) {
                return null;
            }
            K key = pop().key;
            wakeNextTaker();
            return key;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Calls {@code callback} exactly once: with the next key (marked processing) as soon as one is queued, or
     * with {@code null} when the queue shuts down first. The callback runs on whichever thread makes the key
     * available (possibly the caller's, an adder's or the delay thread), so it should only dispatch the work,
     * e.g. to a Vert.x context.
     */
    public void next(Consumer<? super K> callback) {
        Objects.requireNonNull(callback, "callback must not be null");
        K key = null;
        boolean now;
        lock.lock();
        try {
            if (!queued.isEmpty()) {
                key = pop().key;
                now = true;
            } else if (shuttingDown) {
                now = true;
            } else {
                callbacks.add(callback);
                now = false;
            }
        } finally {
            lock.unlock();
        }
        if (now) {
            deliver(callback, key);
        }
    }

    /** Marks the end of processing {@code key}; if it was added meanwhile, it is queued again now. */
    public void done(K key) {
        Objects.requireNonNull(key, "work queue key must not be null");
        Consumer<? super K> callback = null;
        K handed = null;
        CompletableFuture<Void> drainedNow = null;
        lock.lock();
        try {
            ItemState<K> s = items.get(key);
            if (s == null || !s.processing) {
                return;
            }
            if (metrics != null) {
                metrics.workDuration.record(ticker.nanoTime() - s.startedAt);
            }
            processing.remove(s);
            if (s.dirty) {
                enqueue(s);
                if (!callbacks.isEmpty()) {
                    callback = callbacks.poll();
                    handed = pop().key;
                } else {
                    wakeTakerIfFirst();
                }
            } else {
                items.remove(s);
            }
            if (processing.size() == 0 && drained != null) {
                drainedNow = drained;
            }
        } finally {
            lock.unlock();
        }
        if (drainedNow != null) {
            drainedNow.complete(null);
        }
        if (callback != null) {
            deliver(callback, handed);
        }
    }

    /** Number of keys queued and ready to be handed out (not counting delayed or processing keys). */
    public int len() {
        return underLock(queued::size);
    }

    /**
     * Stops the queue: later adds are ignored, delayed keys are dropped, keys still queued can still be taken,
     * and consumers waiting on an empty queue get {@code null}.
     */
    public void shutDown() {
        List<Consumer<? super K>> released = beginShutdown();
        finishShutdown(released);
    }

    /** {@link #shutDown()}, completing once every key being processed has been marked done. */
    public CompletionStage<Void> shutDownWithDrain() {
        List<Consumer<? super K>> released;
        CompletableFuture<Void> result;
        lock.lock();
        try {
            released = beginShutdown();
            if (drained == null) {
                drained = new CompletableFuture<>();
                if (processing.size() == 0) {
                    drained.complete(null);
                }
            }
            result = drained;
        } finally {
            lock.unlock();
        }
        finishShutdown(released);
        return result;
    }

    public boolean isShuttingDown() {
        return underLock(() -> shuttingDown);
    }

    // ---- internals, all called with the lock held unless stated ----

    /**
     * Outside the lock: spins until a key is queued, the queue shuts down, the thread is interrupted or the spin
     * time is up. Only a hint: the caller re-checks under the lock and parks if another taker won the key.
     */
    private void spinWhileEmpty() {
        if (keysQueued || closed) {
            return;
        }
        spunTakes++;
        long deadline = System.nanoTime() + spinNanos;
        Thread self = Thread.currentThread();
        while (!keysQueued && !closed && !self.isInterrupted()) {
            if (System.nanoTime() - deadline >= 0) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** For tests: the spin-before-park this queue was built with, in nanoseconds. */
    long spinNanos() {
        return spinNanos;
    }

    /** For tests: how many takes found the queue empty and spun (exact with one taker). */
    long spunTakes() {
        return spunTakes;
    }

    /** For tests: takers parked on the empty queue. */
    int blockedTakers() {
        return underLock(() -> blockedTakers);
    }

    /** Marks {@code key} dirty and queues it unless it is processing; false if it was dirty already. */
    private boolean markDirty(K key, long now) {
        ItemState<K> s = items.get(key);
        if (s == null) {
            s = new ItemState<>(key);
            items.insert(s);
        } else if (s.dirty) {
            return false;
        }
        s.dirty = true;
        s.addedAt = now;
        dirty++;
        adds++;
        if (!s.processing) {
            enqueue(s);
        }
        return true;
    }

    /**
     * Wakes one blocked taker when the queue just became non-empty. Keys added to a non-empty queue wake nobody:
     * each taker that wakes passes the signal on while keys remain ({@link #wakeNextTaker}), so a burst of adds
     * costs one wake-up per taker actually needed rather than one per key.
     */
    private void wakeTakerIfFirst() {
        if (queued.size() == 1 && blockedTakers > 0) {
            notEmpty.signal();
        }
    }

    private void wakeNextTaker() {
        if (!queued.isEmpty() && blockedTakers > 0) {
            notEmpty.signal();
        }
    }

    private void enqueue(ItemState<K> s) {
        queued.addLast(s);
        if (spinNanos > 0 && queued.size() == 1) {
            keysQueued = true;
        }
    }

    private ItemState<K> pop() {
        ItemState<K> s = queued.removeFirst();
        if (spinNanos > 0 && queued.isEmpty()) {
            keysQueued = false;
        }
        dirty--;
        s.dirty = false;
        long now = timestamp();
        if (metrics != null) {
            metrics.queueDuration.record(now - s.addedAt);
        }
        processing.add(s, now);
        return s;
    }

    /** Time is read only when metrics need it; without metrics the hot path makes no clock calls. */
    private long timestamp() {
        return metrics == null ? 0 : ticker.nanoTime();
    }

    private List<Consumer<? super K>> beginShutdown() {
        lock.lock();
        try {
            if (shuttingDown) {
                return List.of();
            }
            shuttingDown = true;
            closed = true;
            notEmpty.signalAll();
            List<Consumer<? super K>> released = new ArrayList<>(callbacks);
            callbacks.clear();
            return released;
        } finally {
            lock.unlock();
        }
    }

    /** Outside the lock. */
    private void finishShutdown(List<Consumer<? super K>> released) {
        delayed.stop();
        if (metrics != null) {
            // Unregistered so that a queue built later under the same name (a new leader term) is the one
            // the meters read.
            metrics.close();
        }
        for (Consumer<? super K> c : released) {
            deliver(c, null);
        }
    }

    /** Outside the lock: the delay thread hands over every key whose time has come, under one lock. */
    private void addDue(List<K> keys) {
        List<Consumer<? super K>> cbs = null;
        List<K> handed = null;
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            long now = timestamp();
            for (int i = 0, n = keys.size(); i < n; i++) {
                markDirty(keys.get(i), now);
            }
            while (!callbacks.isEmpty() && !queued.isEmpty()) {
                if (cbs == null) {
                    cbs = new ArrayList<>();
                    handed = new ArrayList<>();
                }
                cbs.add(callbacks.poll());
                handed.add(pop().key);
            }
            if (!queued.isEmpty() && blockedTakers > 0) {
                notEmpty.signal();
            }
        } finally {
            lock.unlock();
        }
        if (cbs != null) {
            for (int i = 0; i < cbs.size(); i++) {
                deliver(cbs.get(i), handed.get(i));
            }
        }
    }

    private void deliver(Consumer<? super K> callback, K key) {
        try {
            callback.accept(key);
        } catch (RuntimeException | Error e) {
            // The key stays processing until the consumer calls done(); a throwing callback must not break
            // the adder that happened to run it.
            LOG.error("work queue {}: next() callback failed for key {}", name, key, e);
        }
    }

    // ---- read by the meters (scrape time, not the hot path) ----

    double depthForMetrics() {
        return underLock(() -> (double) dirty);
    }

    double addsForMetrics() {
        return underLock(() -> (double) adds);
    }

    double retriesForMetrics() {
        return underLock(() -> (double) retries);
    }

    double unfinishedWorkSeconds() {
        return underLock(() -> processing.unfinishedSeconds(ticker.nanoTime()));
    }

    double longestRunningProcessorSeconds() {
        return underLock(() -> processing.longestSeconds(ticker.nanoTime()));
    }

    /** A read of queue state off the hot path (sizes, the shutdown flag, scrape-time meters). */
    private <T> T underLock(java.util.function.Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    WorkQueueMetrics.Histograms histogramsForMetrics(WorkQueueMetrics m) {
        return underLock(() -> new WorkQueueMetrics.Histograms(
                m.queueDuration.bucketCounts(), m.queueDuration.sumSeconds(), m.queueDuration.count(),
                m.workDuration.bucketCounts(), m.workDuration.sumSeconds(), m.workDuration.count()));
    }

    /** Keys waiting in the delay heap. */
    int delayedLen() {
        return delayed.size();
    }

    /** For tests with a manual ticker: moves every due delayed key into the queue on the calling thread. */
    int releaseDueDelayed() {
        return delayed.releaseDue();
    }

    DelayedAdds<K> delayedAdds() {
        return delayed;
    }

    /** Builds a {@link WorkQueue}. */
    public static final class Builder<K> {
        /** System property: default spin-before-park of every queue, in microseconds (0 or unset: none). */
        public static final String SPIN_PROPERTY = "kruise.workqueue.spinMicros";
        /** Beyond this a parked worker's wake-up is cheap by comparison; longer spins only waste CPU. */
        static final Duration MAX_SPIN = Duration.ofMillis(10);

        private final String name;
        private RateLimiter<K> rateLimiter;
        private MeterRegistry registry;
        private String controller;
        private Ticker ticker = Ticker.system();
        private boolean manualDelays;
        private long spinNanos = spinFromSystemProperty();

        private Builder(String name) {
            Objects.requireNonNull(name, "work queue name must not be null");
            if (name.isBlank()) {
                throw new IllegalArgumentException("work queue name must not be blank");
            }
            this.name = name;
        }

        /** Defaults to {@link RateLimiters#controllerDefault()}. */
        public Builder<K> rateLimiter(RateLimiter<K> rateLimiter) {
            this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
            return this;
        }

        /** Publishes the workqueue_* meters with labels {@code name} (the queue name) and {@code controller}. */
        public Builder<K> meterRegistry(MeterRegistry registry, String controllerLabel) {
            this.registry = Objects.requireNonNull(registry, "registry");
            this.controller = Objects.requireNonNull(controllerLabel, "controllerLabel");
            return this;
        }

        /** The time source for delays and metrics; tests pass a manual one. */
        public Builder<K> ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Lets {@link WorkQueue#take} spin up to {@code spin} on an empty queue before parking (zero, the default,
         * parks at once). A few tens of microseconds cut the hand-off tail when a core is free for the spinning
         * worker; each spinning worker uses a whole core while it spins. The system property
         * {@value #SPIN_PROPERTY} (microseconds) sets the default for every queue.
         */
        public Builder<K> spinBeforePark(Duration spin) {
            Objects.requireNonNull(spin, "spin");
            if (spin.isNegative()) {
                throw new IllegalArgumentException("spinBeforePark must not be negative: " + spin);
            }
            if (spin.compareTo(MAX_SPIN) > 0) {
                throw new IllegalArgumentException("spinBeforePark above " + MAX_SPIN + " burns a core for nothing: "
                        + spin);
            }
            this.spinNanos = spin.toNanos();
            return this;
        }

        /** For tests: a spin beyond {@link #MAX_SPIN}, to hold a taker in its spin as long as a test needs. */
        Builder<K> spinNanosUnchecked(long nanos) {
            this.spinNanos = nanos;
            return this;
        }

        /** For tests: no delay thread; due keys move only when the test calls {@code releaseDueDelayed()}. */
        Builder<K> manualDelays() {
            this.manualDelays = true;
            return this;
        }

        public WorkQueue<K> build() {
            return new WorkQueue<>(this);
        }

        private static long spinFromSystemProperty() {
            String value = System.getProperty(SPIN_PROPERTY);
            if (value == null || value.isBlank()) {
                return 0;
            }
            long micros;
            try {
                micros = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                LOG.warn("ignoring {}: not a number of microseconds", SPIN_PROPERTY);
                return 0;
            }
            if (micros < 0 || micros > MAX_SPIN.toNanos() / 1000) {
                LOG.warn("ignoring {}={}: must be between 0 and {} us", SPIN_PROPERTY, micros,
                        MAX_SPIN.toNanos() / 1000);
                return 0;
            }
            return micros * 1000;
        }
    }
}
