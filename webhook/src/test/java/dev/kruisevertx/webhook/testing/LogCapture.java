package dev.kruisevertx.webhook.testing;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Property;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Records what is logged at INFO and above (all loggers) while open, to assert on errors and stack traces. */
public final class LogCapture extends AbstractAppender implements AutoCloseable {
    private final List<LogEvent> events = new ArrayList<>();

    private LogCapture() {
        super("capture-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
    }

    public static LogCapture open() {
        LogCapture capture = new LogCapture();
        capture.start0();
        return capture;
    }

    private void start0() {
        start();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        config.getRootLogger().addAppender(this, Level.INFO, null);
        ctx.updateLoggers();
    }

    @Override
    public synchronized void append(LogEvent event) {
        events.add(event.toImmutable());
    }

    /** Events at WARN or above, or carrying a throwable. */
    public synchronized List<String> problems() {
        return events.stream()
                .filter(e -> e.getLevel().isMoreSpecificThan(Level.WARN) || e.getThrown() != null)
                .map(e -> e.getLevel() + " " + e.getLoggerName() + ": " + e.getMessage().getFormattedMessage()
                        + (e.getThrown() == null ? "" : " [" + e.getThrown() + "]"))
                .collect(Collectors.toList());
    }

    /** Every message recorded so far. */
    public synchronized List<String> messages() {
        return events.stream().map(e -> e.getLevel() + " " + e.getMessage().getFormattedMessage())
                .collect(Collectors.toList());
    }

    @Override
    public void close() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        ctx.getConfiguration().getRootLogger().removeAppender(getName());
        ctx.updateLoggers();
        stop();
    }
}
