package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;

/**
 * Hand-off latency: a producer paced at a fixed rate adds distinct keys; workers blocked in {@code take()}
 * receive them. Latency = time from the start of {@code add} to the return of {@code take} in the worker.
 * JMH does not report per-item latency percentiles of a cross-thread hand-off, hence a plain main.
 *
 * <p>Usage: {@code HandOffLatency [ratePerSecond=100000] [seconds=5] [workers=1]}
 */
public final class HandOffLatency {

    /** A key that carries its send time; distinct ids keep every key distinct. */
    record Stamped(long id, long sentAt) {
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        System.out.printf("hand-off latency: %d keys/s for %d s (+2 s warm-up), %d worker(s), metrics on%n",
                rate, seconds, workers);
        run(rate, 2, workers, false);
        Percentiles p = run(rate, seconds, workers, true);
        System.out.println("hand-off latency " + p.summaryMicros());
    }

    static Percentiles run(int rate, int seconds, int workers, boolean keep) throws InterruptedException {
        WorkQueue<Stamped> queue = MeteredQueues.create("handoff");
        int total = rate * seconds;
        ReceivingWorkers<Stamped> receivers = ReceivingWorkers.start(queue, workers, total, Stamped::sentAt);
        long interval = 1_000_000_000L / rate;
        long next = System.nanoTime();
        for (int i = 0; i < total; i++) {
            // Busy-wait pacing: sleeping cannot hit a 10 us period.
            while (System.nanoTime() < next) {
                Thread.onSpinWait();
            }
            queue.add(new Stamped(i, System.nanoTime()));
            next += interval;
        }
        receivers.awaitAll();
        receivers.stop();
        return keep ? new Percentiles(receivers.delays(), total) : null;
    }

    private HandOffLatency() {
    }
}
