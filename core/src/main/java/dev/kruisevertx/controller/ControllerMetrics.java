package dev.kruisevertx.controller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * controller-runtime's reconcile metrics, with its names and labels, so OpenKruise dashboards keep working:
 * {@code controller_runtime_reconcile_total{controller,result}}, {@code controller_runtime_reconcile_errors_total},
 * {@code controller_runtime_reconcile_time_seconds}, {@code controller_runtime_active_workers},
 * {@code controller_runtime_max_concurrent_reconciles}.
 */
final class ControllerMetrics {
    // controller-runtime's reconcile-time buckets.
    private static final Duration[] BUCKETS = buckets(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
            0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15,
            20, 25, 30, 40, 50, 60);

    final Counter success;
    final Counter error;
    final Counter requeue;
    final Counter requeueAfter;
    final Counter errors;
    final Timer time;
    final AtomicInteger activeWorkers = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();

    ControllerMetrics(MeterRegistry registry, String controller) {
        success = result(registry, controller, "success");
        error = result(registry, controller, "error");
        requeue = result(registry, controller, "requeue");
        requeueAfter = result(registry, controller, "requeue_after");
        errors = Counter.builder("controller_runtime_reconcile_errors")
                .description("Total number of reconciliation errors per controller")
                .tag("controller", controller).register(registry);
        time = Timer.builder("controller_runtime_reconcile_time")
                .description("Length of time per reconciliation per controller")
                .tag("controller", controller)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
        Gauge.builder("controller_runtime_active_workers", activeWorkers, AtomicInteger::get)
                .description("Number of currently used workers per controller")
                .tag("controller", controller).register(registry);
        Gauge.builder("controller_runtime_max_concurrent_reconciles", maxConcurrent, AtomicInteger::get)
                .description("Maximum number of concurrent reconciles per controller")
                .tag("controller", controller).register(registry);
    }

    private static Counter result(MeterRegistry registry, String controller, String result) {
        return Counter.builder("controller_runtime_reconcile")
                .description("Total number of reconciliations per controller")
                .tag("controller", controller).tag("result", result).register(registry);
    }

    private static Duration[] buckets(double... seconds) {
        Duration[] out = new Duration[seconds.length];
        for (int i = 0; i < seconds.length; i++) {
            out[i] = Duration.ofNanos((long) (seconds[i] * 1_000_000_000L));
        }
        return out;
    }
}
