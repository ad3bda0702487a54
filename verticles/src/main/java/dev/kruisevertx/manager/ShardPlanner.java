package dev.kruisevertx.manager;

import dev.kruisevertx.controller.Shards;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The pure decision of one shard-election round ({@code --shards N}): which held shards to give back and which free
 * ones to take, from the live replicas and what the shard leases say.
 *
 * <p>Fair spread: a replica holds at most {@code ceil(N / live replicas)} shards (its fair share). While it holds
 * more (a replica joined), it gives back the surplus, those it is least preferred for first; while it holds fewer, it
 * takes free or expired shards, those it is most preferred for first. Preference is rendezvous hashing
 * (FNV-1a 32 of {@code identity/shard}), so which replica ends up with which shard depends only on the identities,
 * not on timing, and a surplus is handed over once, not passed around.
 */
public final class ShardPlanner {
    private ShardPlanner() {
    }

    /**
     * One shard lease as seen this round.
     *
     * @param holder  the holder identity, or null/empty when the lease is released or absent
     * @param expired whether this replica has seen the lease unrenewed for longer than its duration
     */
    public record LeaseView(String holder, boolean expired) {
        public boolean free() {
            return holder == null || holder.isEmpty() || expired;
        }

        /** Whether the lease names {@code identity} as its holder (expired or not). */
        public boolean heldBy(String identity) {
            return holder != null && !holder.isEmpty() && holder.equals(identity);
        }
    }

    /** What to do this round: give back {@code release}, try to take {@code acquire} (in that order). */
    public record Plan(SortedSet<Integer> release, List<Integer> acquire, int fairShare) {
    }

    /** {@code ceil(shards / replicas)}; a replica alone takes every shard. */
    public static int fairShare(int shards, int liveReplicas) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1, got " + shards);
        }
        int replicas = Math.max(1, liveReplicas);
        return (shards + replicas - 1) / replicas;
    }

    /**
     * @param me      this replica's identity (always counted as live)
     * @param shards  N
     * @param members identities of the live replicas (those whose member lease is fresh)
     * @param leases  shard number to its lease; a shard missing here has no lease yet (free)
     * @param held    the shards this replica holds now
     */
    public static Plan plan(String me, int shards, Set<String> members, Map<Integer, LeaseView> leases,
                            Set<Integer> held) {
        Set<String> live = new TreeSet<>(members);
        live.add(me);
        int share = fairShare(shards, live.size());
        SortedSet<Integer> release = new TreeSet<>();
        if (held.size() > share) {
            List<Integer> order = new ArrayList<>(held);
            // Least preferred first; the shard number breaks ties so the choice is stable.
            order.sort(Comparator.<Integer>comparingLong(s -> score(me, s)).thenComparing(Comparator.reverseOrder()));
            release.addAll(order.subList(0, held.size() - share));
        }
        int room = share - (held.size() - release.size());
        List<Integer> acquire = new ArrayList<>();
        if (room > 0) {
            List<Integer> free = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                LeaseView lease = leases.get(s);
                if (!held.contains(s) && (lease == null || lease.free() || lease.heldBy(me))) {
                    free.add(s);
                }
            }
            // A lease still naming this replica (a stable identity, --leader-election-identity, after a crash) is its
            // own: taken back first and at once, without waiting for it to expire.
            free.sort(Comparator.<Integer, Boolean>comparing(s -> leases.get(s) == null || !leases.get(s).heldBy(me))
                    .thenComparingLong(s -> -score(me, s)).thenComparing(Comparator.naturalOrder()));
            acquire.addAll(free.subList(0, Math.min(room, free.size())));
        }
        return new Plan(release, acquire, share);
    }

    /** Rendezvous weight of a replica for a shard: higher is more preferred. */
    static long score(String identity, int shard) {
        return Integer.toUnsignedLong(fnv((identity + "/" + shard).getBytes(StandardCharsets.UTF_8)));
    }

    private static int fnv(byte[] data) {
        int hash = 0x811c9dc5;
        for (byte b : data) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return hash;
    }

    /** The shard of a namespace, as the runtime computes it (for tests and tools). */
    public static int shardOf(String namespace, int shards) {
        return Shards.shardOf(namespace, shards);
    }
}
