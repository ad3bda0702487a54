package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

/**
 * Worker threads blocked in {@code take()} that record, for each key they receive, how long after the key's own
 * timestamp it arrived ({@code System.nanoTime()} on receipt minus {@code stamp}), then mark it done.
 */
final class ReceivingWorkers<K> {
    private final WorkQueue<K> queue;
    private final long[] delays;
    private final AtomicInteger received = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();

    private ReceivingWorkers(WorkQueue<K> queue, int expected) {
        this.queue = queue;
        this.delays = new long[expected];
    }

    /** Starts {@code workers} threads that receive up to {@code expected} keys. */
    static <K> ReceivingWorkers<K> start(WorkQueue<K> queue, int workers, int expected, ToLongFunction<K> stamp) {
        ReceivingWorkers<K> w = new ReceivingWorkers<>(queue, expected);
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(() -> {
                try {
                    K k;
                    while ((k = queue.take()) != null) {
                        w.delays[w.received.getAndIncrement()] = System.nanoTime() - stamp.applyAsLong(k);
                        queue.done(k);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "worker-" + i);
            t.start();
            w.threads.add(t);
        }
        return w;
    }

    /** Waits until every expected key was received. */
    void awaitAll() throws InterruptedException {
        while (received.get() < delays.length) {
            Thread.sleep(1);
        }
    }

    /** Shuts the queue down and waits for the workers to exit. */
    void stop() throws InterruptedException {
        queue.shutDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    /** The recorded delays in nanoseconds, in order of receipt. */
    long[] delays() {
        return delays;
    }
}
