package dev.kruisevertx.queue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The queue's meters, named so that a Prometheus scrape shows exactly controller-runtime's workqueue series
 * ({@code workqueue_depth}, {@code workqueue_adds_total}, ...) with the labels {@code name} and
 * {@code controller}, and existing OpenKruise dashboards keep working.
 *
 * <p>Counters and gauges read fields the queue keeps under its own lock anyway, so they cost nothing per
 * operation; only the two histograms are recorded on the hot path, outside the queue lock.
 */
final class WorkQueueMetrics {

    /** controller-runtime's histogram buckets: 10 ns times powers of ten, twelve of them (10 ns .. 1000 s). */
    static final Duration[] BUCKETS = buckets();

    private final MeterRegistry registry;
    private final Timer queueDuration;
    private final Timer workDuration;
    private final List<Meter> meters;

    WorkQueueMetrics(MeterRegistry registry, String name, String controller, WorkQueue<?> queue) {
        this.registry = registry;
        Tags tags = Tags.of("name", name, "controller", controller);
        Gauge depth = Gauge.builder("workqueue.depth", queue, WorkQueue::depthForMetrics)
                .description("Current depth of the workqueue").tags(tags).register(registry);
        FunctionCounter adds = FunctionCounter.builder("workqueue.adds", queue, WorkQueue::addsForMetrics)
                .description("Total number of adds handled by the workqueue").tags(tags).register(registry);
        FunctionCounter retries = FunctionCounter.builder("workqueue.retries", queue, WorkQueue::retriesForMetrics)
                .description("Total number of retries handled by the workqueue").tags(tags).register(registry);
        Gauge unfinished = Gauge.builder("workqueue.unfinished.work", queue, WorkQueue::unfinishedWorkSeconds)
                .description("Seconds of work in progress that has not been observed by work_duration yet; "
                        + "large values indicate stuck workers")
                .baseUnit("seconds").tags(tags).register(registry);
        Gauge longest = Gauge.builder("workqueue.longest.running.processor", queue,
                        WorkQueue::longestRunningProcessorSeconds)
                .description("Seconds the longest running processor of the workqueue has been running")
                .baseUnit("seconds").tags(tags).register(registry);
        this.queueDuration = Timer.builder("workqueue.queue.duration")
                .description("How long in seconds an item stays in the workqueue before being requested")
                .tags(tags).serviceLevelObjectives(BUCKETS).register(registry);
        this.workDuration = Timer.builder("workqueue.work.duration")
                .description("How long in seconds processing an item from the workqueue takes")
                .tags(tags).serviceLevelObjectives(BUCKETS).register(registry);
        this.meters = List.of(depth, adds, retries, unfinished, longest, queueDuration, workDuration);
    }

    void queueDuration(long nanos) {
        queueDuration.record(nanos, TimeUnit.NANOSECONDS);
    }

    void workDuration(long nanos) {
        workDuration.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Unregisters the meters, so a queue built later under the same name reports its own values. */
    void close() {
        for (Meter m : meters) {
            registry.remove(m);
        }
    }

    private static Duration[] buckets() {
        Duration[] b = new Duration[12];
        long nanos = 10;
        for (int i = 0; i < b.length; i++) {
            b[i] = Duration.ofNanos(nanos);
            nanos *= 10;
        }
        return b;
    }
}
