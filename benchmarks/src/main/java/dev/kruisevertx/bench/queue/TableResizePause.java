package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

/**
 * The longest single {@code add()} while a queue grows to {@code keys} distinct keys, and the longest single
 * {@code poll()+done()} while it drains. The queue's key table resizes as it grows and shrinks; a resize that
 * rehashes every key in one call shows up here as one add taking milliseconds, which is that long with the queue
 * lock held (and, in the delay thread, that long with no due key released).
 *
 * <p>Usage: {@code TableResizePause [keys=2000000] [rounds=3]}
 */
public final class TableResizePause {

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String[] keys = MeteredQueues.keys(n);
        for (int round = 1; round <= rounds; round++) {
            WorkQueue<String> queue = MeteredQueues.create("resize");
            long worstAdd = 0;
            int worstAddAt = 0;
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                queue.add(keys[i]);
                long t = System.nanoTime() - t0;
                if (t > worstAdd) {
                    worstAdd = t;
                    worstAddAt = i;
                }
            }
            long worstDrain = 0;
            int worstDrainAt = 0;
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                queue.done(queue.poll());
                long t = System.nanoTime() - t0;
                if (t > worstDrain) {
                    worstDrain = t;
                    worstDrainAt = n - i;
                }
            }
            System.out.printf("round %d%s: longest add %.3f ms (at %d keys); longest poll+done %.3f ms (at %d keys)%n",
                    round, round == 1 ? " (warm-up)" : "", worstAdd / 1e6, worstAddAt, worstDrain / 1e6, worstDrainAt);
            queue.shutDown();
        }
    }

    private TableResizePause() {
    }
}
