package dev.kruisevertx.api.common;

import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntOrPercentTest {
    @ParameterizedTest(name = "{0} of {1}: up {2}, down {3}")
    @CsvSource({
            "20%, 10, 2, 2",
            "20%, 11, 3, 2",
            "20%, 4, 1, 0",
            "0%, 10, 0, 0",
            "100%, 7, 7, 7",
            "50%, 1, 1, 0",
            "33%, 100, 33, 33",
            "1%, 0, 0, 0",
            "150%, 10, 15, 15",
    })
    void percentagesRoundAsRequested(String value, int total, int up, int down) {
        assertEquals(up, IntOrPercent.scaledValue(new IntOrString(value), total, true));
        assertEquals(down, IntOrPercent.scaledValue(new IntOrString(value), total, false));
    }

    @Test
    void integersAndNullAreTakenAsIs() {
        assertEquals(3, IntOrPercent.scaledValue(new IntOrString(3), 100, true));
        assertEquals(3, IntOrPercent.scaledValue(new IntOrString(3), 1, false));
        assertEquals(0, IntOrPercent.scaledValue(null, 10, true));
        assertFalse(IntOrPercent.isPercent(new IntOrString(3)));
        assertTrue(IntOrPercent.isPercent(new IntOrString("3%")));
    }

    @Test
    void malformedStringsAreRejectedWithTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IntOrPercent.validate(new IntOrString("abc"), "spec.updateStrategy.partition"));
        assertTrue(e.getMessage().startsWith("spec.updateStrategy.partition: invalid value \"abc\""), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IntOrPercent.scaledValue(new IntOrString("5"), 10, true));
        assertThrows(IllegalArgumentException.class, () -> IntOrPercent.scaledValue(new IntOrString("x%"), 10, true));
        IntOrPercent.validate(new IntOrString("30%"), "ok");
        IntOrPercent.validate(new IntOrString(4), "ok");
    }

    @Test
    void onlyAsciiDigitsFollowedByPercentAreAPercentage() {
        // Java's Integer.parseInt would read Arabic-Indic digits and signs; Kubernetes' [0-9]+% does not.
        for (String bad : List.of("\u0665\u0660%", "+5%", "-5%", "5.5%", " 5%", "5 %", "%", "1e2%", "\uFF15%")) {
            assertThrows(IllegalArgumentException.class, () -> IntOrPercent.percent(bad), bad);
        }
        assertEquals(50, IntOrPercent.percent("050%"));
    }

    @Test
    void overflowingPercentagesAreRejectedNotWrapped() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IntOrPercent.scaledValue(new IntOrString("99999999999999999999%"), 10, true));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
        assertEquals(Integer.MAX_VALUE, IntOrPercent.percent(Integer.MAX_VALUE + "%"));
        // A legal but huge percentage of a large total saturates instead of turning negative.
        assertEquals(Integer.MAX_VALUE,
                IntOrPercent.scaledValue(new IntOrString(Integer.MAX_VALUE + "%"), Integer.MAX_VALUE, true));
    }

    @Test
    void messagesQuoteOnlyTheStartOfAHugeValue() {
        String huge = "x".repeat(100_000) + "%";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IntOrPercent.percent(huge));
        assertTrue(e.getMessage().length() < 200, e.getMessage());
    }
}
