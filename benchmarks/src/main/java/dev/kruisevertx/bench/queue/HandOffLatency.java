package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Hand-off latency: a producer paced at a fixed rate adds distinct keys; workers blocked in {@code take()}
 * receive them. Latency = time from the start of {@code add} to the return of {@code take} in the worker.
 * JMH does not report per-item latency percentiles of a cross-thread hand-off, hence a plain main.
 *
 * <p>Pacing: {@code spin} busy-waits between keys (exact 10 us spacing at 100k/s, but the producer holds a
 * whole CPU); {@code park} parks until the next key is due ({@code LockSupport.parkNanos}), and since a park
 * cannot be much shorter than the kernel's timer slack (50 us by default on Linux) the keys then go out in small
 * bursts of those due, as from an informer's event handler. Each key is stamped when its {@code add} starts either way.
 *
 * <p>After the run it attributes the tail: keys slower than 100 us are checked against the JVM's safepoints
 * (GC pauses included) when it runs with {@code -Xlog:safepoint:file=F:uptimenanos}, and the scheduler's
 * counters of the producer and worker threads say how long they waited for a CPU (Linux
 * {@code /proc/thread-self/schedstat}).
 *
 * <p>Usage: {@code HandOffLatency [ratePerSecond=100000] [seconds=5] [workers=1] [park|spin]} (park by default)
 */
public final class HandOffLatency {

    /** Keys slower than this count as the tail being attributed (the p99 target). */
    private static final long SLOW_NANOS = 100_000;

    /** A key that carries its send time; distinct ids keep every key distinct. */
    record Stamped(long id, long sentAt) {
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        // Park by default: a busy-waiting producer holds one of the two vCPUs and its p99 is the harness's, not the
        // queue's (benchmarks/README.md, "Where the hand-off tail comes from"); spin only to compare with old figures.
        boolean park = args.length <= 3 || !args[3].equals("spin");
        System.out.printf("hand-off latency: %d keys/s for %d s (+2 s warm-up), %d worker(s), %s pacing, "
                + "metrics on%n", rate, seconds, workers, park ? "park" : "spin");
        SafepointLog log = SafepointLog.ofThisJvm();
        Run r = run(rate, 2, seconds, workers, park);
        System.out.println("hand-off latency " + new Percentiles(r.delays, r.delays.length).summaryMicros());
        r.attribute(log);
    }

    /**
     * One queue, one set of workers and one stream of keys: the first {@code warmUpSeconds} of keys warm up and
     * are not counted. Warm-up and measurement share the queue on purpose: shutting a warm-up queue down sends
     * its takers down the shutdown path for the first time, which deoptimises {@code take()} and the worker loop,
     * and the measured run then began in less optimised code with the JIT recompiling on one of the two CPUs.
     */
    static Run run(int rate, int warmUpSeconds, int seconds, int workers, boolean park) throws InterruptedException {
        WorkQueue<Stamped> queue = MeteredQueues.create("handoff");
        int warmUp = rate * warmUpSeconds;
        int total = warmUp + rate * seconds;
        ReceivingWorkers<Stamped> receivers = ReceivingWorkers.start(queue, workers, total, Stamped::sentAt);
        produce(queue, 0, warmUp, rate, park);
        long gcCount0 = gcCount();
        long gcMillis0 = gcMillis();
        long jitMillis0 = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        long cpu0 = processCpuNanos();
        SchedStat.Machine m0 = SchedStat.Machine.now();
        SchedStat producer0 = SchedStat.ofCurrentThread();
        SchedStat[] workers0 = receivers.schedNow();
        long[] workerAlloc0 = receivers.allocatedBytesNow();
        long producerAlloc0 = allocatedBytes();
        long start = System.nanoTime();
        long maxBehind = produce(queue, warmUp, total, rate, park);
        long sendNanos = System.nanoTime() - start;
        long producerAlloc = allocatedBytes() - producerAlloc0;
        SchedStat producer = SchedStat.ofCurrentThread().minus(producer0);
        receivers.awaitAll();
        long[] workerAlloc = receivers.allocatedBytesNow();
        long workersAlloc = 0;
        for (int i = 0; i < workerAlloc.length; i++) {
            workersAlloc += workerAlloc[i] - workerAlloc0[i];
        }
        SchedStat[] workerSched = receivers.schedNow();
        for (int i = 0; i < workerSched.length; i++) {
            workerSched[i] = workerSched[i].minus(workers0[i]);
        }
        SchedStat.Machine m1 = SchedStat.Machine.now();
        long cpu = processCpuNanos() - cpu0;
        long jitMillis = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitMillis0;
        receivers.stop();
        return new Run(Arrays.copyOfRange(receivers.delays(), warmUp, total),
                Arrays.copyOfRange(receivers.stamps(), warmUp, total), sendNanos, maxBehind, producer,
                workerSched, m0, m1, cpu, gcCount() - gcCount0, gcMillis() - gcMillis0, jitMillis,
                producerAlloc, workersAlloc);
    }

