package dev.kruisevertx.sim.faults;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The rates (0..1, per request) at which {@link FaultProxy} injects each {@link FaultClass}, and the durations the
 * time-based faults use. Rates of write-only faults apply to writes, watch faults to watches; the rest to every
 * request. The sum of the rates that apply to one request must not exceed 1.
 */
public final class FaultPlan {
    private final Map<FaultClass, Double> rates = new EnumMap<>(FaultClass.class);
    private Duration slowDelay = Duration.ofMillis(500);
    private Duration timeoutHold = Duration.ofSeconds(3);
    private Duration watchDropAfterMax = Duration.ofSeconds(3);
    private int retryAfterSeconds = 1;

    /** No faults: the proxy forwards everything. */
    public static FaultPlan none() {
        return new FaultPlan();
    }

    /** Only {@code fault}, at {@code rate}. */
    public static FaultPlan only(FaultClass fault, double rate) {
        return new FaultPlan().rate(fault, rate);
    }

    public FaultPlan rate(FaultClass fault, double rate) {
        if (fault == FaultClass.PARTITION) {
            throw new IllegalArgumentException("partitions are started with FaultProxy.partition(duration), not a rate");
        }
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("the rate of " + fault + " must be between 0 and 1, got " + rate);
        }
        rates.put(fault, rate);
        return this;
    }

    public double rate(FaultClass fault) {
        return rates.getOrDefault(fault, 0.0);
    }

    /** The most a slow answer is delayed (each one is delayed by a random part of it, at least a tenth). */
    public FaultPlan slowDelay(Duration d) {
        this.slowDelay = positive(d, "slow delay");
        return this;
    }

    public Duration slowDelay() {
        return slowDelay;
    }

    /** How long a timed-out request is held before its connection is closed. */
    public FaultPlan timeoutHold(Duration d) {
        this.timeoutHold = positive(d, "timeout hold");
        return this;
    }

    public Duration timeoutHold() {
        return timeoutHold;
    }

    /** A dropped watch is cut after a random time up to this. */
    public FaultPlan watchDropAfterMax(Duration d) {
        this.watchDropAfterMax = positive(d, "watch drop time");
        return this;
    }

    public Duration watchDropAfterMax() {
        return watchDropAfterMax;
    }

    public FaultPlan retryAfterSeconds(int seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("Retry-After must not be negative, got " + seconds);
        }
        this.retryAfterSeconds = seconds;
        return this;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public FaultPlan copy() {
        FaultPlan p = new FaultPlan();
        p.rates.putAll(rates);
        p.slowDelay = slowDelay;
        p.timeoutHold = timeoutHold;
        p.watchDropAfterMax = watchDropAfterMax;
        p.retryAfterSeconds = retryAfterSeconds;
        return p;
    }

    private static Duration positive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("the " + what + " must be positive, got " + d);
        }
        return d;
    }

    @Override
    public String toString() {
        return "FaultPlan" + rates;
    }
}
