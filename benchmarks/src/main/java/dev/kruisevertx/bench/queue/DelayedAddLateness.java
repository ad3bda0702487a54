package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Delayed adds: one thread adds {@code n} distinct keys with delays spread uniformly over [0, 1 s) as fast as
 * it can; workers take them as they fall due. Reports the add rate, and lateness = time a worker receives a
 * key minus its due time (add time + delay). Also the CPU time of the queue's delay thread per key: on a shared
 * machine lateness mostly measures descheduling, while that CPU time is what filing and releasing keys costs.
 *
 * <p>Usage: {@code DelayedAddLateness [keys=1000000] [workers=2]}
 */
public final class DelayedAddLateness {

    record Due(long id, long dueAt) {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        System.out.printf("delayed adds: %d keys due within 1 s, %d worker(s), metrics on%n", n, workers);
        for (int round = 1; round <= 3; round++) {
            run(n, workers, "round " + round + (round == 1 ? " (warm-up)" : ""));
        }
    }

    static void run(int n, int workerCount, String label) throws InterruptedException {
        WorkQueue<Due> queue = MeteredQueues.create("delayed");
        ReceivingWorkers<Due> workers = ReceivingWorkers.start(queue, workerCount, n, Due::dueAt);
        SplittableRandom random = new SplittableRandom(42);
        long cpu0 = processCpuNanos();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long delay = random.nextLong(1, 1_000_000_000L);
            // The key records the due time the queue computes (its clock is System.nanoTime too).
            queue.addAfter(new Due(i, System.nanoTime() + delay), Duration.ofNanos(delay));
        }
        long addNanos = System.nanoTime() - start;
        workers.awaitAll();
        long cpu = processCpuNanos() - cpu0;
        long delayThreadCpu = newDelayThreadCpuNanos();
        workers.stop();
        System.out.printf("%s: %.0f adds/s (%d adds in %.3f s); lateness %s; process CPU %.2f us per key; "
                        + "delay thread CPU %.3f us per key%n", label, n / (addNanos / 1e9), n, addNanos / 1e9,
                new Percentiles(workers.delays(), n).summaryMillis(), cpu / 1e3 / n, delayThreadCpu / 1e3 / n);
    }

    /** Delay threads of earlier rounds' queues, which may not have exited yet. */
    private static final java.util.Set<Thread> EARLIER = new java.util.HashSet<>();

    /** CPU time of this round's delay thread (one per queue, named after it). */
    private static long newDelayThreadCpuNanos() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("workqueue-delayed-delay") && EARLIER.add(t)) {
                total += Math.max(0, threads.getThreadCpuTime(t.getId()));
            }
        }
        return total;
    }

    /** CPU time of the whole JVM (all threads: adder, delay thread, workers, GC, JIT). */
    private static long processCpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    private DelayedAddLateness() {
    }
}