    /**
     * Adds keys {@code from} (inclusive) to {@code to} at {@code rate}; returns how far behind schedule it fell at
     * most. The warm-up and the measured keys go through this same method, so the loop compiled in the warm-up
     * is the one measured (a warm-up/measure branch inside one loop would deoptimise it at the switch).
     */
    private static long produce(WorkQueue<Stamped> queue, int from, int to, int rate, boolean park) {
        long interval = 1_000_000_000L / rate;
        long next = System.nanoTime();
        long maxBehind = 0;
        for (int i = from; i < to; i++) {
            long now;
            if (park) {
                while ((now = System.nanoTime()) < next) {
                    LockSupport.parkNanos(next - now);
                }
            } else {
                // Busy-wait pacing: sleeping cannot hit a 10 us period.
                while ((now = System.nanoTime()) < next) {
                    Thread.onSpinWait();
                }
            }
            maxBehind = Math.max(maxBehind, now - next);
            queue.add(new Stamped(i, System.nanoTime()));
            next += interval;
        }
        return maxBehind;
    }

    record Run(long[] delays, long[] stamps, long sendNanos, long maxBehindNanos, SchedStat producer,
               SchedStat[] workers, SchedStat.Machine m0, SchedStat.Machine m1, long processCpuNanos,
               long gcs, long gcMillis, long jitMillis, long producerAllocated, long workersAllocated) {

        void attribute(SafepointLog log) throws IOException {
            System.out.printf("producer: sent %d keys in %.3f s, at most %.1f us behind schedule; %s%n",
                    delays.length, sendNanos / 1e9, maxBehindNanos / 1e3, producer.describe());
            for (int i = 0; i < workers.length; i++) {
                System.out.printf("worker-%d: %s%n", i, workers[i].describe());
            }
            System.out.printf("allocated per key: producer %.1f bytes (the benchmark's key record included), "
                    + "workers %.1f bytes%n", (double) producerAllocated / delays.length, (double) workersAllocated / delays.length);
            long totalJiffies = m1.total() - m0.total();
            double hz = 100.0;
            double othersBusy = (m1.busy() - m0.busy()) / hz - processCpuNanos / 1e9;
            System.out.printf("machine during the run: this JVM %.2f CPU-s, everything else %.2f CPU-s, steal %.2f "
                            + "CPU-s (of %.1f CPU-s); GC: %d collections, %d ms; JIT: %d ms compiling%n",
                    processCpuNanos / 1e9, othersBusy, (m1.steal() - m0.steal()) / hz, totalJiffies / hz,
                    gcs, gcMillis, jitMillis);
            int slow = 0;
            int inGc = 0;
            int inOther = 0;
            List<SafepointLog.Pause> pauses = log == null ? List.of() : log.pauses();
            long[] clear = new long[delays.length];
            int clearCount = 0;
            for (int i = 0; i < delays.length; i++) {
                SafepointLog.Pause hit = overlapping(pauses, stamps[i], stamps[i] + delays[i]);
                if (hit == null) {
                    clear[clearCount++] = delays[i];
                }
                if (delays[i] <= SLOW_NANOS) {
                    continue;
                }
                slow++;
                if (hit != null && hit.isGc()) {
                    inGc++;
                } else if (hit != null) {
                    inOther++;
                }
            }
            System.out.printf("keys slower than %d us: %d (%.2f%%)", SLOW_NANOS / 1000, slow,
                    100.0 * slow / delays.length);
            if (log == null) {
                System.out.println("; run with -Xlog:safepoint:file=F:uptimenanos to check them against safepoints");
                return;
            }
            int sps = 0;
            long spNanos = 0;
            for (SafepointLog.Pause p : pauses) {
                if (p.endNanos() >= stamps[0] && p.startNanos() <= stamps[stamps.length - 1]) {
                    sps++;
                    spNanos += p.endNanos() - p.startNanos();
                }
            }
            System.out.printf("; overlapping a GC pause %d, another safepoint %d, no safepoint %d "
                            + "(%d safepoints, %.2f ms in the run; clock alignment within %.0f us)%n",
                    inGc, inOther, slow - inGc - inOther, sps, spNanos / 1e6, log.alignmentErrorNanos() / 1e3);
            System.out.println("keys overlapping no safepoint: " + new Percentiles(clear, clearCount).summaryMicros());
        }

        private static SafepointLog.Pause overlapping(List<SafepointLog.Pause> pauses, long from, long to) {
            for (SafepointLog.Pause p : pauses) {
                if (p.startNanos() <= to && p.endNanos() >= from) {
                    return p;
                }
            }
            return null;
        }
    }

    /** Bytes the calling thread has allocated so far (HotSpot's per-thread counter; 0 where unsupported). */
    private static long allocatedBytes() {
        var mx = ManagementFactory.getThreadMXBean();
        return mx instanceof com.sun.management.ThreadMXBean sun ? sun.getCurrentThreadAllocatedBytes() : 0;
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static long gcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
    }

    private static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    private HandOffLatency() {
    }
}
