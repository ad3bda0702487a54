package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;

/**
 * Heap retained per queued key, measured as used heap after full GCs before and after queuing {@code n}
 * distinct keys. The keys themselves are created beforehand and kept alive, so only the queue's own cost is
 * counted (as for client-go's figure). Also reports keys waiting in the delay heap.
 *
 * <p>Usage: {@code MemoryPerQueuedKey [keys=1000000]}
 */
public final class MemoryPerQueuedKey {

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String[] keys = MeteredQueues.keys(n);
        for (int round = 1; round <= 3; round++) {
            WorkQueue<String> queue = MeteredQueues.create("memory-" + round);
            long before = usedAfterGc();
            for (String k : keys) {
                queue.add(k);
            }
            long afterQueued = usedAfterGc();
            WorkQueue<String> delayed = MeteredQueues.create("memory-delayed-" + round);
            long beforeDelayed = usedAfterGc();
            for (String k : keys) {
                delayed.addAfter(k, Duration.ofHours(1));
            }
            // The delay thread files its inbox asynchronously; give it time to finish before weighing.
            Thread.sleep(3_000);
            long afterDelayed = usedAfterGc();
            System.out.printf("round %d: %d keys: %.1f bytes per queued key, %.1f bytes per delayed key (len=%d)%n",
                    round, n, (afterQueued - before) / (double) n, (afterDelayed - beforeDelayed) / (double) n,
                    queue.len());
            queue.shutDown();
            delayed.shutDown();
        }
        // Keep the keys reachable until the end so they never count as freed.
        System.out.println("keys kept: " + keys.length);
    }

    private static long usedAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private MemoryPerQueuedKey() {
    }
}
