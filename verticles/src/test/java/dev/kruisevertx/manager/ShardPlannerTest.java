package dev.kruisevertx.manager;

import dev.kruisevertx.manager.ShardPlanner.LeaseView;
import dev.kruisevertx.manager.ShardPlanner.Plan;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShardPlannerTest {
    @Test
    void fairShareIsTheCeilingOfShardsPerLiveReplica() {
        assertEquals(4, ShardPlanner.fairShare(4, 1));
        assertEquals(2, ShardPlanner.fairShare(4, 2));
        assertEquals(2, ShardPlanner.fairShare(4, 3));
        assertEquals(1, ShardPlanner.fairShare(4, 4));
        assertEquals(1, ShardPlanner.fairShare(4, 9));
        assertEquals(3, ShardPlanner.fairShare(3, 0), "a replica counts itself");
        assertThrows(IllegalArgumentException.class, () -> ShardPlanner.fairShare(0, 1));
    }

    @Test
    void aLoneReplicaTakesEveryFreeShard() {
        Plan plan = ShardPlanner.plan("a", 4, Set.of(), Map.of(), Set.of());
        assertEquals(Set.of(0, 1, 2, 3), Set.copyOf(plan.acquire()));
        assertEquals(Set.of(), plan.release());
    }

    @Test
    void aLiveHolderKeepsItsShardAndAnExpiredOneLosesIt() {
        Map<Integer, LeaseView> leases = Map.of(0, new LeaseView("b", false), 1, new LeaseView("b", true));
        Plan plan = ShardPlanner.plan("a", 2, Set.of("b"), leases, Set.of());
        assertEquals(List.of(1), plan.acquire(), "shard 0 is held by a live lease; 1 expired");
        Plan released = ShardPlanner.plan("a", 2, Set.of(), Map.of(0, new LeaseView("", false)), Set.of());
        assertEquals(Set.of(0, 1), Set.copyOf(released.acquire()), "a released lease (no holder) and a missing one are free");
        assertEquals(1, ShardPlanner.plan("a", 2, Set.of("a", "b"), Map.of(), Set.of()).acquire().size(),
                "never more than the fair share");
    }

    @Test
    void aReplicaHoldingMoreThanItsShareGivesBackTheSurplusOnce() {
        Plan plan = ShardPlanner.plan("a", 4, Set.of("a", "b"), Map.of(), Set.of(0, 1, 2, 3));
        assertEquals(2, plan.release().size());
        assertEquals(List.of(), plan.acquire());
        // Deterministic: the same inputs give the same surplus.
        assertEquals(plan.release(), ShardPlanner.plan("a", 4, Set.of("b"), Map.of(), Set.of(0, 1, 2, 3)).release());
        // At its share nothing moves.
        Plan settled = ShardPlanner.plan("a", 4, Set.of("b"), Map.of(), Set.of(0, 1));
        assertEquals(Set.of(), settled.release());
        assertEquals(List.of(), settled.acquire());
    }

    @Test
    void simulatedReplicasConvergeToAFairDisjointSpreadAndTakeOverADeadOnesShards() {
        for (int shards : new int[] {2, 3, 4, 7, 16}) {
            for (int replicas : new int[] {1, 2, 3, 5}) {
                Map<Integer, String> holder = new TreeMap<>();
                List<String> names = new java.util.ArrayList<>();
                for (int r = 0; r < replicas; r++) {
                    names.add("replica-" + r + "_x");
                }
                run(shards, names, holder);
                assertFair(shards, names, holder);
                if (replicas > 1) {
                    // One replica dies: its leases expire and the others take them.
                    String dead = names.remove(0);
                    holder.entrySet().removeIf(e -> e.getValue().equals(dead));
                    run(shards, names, holder);
                    assertFair(shards, names, holder);
                    // It comes back: the others give back the surplus and it takes it; the result is stable.
                    names.add(dead);
                    run(shards, names, holder);
                    assertFair(shards, names, holder);
                    Map<Integer, String> before = new TreeMap<>(holder);
                    run(shards, names, holder);
                    assertEquals(before, holder, "a settled spread does not move");
                }
            }
        }
    }

    /** Rounds of every replica in turn until nothing changes (bounded). */
    private static void run(int shards, List<String> names, Map<Integer, String> holder) {
        for (int round = 0; round < 50; round++) {
            boolean changed = false;
            for (String me : names) {
                Map<Integer, LeaseView> leases = new HashMap<>();
                holder.forEach((s, h) -> leases.put(s, new LeaseView(h, false)));
                Set<Integer> held = new HashSet<>();
                holder.forEach((s, h) -> {
                    if (h.equals(me)) {
                        held.add(s);
                    }
                });
                Plan plan = ShardPlanner.plan(me, shards, Set.copyOf(names), leases, held);
                for (int s : plan.release()) {
                    holder.remove(s);
                    changed = true;
                }
                for (int s : plan.acquire()) {
                    assertTrue(!holder.containsKey(s), "took a held shard " + s);
                    holder.put(s, me);
                    changed = true;
                }
            }
            if (!changed) {
                return;
            }
        }
        throw new AssertionError("no convergence: " + holder);
    }

    private static void assertFair(int shards, List<String> names, Map<Integer, String> holder) {
        assertEquals(shards, holder.size(), "every shard held: " + holder);
        int share = ShardPlanner.fairShare(shards, names.size());
        for (String n : names) {
            long count = holder.values().stream().filter(n::equals).count();
            assertTrue(count <= share, n + " holds " + count + " > " + share + ": " + holder);
        }
    }

    @Test
    void aReplicaTakesBackTheLeasesThatStillNameItAtOnceAndFirst() {
        // Restarted with the same identity: its two leases are not expired yet, but they are its own.
        Map<Integer, LeaseView> leases = Map.of(0, new LeaseView("pod-a", false), 1, new LeaseView("pod-b", false),
                2, new LeaseView("pod-a", false), 3, new LeaseView("", false));
        Plan plan = ShardPlanner.plan("pod-a", 4, Set.of("pod-a", "pod-b"), leases, Set.of());
        assertEquals(Set.of(0, 2), Set.copyOf(plan.acquire()), "its own two first, within its fair share of 2");
        Plan other = ShardPlanner.plan("pod-c", 4, Set.of("pod-a", "pod-b"), leases, Set.of());
        assertEquals(List.of(3), other.acquire(), "another identity only gets the released lease");
    }
}
