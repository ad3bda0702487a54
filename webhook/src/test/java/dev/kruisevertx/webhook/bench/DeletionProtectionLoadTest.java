package dev.kruisevertx.webhook.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load command runs end to end at a low rate: every answer is the refusal (it throws otherwise) and it reports. */
class DeletionProtectionLoadTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aShortRunRefusesEveryDeleteAndPrintsPercentiles() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            DeletionProtectionLoad.main(new String[]{"40", "1", "0", "25"});
        } finally {
            System.setOut(original);
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("refused CloneSet DELETE (Always) over HTTPS on loopback: target 40 req/s for 1 s, "
                + "40 requests, 0 failed"), report);
        assertTrue(report.contains("refused namespace DELETE (Cascading, 25 cached pods counted on a worker)"), report);
        assertTrue(report.contains("p99 "), report);
    }
}
