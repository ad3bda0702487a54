package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodOrdinalsTest {
    static List<Integer> desired(int replicas, int start, Set<Integer> reserved) {
        List<Integer> out = new ArrayList<>();
        DesiredOrdinals.ofReserved(replicas, start, reserved).forEach(out::add);
        return out;
    }

    @Test
    void v07Examples() {
        assertEquals(List.of(0, 2, 3, 4), desired(4, 0, Set.of(1)));
        assertEquals(List.of(0, 2, 4, 5), desired(4, 0, Set.of(1, 3)));
        assertEquals(List.of(0, 2, 4), desired(3, 0, Set.of(1, 3)));
    }

    @Test
    void startOrdinalShiftsTheRange() {
        assertEquals(List.of(5, 6, 7), desired(3, 5, Set.of()));
        assertEquals(List.of(5, 7, 8), desired(3, 5, Set.of(6, 2)));
        assertEquals(List.of(), desired(0, 5, Set.of()));
    }

    @Test
    void reservedAcceptsIntsNumericStringsAndRanges() {
        assertEquals(List.of(new OrdinalRange(1, 1), new OrdinalRange(3, 5), new OrdinalRange(9, 9)),
                PodOrdinals.reservedRanges(List.of(new IntOrString(1), new IntOrString("3-5"), new IntOrString("9"),
                        new IntOrString(" 4 - 4 "))));
        assertEquals(List.of(), PodOrdinals.reservedRanges(null));
        // Overlapping and touching entries become one range.
        assertEquals(List.of(new OrdinalRange(2, 8)), PodOrdinals.reservedRanges(List.of(new IntOrString("5-8"),
                new IntOrString("2-4"), new IntOrString(6))));
    }

    @Test
    void badReservedEntriesAreNamed() {
        for (String bad : List.of("a", "5-3", "1-", "-1", "1-2-3")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PodOrdinals.reservedRanges(List.of(new IntOrString(bad))));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> PodOrdinals.reservedRanges(List.of(new IntOrString(-2))));
        assertThrows(IllegalArgumentException.class, () -> PodOrdinals.reservedRanges(List.of(new IntOrString("0-99999999"))));
    }

    @Test
    void aRangeEndingAtTheLargestOrdinalEnds() {
        int max = Integer.MAX_VALUE;
        assertEquals(List.of(new OrdinalRange(max - 1, max)),
                PodOrdinals.reservedRanges(List.of(new IntOrString((max - 1) + "-" + max))));
    }

    @Test
    void theReservedTotalIsBoundedAcrossEntries() {
        List<IntOrString> many = List.of(new IntOrString("0-599999"), new IntOrString("1000000-1599999"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PodOrdinals.reservedRanges(many));
        assertTrue(e.getMessage().contains("more than " + PodOrdinals.MAX_RANGE), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PodOrdinals.checkReserved(many));
        assertEquals(7, PodOrdinals.checkReserved(List.of(new IntOrString(1), new IntOrString("10-15"))));
        assertThrows(IllegalArgumentException.class,
                () -> PodOrdinals.checkReserved(List.of(new IntOrString("99999999999999999999"))));
        assertThrows(IllegalArgumentException.class,
                () -> PodOrdinals.checkReserved(List.of(new IntOrString("\u0665"))));
    }

    @Test
    void ordinalsAreAsciiDigits() {
        assertEquals(-1, PodOrdinals.ordinalOf("web", "web-\u0665"));
    }

    @Test
    void ordinalsReachTheLargestInt() {
        int max = Integer.MAX_VALUE;
        assertEquals(max, PodOrdinals.ordinalOf("web", PodOrdinals.podName("web", max)));
        assertEquals(1_000_000_000, PodOrdinals.ordinalOf("web", "web-1000000000"));
        assertEquals(-1, PodOrdinals.ordinalOf("web", "web-2147483648"));
        assertEquals(-1, PodOrdinals.ordinalOf("web", "web-9999999999"));
        assertEquals(-1, PodOrdinals.ordinalOf("web", "web-10000000000"));
    }

    @Test
    void ordinalOfParsesOnlyThisSetsPods() {
        assertEquals(3, PodOrdinals.ordinalOf("web", "web-3"));
        assertEquals(12, PodOrdinals.ordinalOf("web", "web-12"));
        assertEquals(-1, PodOrdinals.ordinalOf("web", "web-x"));
        assertEquals(-1, PodOrdinals.ordinalOf("web", "web-01"));
        assertEquals(-1, PodOrdinals.ordinalOf("web", "webapp-1"));
        assertEquals(-1, PodOrdinals.ordinalOf("web", "web-"));
        assertEquals(1, PodOrdinals.ordinalOf("web-1", "web-1-1"));
        assertEquals("data-web-2", PodOrdinals.claimName("data", "web", 2));
    }
}
