package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One producer (the JMH thread) adds {@value #BATCH} distinct keys per invocation while {@code workers}
 * threads take and finish them; an invocation ends when all were done. Score = items processed per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class WorkersBenchmark {

    static final int BATCH = 10_000;

    @Param({"1", "2", "4", "8", "16", "32", "64"})
    public int workers;

    private WorkQueue<String> queue;
    private final String[] keys = MeteredQueues.keys(BATCH);
    private final AtomicLong processed = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private volatile Thread producer;
    private volatile long target;

    @Setup(Level.Trial)
    public void start() {
        queue = MeteredQueues.create("workers");
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(this::work, "worker-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    private void work() {
        try {
            String k;
            while ((k = queue.take()) != null) {
                queue.done(k);
                if (processed.incrementAndGet() == target) {
                    LockSupport.unpark(producer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        queue.shutDown();
        for (Thread t : threads) {
            t.join(10_000);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void produceAndProcess() {
        producer = Thread.currentThread();
        long goal = processed.get() + BATCH;
        target = goal;
        for (String k : keys) {
            queue.add(k);
        }
        while (processed.get() < goal) {
            LockSupport.parkNanos(50_000);
        }
    }
}
