package dev.kruisevertx.queue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The queue's meters, named so that a Prometheus scrape shows exactly controller-runtime's workqueue series
 * ({@code workqueue_depth}, {@code workqueue_adds_total}, ...) with the labels {@code name} and
 * {@code controller}, so existing OpenKruise dashboards keep working.
 *
 * <p>Nothing here runs per queue operation: counters, gauges and histograms are plain fields the queue updates
 * under the lock it holds anyway, and the meters read them (under that lock) when scraped. On a Prometheus
 * registry the two duration histograms carry controller-runtime's buckets; on other registries they are
 * published as count and total time.
 */
final class WorkQueueMetrics {

    /** A consistent copy of both histograms, taken under the queue lock. */
    record Histograms(long[] queueBuckets, double queueSumSeconds, long queueCount,
                      long[] workBuckets, double workSumSeconds, long workCount) {
    }

    private final MeterRegistry registry;
    private final String name;
    private final String controller;
    private final WorkQueue<?> queue;
    private final List<Meter> meters = new ArrayList<>();
    final LatencyHistogram queueDuration = new LatencyHistogram();
    final LatencyHistogram workDuration = new LatencyHistogram();

    WorkQueueMetrics(MeterRegistry registry, String name, String controller, WorkQueue<?> queue) {
        this.registry = registry;
        this.name = name;
        this.controller = controller;
        this.queue = queue;
        Tags tags = Tags.of("name", name, "controller", controller);
        if (registry.find("workqueue.depth").tags(tags).gauge() != null) {
            // Two queues behind one label set would make one invisible and break the Prometheus scrape.
            throw new IllegalStateException("a work queue named '" + name + "' for controller '" + controller
                    + "' is already registered on this meter registry; shut the old one down first");
        }
        meters.add(Gauge.builder("workqueue.depth", queue, WorkQueue::depthForMetrics)
                .description("Current depth of the workqueue").tags(tags).register(registry));
        meters.add(FunctionCounter.builder("workqueue.adds", queue, WorkQueue::addsForMetrics)
                .description("Total number of adds handled by the workqueue").tags(tags).register(registry));
        meters.add(FunctionCounter.builder("workqueue.retries", queue, WorkQueue::retriesForMetrics)
                .description("Total number of retries handled by the workqueue").tags(tags).register(registry));
        meters.add(Gauge.builder("workqueue.unfinished.work", queue, WorkQueue::unfinishedWorkSeconds)
                .description("Seconds of work in progress not yet observed by work_duration; "
                        + "large values indicate stuck workers")
                .baseUnit("seconds").tags(tags).register(registry));
        meters.add(Gauge.builder("workqueue.longest.running.processor", queue,
                        WorkQueue::longestRunningProcessorSeconds)
                .description("Seconds the longest running processor of the workqueue has been running")
                .baseUnit("seconds").tags(tags).register(registry));
        if (registry instanceof PrometheusMeterRegistry prometheus) {
            PrometheusQueueHistograms.attach(prometheus.getPrometheusRegistry(), this);
        } else {
            meters.add(FunctionTimer.builder("workqueue.queue.duration", this,
                            m -> m.histograms().queueCount(), m -> m.histograms().queueSumSeconds(), TimeUnit.SECONDS)
                    .tags(tags).register(registry));
            meters.add(FunctionTimer.builder("workqueue.work.duration", this,
                            m -> m.histograms().workCount(), m -> m.histograms().workSumSeconds(), TimeUnit.SECONDS)
                    .tags(tags).register(registry));
        }
    }

    String name() {
        return name;
    }

    String controller() {
        return controller;
    }

    Histograms histograms() {
        return queue.histogramsForMetrics(this);
    }

    /** Unregisters the meters, so a queue built later under the same name reports its own values. */
    void close() {
        for (Meter m : meters) {
            registry.remove(m);
        }
        if (registry instanceof PrometheusMeterRegistry prometheus) {
            PrometheusQueueHistograms.detach(prometheus.getPrometheusRegistry(), this);
        }
    }
}
