package dev.kruisevertx.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GoDurationTest {
    @ParameterizedTest
    @CsvSource({
            "5ms, 5000000",
            "1000s, 1000000000000",
            "2m, 120000000000",
            "1h30m, 5400000000000",
            "1.5s, 1500000000",
            "0, 0",
            "300us, 300000",
            "10ns, 10",
            "-2s, -2000000000"
    })
    void parsesGoForms(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), GoDuration.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "abc", "5 s", "1x", "s", "1h-30m", ""})
    void rejectsWithAMessageThatShowsTheForm(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
        assertTrue(e.getMessage().contains("duration"), e.getMessage());
    }

    @Test
    void formatsWholeUnits() {
        assertEquals("5ms", GoDuration.format(Duration.ofMillis(5)));
        assertEquals("2m", GoDuration.format(Duration.ofMinutes(2)));
        assertEquals("1000s", GoDuration.format(Duration.ofSeconds(1000)));
        assertEquals("1h", GoDuration.format(Duration.ofHours(1)));
        assertEquals("0s", GoDuration.format(Duration.ZERO));
    }
}
