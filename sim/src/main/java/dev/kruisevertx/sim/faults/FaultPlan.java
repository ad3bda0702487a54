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
    private final Map<FaultClass, Duration> timings = new EnumMap<>(Map.of(
            FaultClass.SLOW, Duration.ofMillis(500),
            FaultClass.TIMEOUT, Duration.ofSeconds(3),
            FaultClass.WATCH_DROPPED, Duration.ofSeconds(3),
            FaultClass.TOO_MANY_REQUESTS, Duration.ofSeconds(1)));

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

    /**
     * The time a time-based fault uses: for SLOW the most an answer is delayed (each one by a random part of it, at
     * least a tenth); for TIMEOUT how long a request is held before its connection is closed; for WATCH_DROPPED the
     * most a dropped watch lives before it is cut (a random time up to it); for TOO_MANY_REQUESTS the Retry-After
     * sent, in whole seconds (zero allowed). The others take no time.
     */
    public FaultPlan timing(FaultClass fault, Duration d) {
        if (!timings.containsKey(fault)) {
            throw new IllegalArgumentException(fault + " takes no time");
        }
        boolean zeroAllowed = fault == FaultClass.TOO_MANY_REQUESTS;
        if (d == null || d.isNegative() || (d.isZero() && !zeroAllowed)) {
            throw new IllegalArgumentException("the time of " + fault + " must be " + (zeroAllowed ? "zero or more"
                    : "positive") + ", got " + d);
        }
        timings.put(fault, d);
        return this;
    }

    public Duration timing(FaultClass fault) {
        return timings.get(fault);
    }

    public FaultPlan copy() {
        FaultPlan p = new FaultPlan();
        p.rates.putAll(rates);
        p.timings.putAll(timings);
        return p;
    }

    @Override
    public String toString() {
        return "FaultPlan" + rates;
    }
}
