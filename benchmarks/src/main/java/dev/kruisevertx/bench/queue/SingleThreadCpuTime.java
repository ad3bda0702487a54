package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The same add+get+done loop as {@link SingleThreadThroughputBenchmark}, reported per second of the thread's
 * own CPU time as well as per wall-clock second. On a shared machine the wall-clock figure mostly measures
 * how often the thread was descheduled; the CPU-time figure is what the queue costs.
 *
 * <p>Usage: {@code SingleThreadCpuTime [opsPerRound=20000000]}
 */
public final class SingleThreadCpuTime {

    public static void main(String[] args) {
        long ops = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int keys : new int[] {1_000, 100_000, 1_000_000}) {
            String[] names = MeteredQueues.keys(keys);
            for (int round = 1; round <= 3; round++) {
                WorkQueue<String> queue = MeteredQueues.create("cpu");
                for (String k : names) {
                    queue.add(k);
                }
                long cpu0 = threads.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                for (long i = 0; i < ops; i++) {
                    String k = queue.poll();
                    queue.done(k);
                    queue.add(k);
                }
                long wall = System.nanoTime() - wall0;
                long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                System.out.printf("keys=%d round %d%s: %.2f M ops per wall second, %.2f M ops per CPU second%n",
                        keys, round, round == 1 ? " (warm-up)" : "", ops / (wall / 1e3), ops / (cpu / 1e3));
                queue.shutDown();
            }
        }
    }

    private SingleThreadCpuTime() {
    }
}
