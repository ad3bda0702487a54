package dev.kruisevertx.bench.queue;

import java.util.Arrays;

/** Exact percentiles of a batch of nanosecond samples (sorted once; the batches here are at most a few M). */
final class Percentiles {

    private final long[] sorted;

    Percentiles(long[] samples, int count) {
        this.sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
    }

    long at(double percentile) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    String summaryMicros() {
        return String.format("n=%d p50=%.1f us p90=%.1f us p99=%.1f us p99.9=%.1f us max=%.1f us",
                sorted.length, at(50) / 1e3, at(90) / 1e3, at(99) / 1e3, at(99.9) / 1e3, at(100) / 1e3);
    }

    String summaryMillis() {
        return String.format("n=%d p50=%.2f ms p90=%.2f ms p99=%.2f ms max=%.2f ms",
                sorted.length, at(50) / 1e6, at(90) / 1e6, at(99) / 1e6, at(100) / 1e6);
    }
}
