package dev.kruisevertx.testing;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Records what one class logs (through SLF4J, on log4j2 in tests), for tests of what is logged and how:
 * {@code try (CapturedLog log = CapturedLog.of(Foo.class)) {...}}.
 */
public final class CapturedLog extends AbstractAppender implements AutoCloseable {
    /** One logged event: its level, formatted message and whether it carried a throwable (a stack trace). */
    public record Line(Level level, String message, Throwable thrown) {
        @Override
        public String toString() {
            return level + " " + message + (thrown == null ? "" : " [" + thrown.getClass().getSimpleName() + "]");
        }
    }

    private final Logger logger;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    private CapturedLog(Logger logger) {
        super("captured-" + logger.getName(), null, null, true, Property.EMPTY_ARRAY);
        this.logger = logger;
    }

    public static CapturedLog of(Class<?> source) {
        CapturedLog log = new CapturedLog((Logger) LogManager.getLogger(source));
        log.start();
        log.logger.addAppender(log);
        return log;
    }

    @Override
    public void append(LogEvent event) {
        lines.add(new Line(event.getLevel(), event.getMessage().getFormattedMessage(), event.getThrown()));
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The lines whose message contains {@code text}. */
    public List<Line> containing(String text) {
        return lines.stream().filter(l -> l.message().contains(text)).collect(Collectors.toList());
    }

    @Override
    public void close() {
        logger.removeAppender(this);
        stop();
    }
}
