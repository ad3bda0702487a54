package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DesiredOrdinalsTest {
    static final int MAX = Integer.MAX_VALUE;

    /** What the ordinals are by definition: walk from the start, skipping reserved ones, until there are enough. */
    static List<Integer> listed(int replicas, int start, Set<Integer> reserved) {
        List<Integer> out = new ArrayList<>();
        for (int ordinal = start; out.size() < replicas; ordinal++) {
            if (!reserved.contains(ordinal)) {
                out.add(ordinal);
            }
        }
        return out;
    }

    static List<Integer> first(DesiredOrdinals d, int n) {
        List<Integer> out = new ArrayList<>();
        PrimitiveIterator.OfInt it = d.iterator();
        while (it.hasNext() && out.size() < n) {
            out.add(it.nextInt());
        }
        return out;
    }

    @Test
    void everyQuestionAgreesWithTheListedOrdinals() {
        Random random = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            int replicas = random.nextInt(30);
            int start = random.nextInt(4) == 0 ? 0 : random.nextInt(20);
            Set<Integer> reserved = new TreeSet<>();
            for (int i = random.nextInt(8); i > 0; i--) {
                reserved.add(random.nextInt(60));
            }
            List<Integer> want = listed(replicas, start, reserved);
            DesiredOrdinals d = DesiredOrdinals.ofReserved(replicas, start, reserved);
            String what = replicas + " from " + start + " without " + reserved;
            assertEquals(want, first(d, replicas + 1), what);
            assertEquals(replicas, d.size(), what);
            for (int k = 0; k < replicas; k++) {
                assertEquals(want.get(k), d.get(k), what + " #" + k);
            }
            for (int ordinal = -1; ordinal < 100; ordinal++) {
                assertEquals(want.contains(ordinal), d.contains(ordinal), what + " contains " + ordinal);
                int from = ordinal;
                assertEquals(want.stream().filter(o -> o >= from).count(), d.countFrom(ordinal), what + " from " + ordinal);
            }
            if (replicas > 0) {
                assertEquals(want.get(0), d.first(), what);
                assertEquals(want.get(replicas - 1), d.last(), what);
            }
        }
    }

    @Test
    void theLargestReplicasCostNothingToAskAbout() {
        DesiredOrdinals d = DesiredOrdinals.of(MAX, 0, List.of());
        assertEquals(MAX, d.size());
        assertEquals(MAX - 1, d.last());
        assertTrue(d.contains(MAX - 1));
        assertFalse(d.contains(MAX));
        assertEquals(MAX - 1, d.get(MAX - 1));
        assertEquals(List.of(0, 1, 2), first(d, 3));
        assertEquals(MAX - 1_000L, d.countFrom(1_000));
        assertEquals("[0-2147483646] (2147483647 in all)", d.toString());
    }

    @Test
    void reservedRangesNearTheEndOfTheIntRange() {
        // 1,000,000 ordinals reserved (the most validation allows) just below the top, the rest run up to MAX.
        int lo = MAX - 1_000_098;
        int hi = MAX - 100;
        List<IntOrString> reserve = List.of(new IntOrString(lo + "-" + hi), new IntOrString(5));
        int replicas = MAX - 10 + 1 - (hi - lo + 1);
        DesiredOrdinals d = DesiredOrdinals.of(replicas, 10, reserve);
        assertEquals(MAX, d.last());
        assertEquals(replicas, d.size());
        assertTrue(d.contains(lo - 1));
        assertFalse(d.contains(lo));
        assertFalse(d.contains(hi));
        assertTrue(d.contains(hi + 1));
        assertEquals(hi + 1, d.get(replicas - 100));
        assertEquals(100, d.countFrom(lo));
        assertEquals("[10-" + (lo - 1) + ", " + (hi + 1) + "-" + MAX + "] (" + replicas + " in all)", d.toString());
        // One more replica would pass the top.
        assertThrows(IllegalArgumentException.class, () -> DesiredOrdinals.of(replicas + 1, 10, reserve));

        // ordinals.start at the very end: one pod, ordinal MAX.
        DesiredOrdinals last = DesiredOrdinals.of(1, MAX, List.of());
        assertEquals(List.of(MAX), first(last, 5));
        assertEquals("[2147483647]", last.toString());
        // A reserved run at the start shifts the first ordinal.
        DesiredOrdinals shifted = DesiredOrdinals.of(2, MAX - 3, List.of(new IntOrString((MAX - 3) + "-" + (MAX - 2))));
        assertEquals(List.of(MAX - 1, MAX), first(shifted, 5));
        assertEquals(MAX - 1, shifted.first());
    }

    @Test
    void ordinalsPastTheIntRangeAreRefused() {
        assertEquals(MAX, DesiredOrdinals.of(MAX, 1, List.of()).last());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DesiredOrdinals.of(MAX, 2, List.of()));
        assertTrue(e.getMessage().contains("pass " + MAX), e.getMessage());
        // One reserved ordinal below the top still fits (the last pod is MAX); two do not.
        assertEquals(MAX, DesiredOrdinals.of(MAX, 0, List.of(new IntOrString(3))).last());
        assertThrows(IllegalArgumentException.class,
                () -> DesiredOrdinals.of(MAX, 0, List.of(new IntOrString(3), new IntOrString(7))));
        assertThrows(IllegalArgumentException.class, () -> DesiredOrdinals.of(2, MAX, List.of()));
        // Reserved ordinals below the start take nothing away.
        assertEquals(MAX - 4L, DesiredOrdinals.of(MAX - 4, 4, List.of(new IntOrString("0-3"))).size());
        assertThrows(IllegalArgumentException.class, () -> DesiredOrdinals.of(-1, 0, List.of()));
        assertThrows(IllegalArgumentException.class, () -> DesiredOrdinals.of(1, -1, List.of()));
        assertThrows(IllegalArgumentException.class, () -> DesiredOrdinals.of(1, 0, List.of(new IntOrString("x"))));
    }

    @Test
    void manyHolesAreAbbreviated() {
        List<IntOrString> reserve = new ArrayList<>();
        for (int i = 1; i < 40; i += 2) {
            reserve.add(new IntOrString(i));
        }
        DesiredOrdinals d = DesiredOrdinals.of(30, 0, reserve);
        assertEquals("[0, 2, 4, 6, 8, 10, 12, 14, 16, 18, ...] (30 in all)", d.toString());
        assertEquals("[]", DesiredOrdinals.range(0, 5).toString());
        assertTrue(DesiredOrdinals.range(0, 5).isEmpty());
        assertFalse(DesiredOrdinals.range(0, 5).iterator().hasNext());
    }
}
