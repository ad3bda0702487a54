package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodOrdinalsTest {
    @Test
    void v07Examples() {
        assertEquals(List.of(0, 2, 3, 4), PodOrdinals.desired(4, 0, Set.of(1)));
        assertEquals(List.of(0, 2, 4, 5), PodOrdinals.desired(4, 0, Set.of(1, 3)));
        assertEquals(List.of(0, 2, 4), PodOrdinals.desired(3, 0, Set.of(1, 3)));
    }

    @Test
    void startOrdinalShiftsTheRange() {
        assertEquals(List.of(5, 6, 7), PodOrdinals.desired(3, 5, Set.of()));
        assertEquals(List.of(5, 7, 8), PodOrdinals.desired(3, 5, Set.of(6, 2)));
        assertEquals(List.of(), PodOrdinals.desired(0, 5, Set.of()));
    }

    @Test
    void reservedAcceptsIntsNumericStringsAndRanges() {
        assertEquals(Set.of(1, 3, 4, 5, 9), PodOrdinals.reserved(List.of(new IntOrString(1), new IntOrString("3-5"),
                new IntOrString("9"), new IntOrString(" 4 - 4 "))));
        assertEquals(Set.of(), PodOrdinals.reserved(null));
    }

    @Test
    void badReservedEntriesAreNamed() {
        for (String bad : List.of("a", "5-3", "1-", "-1", "1-2-3")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PodOrdinals.reserved(List.of(new IntOrString(bad))));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> PodOrdinals.reserved(List.of(new IntOrString(-2))));
        assertThrows(IllegalArgumentException.class, () -> PodOrdinals.reserved(List.of(new IntOrString("0-99999999"))));
    }

    @Test
    void aRangeEndingAtTheLargestOrdinalEnds() {
        int max = Integer.MAX_VALUE;
        assertEquals(Set.of(max - 1, max), PodOrdinals.reserved(List.of(new IntOrString((max - 1) + "-" + max))));
    }

    @Test
    void theReservedTotalIsBoundedAcrossEntries() {
        List<IntOrString> many = List.of(new IntOrString("0-599999"), new IntOrString("1000000-1599999"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PodOrdinals.reserved(many));
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
