package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

/**
 * The longest single {@code add()} while a queue grows to {@code keys} distinct keys, and the longest single
 * {@code poll()+done()} while it drains. The queue's key table resizes as it grows and shrinks; a resize that
 * rehashes every key in one call shows up here as one add taking milliseconds, which is that long with the queue
 * lock held (and, in the delay thread, that long with no due key released). Prints the five longest of each with
 * the number of keys held; run it with a concurrent GC (ZGC) so collector pauses do not hide the resizes.
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
            Worst adds = new Worst();
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                queue.add(keys[i]);
                adds.offer(System.nanoTime() - t0, i);
            }
            Worst drains = new Worst();
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                queue.done(queue.poll());
                drains.offer(System.nanoTime() - t0, n - i);
            }
            System.out.printf("round %d%s: longest adds %s; longest poll+done %s%n",
                    round, round == 1 ? " (warm-up)" : "", adds, drains);
            queue.shutDown();
        }
    }

    /** The five longest operations, each with the number of keys the queue held. */
    private static final class Worst {
        private final long[] nanos = new long[5];
        private final int[] at = new int[5];

        void offer(long t, int keys) {
            if (t <= nanos[4]) {
                return;
            }
            int i = 4;
            while (i > 0 && nanos[i - 1] < t) {
                nanos[i] = nanos[i - 1];
                at[i] = at[i - 1];
                i--;
            }
            nanos[i] = t;
            at[i] = keys;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                b.append(i == 0 ? "" : ", ").append(String.format("%.3f ms @%d", nanos[i] / 1e6, at[i]));
            }
            return b.toString();
        }
    }

    private TableResizePause() {
    }
}
