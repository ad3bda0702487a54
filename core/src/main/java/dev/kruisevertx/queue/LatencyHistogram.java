package dev.kruisevertx.queue;

/**
 * A fixed-bucket histogram of nanosecond durations with controller-runtime's workqueue buckets (10 ns times
 * powers of ten up to 1000 s, then +Inf). Plain fields, no synchronisation: the queue updates and reads it
 * under its own lock, which makes a recording cost a few comparisons and three increments.
 */
final class LatencyHistogram {

    /** Inclusive upper bounds in nanoseconds; the last bucket (+Inf) is implicit. */
    static final long[] BOUNDS_NANOS = bounds();
    static final double[] BOUNDS_SECONDS = boundsSeconds();

    private final long[] counts = new long[BOUNDS_NANOS.length + 1];
    private long count;
    private long sumNanos;

    void record(long nanos) {
        long v = Math.max(0, nanos);
        int i = 0;
        while (i < BOUNDS_NANOS.length && v > BOUNDS_NANOS[i]) {
            i++;
        }
        counts[i]++;
        count++;
        sumNanos += v;
    }

    long count() {
        return count;
    }

    double sumSeconds() {
        return sumNanos / 1e9;
    }

    /** Per-bucket (not cumulative) counts, the last one for +Inf. */
    long[] bucketCounts() {
        return counts.clone();
    }

    private static long[] bounds() {
        long[] b = new long[12];
        long v = 10;
        for (int i = 0; i < b.length; i++) {
            b[i] = v;
            v *= 10;
        }
        return b;
    }

    private static double[] boundsSeconds() {
        double[] s = new double[13];
        double v = 1e-8;
        for (int i = 0; i < 12; i++) {
            s[i] = v;
            v *= 10;
        }
        s[12] = Double.POSITIVE_INFINITY;
        return s;
    }
}
