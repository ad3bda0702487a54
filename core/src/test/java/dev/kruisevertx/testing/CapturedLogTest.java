package dev.kruisevertx.testing;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

class CapturedLogTest {
    private static final Logger LOG = LoggerFactory.getLogger(CapturedLogTest.class);

    private static String configuredLoggerName() {
        return ((LoggerContext) LogManager.getContext(false)).getConfiguration()
                .getLoggerConfig(CapturedLogTest.class.getName()).getName();
    }

    @Test
    void capturesWhileOpenAndRestoresTheConfigurationOnClose() {
        String before = configuredLoggerName();
        CapturedLog log = CapturedLog.of(CapturedLogTest.class);
        try (log) {
            LOG.info("one {}", "line");
            LOG.warn("with a trace", new IllegalStateException("x"));
            assertNotEquals(before, configuredLoggerName());
        }
        LOG.info("after close");

        List<CapturedLog.Line> lines = log.lines();
        assertEquals(2, lines.size(), lines.toString());
        assertEquals(Level.INFO, lines.get(0).level());
        assertEquals("one line", lines.get(0).message());
        assertNull(lines.get(0).thrown());
        assertNotNull(lines.get(1).thrown());
        assertEquals(1, log.containing("trace").size());
        assertEquals(before, configuredLoggerName(), "the logger configuration is as it was");
    }
}
