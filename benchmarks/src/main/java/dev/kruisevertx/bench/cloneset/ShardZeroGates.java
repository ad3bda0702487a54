package dev.kruisevertx.bench.cloneset;

import dev.kruisevertx.controller.Shards;

import java.util.List;

/**
 * When the holder of shard 0 came to own shard 0's namespaced keys and when its cluster-scoped keys (which wait for
 * the kinds cached whole), as seconds since the replicas' start: polled every 10 ms from a daemon thread, so each
 * time is late by up to one poll.
 */
final class ShardZeroGates {
    private final long start;
    private volatile double namespacedOwned = Double.NaN;
    private volatile double clusterScopedOwned = Double.NaN;
    private volatile int holder = -1;

    private ShardZeroGates(long start) {
        this.start = start;
    }

    static ShardZeroGates watch(List<Replica> replicas, long start) {
        ShardZeroGates gates = new ShardZeroGates(start);
        Thread t = new Thread(() -> gates.poll(replicas), "shard-zero-gates");
        t.setDaemon(true);
        t.start();
        return gates;
    }

    private void poll(List<Replica> replicas) {
        while (Double.isNaN(clusterScopedOwned)) {
            for (Replica r : replicas) {
                Shards shards = r.app().shards();
                if (!shards.holds(0)) {
                    continue;
                }
                Shards.CacheWait wait = shards.cacheWait(0);
                double now = (System.nanoTime() - start) / 1e9;
                if (wait != Shards.CacheWait.ALL_KEYS && Double.isNaN(namespacedOwned)) {
                    namespacedOwned = now;
                    holder = r.index();
                }
                if (wait == Shards.CacheWait.NONE && holder == r.index()) {
                    clusterScopedOwned = now;
                }
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    void report() {
        System.out.printf("shard 0 (replica %d): namespaced keys owned at %.2f s, cluster-scoped keys at %.2f s after"
                + " the replicas' start (10 ms polls)%n", holder, namespacedOwned, clusterScopedOwned);
    }
}
