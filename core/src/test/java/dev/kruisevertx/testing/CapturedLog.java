package dev.kruisevertx.testing;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Records what one class logs (through SLF4J, on log4j2 in tests), for tests of what is logged and how:
 * {@code try (CapturedLog log = CapturedLog.of(Foo.class)) {...}}. What is logged still reaches the configured
 * appenders too, and closing restores the logger configuration as it was.
 */
public final class CapturedLog extends AbstractAppender implements AutoCloseable {
    /**
     * One logged event: its level, formatted message, whether it carried a throwable (a stack trace) and its context
     * data (MDC, e.g. the reconcile id), as the layouts print them.
     */
    public record Line(Level level, String message, Throwable thrown, java.util.Map<String, String> context) {
        public Line(Level level, String message, Throwable thrown) {
            this(level, message, thrown, java.util.Map.of());
        }

        @Override
        public String toString() {
            return level + " " + message + (thrown == null ? "" : " [" + thrown.getClass().getSimpleName() + "]");
        }
    }

    private final LoggerContext context;
    private final String loggerName;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private LoggerConfig attachedTo;
    private boolean createdConfig;

    private CapturedLog(LoggerContext context, String loggerName) {
        super("captured-" + loggerName + "-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
        this.context = context;
        this.loggerName = loggerName;
    }

    public static CapturedLog of(Class<?> source) {
        CapturedLog log = new CapturedLog((LoggerContext) LogManager.getContext(false), source.getName());
        log.start();
        log.attach();
        return log;
    }

    private synchronized void attach() {
        Configuration config = context.getConfiguration();
        LoggerConfig current = config.getLoggerConfig(loggerName);
        if (current.getName().equals(loggerName)) {
            attachedTo = current;
        } else {
            // A config of its own for the class, additive so the usual appenders still get everything (the root
            // config's additivity, which log4j's Logger.addAppender would copy, is false).
            attachedTo = new LoggerConfig(loggerName, current.getLevel(), true);
            config.addLogger(loggerName, attachedTo);
            createdConfig = true;
        }
        attachedTo.addAppender(this, null, null);
        context.updateLoggers();
    }

    @Override
    public void append(LogEvent event) {
        lines.add(new Line(event.getLevel(), event.getMessage().getFormattedMessage(), event.getThrown(),
                java.util.Collections.unmodifiableMap(new java.util.HashMap<>(event.getContextData().toMap()))));
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The lines whose message contains {@code text}. */
    public List<Line> containing(String text) {
        return lines.stream().filter(l -> l.message().contains(text)).collect(Collectors.toList());
    }

    @Override
    public synchronized void close() {
        if (attachedTo != null) {
            attachedTo.removeAppender(getName());
            if (createdConfig) {
                context.getConfiguration().removeLogger(loggerName);
            }
            context.updateLoggers();
            attachedTo = null;
        }
        stop();
    }
}
