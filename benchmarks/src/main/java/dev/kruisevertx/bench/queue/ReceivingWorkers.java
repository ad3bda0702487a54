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
    /** The stamp of each received key, in the same order as {@link #delays}. */
    private final long[] stamps;
    /** Each worker's /proc directory, for reading its scheduler counters from another thread. */
    private final java.nio.file.Path[] threadDirs;
    private final AtomicInteger received = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();

    private ReceivingWorkers(WorkQueue<K> queue, int expected, int workers) {
        this.queue = queue;
        this.delays = new long[expected];
        this.stamps = new long[expected];
        this.threadDirs = new java.nio.file.Path[workers];
    }

    /** Starts {@code workers} threads that receive up to {@code expected} keys. */
    static <K> ReceivingWorkers<K> start(WorkQueue<K> queue, int workers, int expected, ToLongFunction<K> stamp)
            throws InterruptedException {
        ReceivingWorkers<K> w = new ReceivingWorkers<>(queue, expected, workers);
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(workers);
        for (int i = 0; i < workers; i++) {
            int index = i;
            Thread t = new Thread(() -> {
                w.threadDirs[index] = SchedStat.currentThreadDir();
                ready.countDown();
                try {
                    K k;
                    while ((k = queue.take()) != null) {
                        long now = System.nanoTime();
                        long sent = stamp.applyAsLong(k);
                        int at = w.received.getAndIncrement();
                        w.delays[at] = now - sent;
                        w.stamps[at] = sent;
                        queue.done(k);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "worker-" + i);
            t.start();
            w.threads.add(t);
        }
        ready.await();
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

    /** The stamps of the received keys, in order of receipt. */
    long[] stamps() {
        return stamps;
    }

    /** Bytes each worker thread has allocated so far (HotSpot's per-thread counter; -1 where unsupported). */
    long[] allocatedBytesNow() {
        long[] out = new long[threads.size()];
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < out.length; i++) {
            out[i] = mx instanceof com.sun.management.ThreadMXBean sun
                    ? sun.getThreadAllocatedBytes(threads.get(i).getId()) : -1;
        }
        return out;
    }

    /** Each worker's scheduler counters now (read from this thread; the workers' loops are not touched). */
    SchedStat[] schedNow() {
        SchedStat[] now = new SchedStat[threadDirs.length];
        for (int i = 0; i < now.length; i++) {
            now[i] = SchedStat.of(threadDirs[i]);
        }
        return now;
    }

    /** The recorded delays in nanoseconds, in order of receipt. */
    long[] delays() {
        return delays;
    }
}
