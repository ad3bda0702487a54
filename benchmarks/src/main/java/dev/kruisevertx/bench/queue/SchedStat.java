package dev.kruisevertx.bench.queue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Linux scheduler counters, to tell time a thread spent waiting for a CPU (runnable but not running: wake-up
 * latency and preemption) from time the queue itself cost. Read outside any measured loop; each read allocates.
 */
record SchedStat(long runNanos, long runQueueWaitNanos, long slices, long involuntarySwitches) {

    static final SchedStat NONE = new SchedStat(0, 0, 0, 0);

    /** The calling thread's counters, or {@link #NONE} where /proc/thread-self is not readable. */
    static SchedStat ofCurrentThread() {
        return of(Path.of("/proc/thread-self"));
    }

    /** The calling thread's /proc directory (/proc/PID/task/TID), for other threads to read its counters. */
    static Path currentThreadDir() {
        try {
            return Path.of("/proc").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The counters of the thread whose /proc directory is {@code dir}, or {@link #NONE}. */
    static SchedStat of(Path dir) {
        if (dir == null) {
            return NONE;
        }
        try {
            String[] f = Files.readString(dir.resolve("schedstat")).trim().split("\\s+");
            long involuntary = 0;
            for (String line : Files.readAllLines(dir.resolve("status"))) {
                if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                    involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return new SchedStat(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), involuntary);
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    SchedStat minus(SchedStat before) {
        return new SchedStat(runNanos - before.runNanos, runQueueWaitNanos - before.runQueueWaitNanos,
                slices - before.slices, involuntarySwitches - before.involuntarySwitches);
    }

    String describe() {
        return String.format("on CPU %.1f ms, waiting for a CPU %.2f ms in %d slices (%.1f us per slice), "
                        + "%d involuntary switches", runNanos / 1e6, runQueueWaitNanos / 1e6, slices,
                slices == 0 ? 0.0 : runQueueWaitNanos / 1e3 / slices, involuntarySwitches);
    }

    /** Whole-machine jiffies from /proc/stat: busy (user+nice+system+irq+softirq), steal, total. */
    record Machine(long busy, long steal, long total) {
        static Machine now() {
            try {
                List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
                String[] f = lines.get(0).trim().split("\\s+");
                long user = Long.parseLong(f[1]);
                long nice = Long.parseLong(f[2]);
                long system = Long.parseLong(f[3]);
                long idle = Long.parseLong(f[4]);
                long iowait = Long.parseLong(f[5]);
                long irq = Long.parseLong(f[6]);
                long softirq = Long.parseLong(f[7]);
                long steal = Long.parseLong(f[8]);
                long busy = user + nice + system + irq + softirq;
                return new Machine(busy, steal, busy + idle + iowait + steal);
            } catch (IOException | RuntimeException e) {
                return new Machine(0, 0, 0);
            }
        }
    }
}
