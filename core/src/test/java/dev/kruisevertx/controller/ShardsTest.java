package dev.kruisevertx.controller;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShardsTest {
    @Test
    void fnv1a32MatchesThePublishedTestVectors() {
        assertEquals(0x811c9dc5, Shards.fnv1a32("".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0xe40c292c, Shards.fnv1a32("a".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0xbf9cf968, Shards.fnv1a32("foobar".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aNamespaceAlwaysMapsToTheSameShardAndClusterScopedKeysToShardZero() {
        // FNV-1a 32 of "foobar" is 0xbf9cf968 = 3214735720; mod 4 = 0, mod 3 = 1, mod 7 = 3.
        assertEquals(0, Shards.shardOf("foobar", 4));
        assertEquals(1, Shards.shardOf("foobar", 3));
        assertEquals(3214735720L % 7, Shards.shardOf("foobar", 7));
        assertEquals(0, Shards.shardOf("", 4));
        assertEquals(0, Shards.shardOf(null, 4));
        assertEquals(0, Shards.shardOf("anything", 1));
        Shards shards = new Shards(4, 1_000, () -> 0);
        assertEquals(shards.shardOf(new Request("team-a", "web")), shards.shardOf(new Request("team-a", "api")),
                "every key of a namespace is in one shard");
        assertEquals(0, shards.shardOf(new Request("", "sidecarset-a")));
    }

    @Test
    void namespacesSpreadOverTheShards() {
        int[] counts = new int[4];
        for (int i = 0; i < 4000; i++) {
            counts[Shards.shardOf("ns-" + i, 4)]++;
        }
        for (int c : counts) {
            assertTrue(c > 800 && c < 1200, "uneven spread: " + java.util.Arrays.toString(counts));
        }
    }

    @Test
    void oneShardOwnsEveryKeyAndNeverFences() {
        Shards single = Shards.single();
        assertFalse(single.sharded());
        assertTrue(single.owns(new Request("any", "x")));
        assertTrue(single.mayWrite("any/x"));
        assertTrue(single.mayWrite(null));
    }

    @Test
    void theFenceDropsWhenTheShardIsLostOrItsRenewalIsOlderThanTheRenewDeadline() {
        AtomicLong now = new AtomicLong(1_000);
        Shards shards = new Shards(2, 100, now::get);
        String key0 = keyIn(0, 2);
        String key1 = keyIn(1, 2);
        assertFalse(shards.owns(Request.parse(key0)));
        assertFalse(shards.mayWrite(key0));
        assertFalse(shards.mayWrite(null), "no shard held: no write outside a reconcile either");

        shards.renewed(0, 1_000);
        assertTrue(shards.owns(Request.parse(key0)));
        assertTrue(shards.mayWrite(key0));
        assertFalse(shards.owns(Request.parse(key1)));
        assertFalse(shards.mayWrite(key1), "a key of a shard held by another replica");
        assertTrue(shards.mayWrite(null));
        assertTrue(shards.mayWrite("cluster-scoped-name"), "cluster-scoped keys are shard 0");

        now.set(1_099);
        assertTrue(shards.mayWrite(key0));
        now.set(1_100);
        assertFalse(shards.mayWrite(key0), "renew deadline passed");
        assertTrue(shards.owns(Request.parse(key0)), "still held until the elector gives it up");
        shards.renewed(0, 1_100);
        assertTrue(shards.mayWrite(key0));

        shards.dropped(0);
        assertFalse(shards.owns(Request.parse(key0)));
        assertFalse(shards.mayWrite(key0));
        assertEquals(Set.of(), shards.held());
    }

    @Test
    void hostileShardNumbersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Shards(0, 1, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> new Shards(-3, 1, () -> 0));
        Shards shards = new Shards(2, 1, () -> 0);
        assertThrows(IllegalArgumentException.class, () -> shards.renewed(2, 0));
        assertThrows(IllegalArgumentException.class, () -> shards.renewed(-1, 0));
        assertTrue(Shards.shardOf("x".repeat(100_000), 256) < 256);
        assertEquals(List.of(), List.copyOf(shards.held()));
    }

    /** A namespaced key whose namespace hashes to {@code shard}. */
    static String keyIn(int shard, int count) {
        for (int i = 0; ; i++) {
            if (Shards.shardOf("ns-" + i, count) == shard) {
                return "ns-" + i + "/obj";
            }
        }
    }

    @Test
    void withTheCacheGateAShardWonIsOwnedOnlyOnceTheCacheHoldsIt() {
        Shards shards = new Shards(2, Long.MAX_VALUE, () -> 0);
        shards.gateOnCache();
        Request inOne = new Request(namespaceIn(1), "web");
        shards.renewed(1, 0);
        assertFalse(shards.owns(inOne), "held but not yet cached");
        java.util.Map<Integer, Long> firstWin = shards.awaitingCache(java.util.Set.of(1));
        assertEquals(java.util.Set.of(1), firstWin.keySet());
        // Lost and won again while the first fill runs: the first fill's completion does not open the second win.
        shards.dropped(1);
        shards.renewed(1, 0);
        java.util.Map<Integer, Long> secondWin = shards.awaitingCache(java.util.Set.of(1));
        shards.cacheReady(firstWin);
        assertFalse(shards.owns(inOne));
        shards.cacheReady(secondWin);
        assertTrue(shards.owns(inOne));
        // Renewals of a held shard do not close the gate again.
        shards.renewed(1, 1);
        assertTrue(shards.owns(inOne));
        assertEquals(java.util.Map.of(), shards.awaitingCache(java.util.Set.of(1)));
    }

    @Test
    void shardZerosNamespacedKeysAreOwnedOnceItsObjectsAreCachedAndClusterScopedKeysOnlyOnceTheWholeIs() {
        Shards shards = new Shards(2, Long.MAX_VALUE, () -> 0);
        shards.gateOnCache();
        Request inZero = new Request(namespaceIn(0), "web");
        Request clusterScoped = new Request("", "sidecarset-a");
        shards.renewed(0, 0);
        assertEquals(Shards.CacheWait.ALL_KEYS, shards.cacheWait(0));
        java.util.Map<Integer, Long> win = shards.awaitingCache(Set.of(0));
        assertFalse(shards.owns(inZero));
        assertFalse(shards.owns(clusterScoped));

        shards.cacheReady(win);
        assertTrue(shards.owns(inZero), "shard 0's own objects are cached: its namespaced keys need nothing more");
        assertFalse(shards.owns(clusterScoped), "cluster-scoped keys wait for the kinds cached whole");
        assertEquals(Shards.CacheWait.CLUSTER_SCOPED_KEYS, shards.cacheWait(0));

        shards.wholeCacheReady(win);
        assertTrue(shards.owns(clusterScoped));
        assertTrue(shards.owns(inZero));
        assertEquals(Shards.CacheWait.NONE, shards.cacheWait(0));
        // Renewals do not close the gates again.
        shards.renewed(0, 1);
        assertTrue(shards.owns(clusterScoped));
    }

    @Test
    void shardZeroLostAndWonAgainDuringTheWholeFillWaitsForTheNewWinsStages() {
        Shards shards = new Shards(3, Long.MAX_VALUE, () -> 0);
        shards.gateOnCache();
        Request inZero = new Request(namespaceIn(0, 3), "web");
        Request inTwo = new Request(namespaceIn(2, 3), "web");
        Request clusterScoped = new Request("", "sidecarset-a");
        shards.renewed(2, 0);
        shards.cacheReady(shards.awaitingCache(Set.of(2)));
        shards.wholeCacheReady(shards.awaitingCache(Set.of(2)));
        assertTrue(shards.owns(inTwo));
        assertEquals(Shards.CacheWait.NONE, shards.cacheWait(2), "only shard 0 has cluster-scoped keys");

        shards.renewed(0, 0);
        java.util.Map<Integer, Long> first = shards.awaitingCache(Set.of(0));
        shards.cacheReady(first);
        assertTrue(shards.owns(inZero));
        // Lost while the whole fill of the first win runs, and shard 2 lost meanwhile too.
        shards.dropped(0);
        shards.dropped(2);
        assertFalse(shards.owns(inZero));
        assertFalse(shards.owns(clusterScoped));
        assertEquals(Shards.CacheWait.NONE, shards.cacheWait(0), "not held: nothing waits");
        shards.renewed(0, 0);
        java.util.Map<Integer, Long> second = shards.awaitingCache(Set.of(0));
        // The first win's stages complete late: neither opens anything of the second win.
        shards.wholeCacheReady(first);
        assertFalse(shards.owns(inZero));
        assertFalse(shards.owns(clusterScoped));
        assertFalse(shards.owns(inTwo));
        shards.cacheReady(second);
        assertTrue(shards.owns(inZero));
        assertFalse(shards.owns(clusterScoped));
        shards.wholeCacheReady(second);
        assertTrue(shards.owns(clusterScoped));
    }

    @Test
    void withoutTheCacheGateAShardIsOwnedAsSoonAsItIsHeld() {
        Shards shards = new Shards(2, Long.MAX_VALUE, () -> 0);
        shards.renewed(1, 0);
        assertTrue(shards.owns(new Request(namespaceIn(1), "web")));
        shards.renewed(0, 0);
        assertTrue(shards.owns(new Request("", "sidecarset-a")));
    }

    private static String namespaceIn(int shard) {
        return namespaceIn(shard, 2);
    }

    private static String namespaceIn(int shard, int count) {
        for (int i = 0; ; i++) {
            if (Shards.shardOf("ns-" + i, count) == shard) {
                return "ns-" + i;
            }
        }
    }
}
