package dev.kruisevertx.bench.queue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The safepoints (GC pauses included) of this JVM's own {@code -Xlog:safepoint:file=...:uptimenanos} log, on
 * the {@code System.nanoTime()} clock, so that slow samples can be checked against the pauses they overlap.
 *
 * <p>The log's uptime clock is aligned to {@code System.nanoTime()} with a safepoint the benchmark triggers
 * itself (a thread dump) between two clock reads: the alignment error is at most that bracket, printed.
 */
final class SafepointLog {

    /** One safepoint, as an interval on the System.nanoTime() clock. */
    record Pause(String operation, long startNanos, long endNanos) {
        boolean isGc() {
            return operation.contains("G1") || operation.contains("GC") || operation.contains("Collect")
                    || operation.matches("Z[A-Z].*") || operation.contains("Parallel");
        }
    }

    private static final Pattern LINE = Pattern.compile(
            "^\\[(\\d+)ns\\].*Safepoint \"([^\"]+)\".*Total: (\\d+) ns");

    private final Path file;
    private final long offsetNanos;
    private final long alignmentErrorNanos;

    private SafepointLog(Path file, long offsetNanos, long alignmentErrorNanos) {
        this.file = file;
        this.offsetNanos = offsetNanos;
        this.alignmentErrorNanos = alignmentErrorNanos;
    }

    /**
     * The log file named by an {@code -Xlog:safepoint...:file=X:uptimenanos} option of this JVM, aligned now;
     * null when the JVM was started without one.
     */
    static SafepointLog ofThisJvm() throws IOException {
        Path file = null;
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-Xlog:") && arg.contains("safepoint") && arg.contains("uptimenanos")) {
                Matcher m = Pattern.compile("file=([^:]+)").matcher(arg);
                if (m.find()) {
                    file = Path.of(m.group(1));
                }
            }
        }
        if (file == null) {
            return null;
        }
        int before = pauses(file, 0).size();
        long t0 = System.nanoTime();
        ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
        long t1 = System.nanoTime();
        List<Pause> all = pauses(file, 0);
        for (int i = all.size() - 1; i >= before; i--) {
            if (all.get(i).operation().equals("ThreadDump")) {
                // The log line is written as the safepoint ends, which lies between t0 and t1.
                return new SafepointLog(file, t1 - all.get(i).endNanos(), t1 - t0);
            }
        }
        return null;
    }

    long alignmentErrorNanos() {
        return alignmentErrorNanos;
    }

    /** Safepoints logged so far, on the System.nanoTime() clock. */
    List<Pause> pauses() throws IOException {
        return pauses(file, offsetNanos);
    }

    private static List<Pause> pauses(Path file, long offset) throws IOException {
        List<Pause> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            Matcher m = LINE.matcher(line);
            if (m.find()) {
                long end = Long.parseLong(m.group(1)) + offset;
                out.add(new Pause(m.group(2), end - Long.parseLong(m.group(3)), end));
            }
        }
        return out;
    }
}
