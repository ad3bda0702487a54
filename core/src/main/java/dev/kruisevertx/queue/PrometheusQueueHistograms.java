package dev.kruisevertx.queue;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Publishes every queue's duration histograms to a Prometheus registry with real buckets.
 *
 * <p>Micrometer's {@code Timer} costs more per recording than the whole rest of a queue operation, so the
 * queue keeps its own {@link LatencyHistogram}s and this collector turns them into Prometheus histograms at
 * scrape time. A Prometheus registry accepts one collector per metric name, so one instance per registry
 * serves all queues registered on it.
 */
final class PrometheusQueueHistograms implements MultiCollector {

    static final String QUEUE_DURATION = "workqueue_queue_duration_seconds";
    static final String WORK_DURATION = "workqueue_work_duration_seconds";

    private static final Map<PrometheusRegistry, PrometheusQueueHistograms> BY_REGISTRY = new WeakHashMap<>();

    private final List<WorkQueueMetrics> sources = new CopyOnWriteArrayList<>();

    static void attach(PrometheusRegistry registry, WorkQueueMetrics source) {
        PrometheusQueueHistograms collector;
        synchronized (BY_REGISTRY) {
            collector = BY_REGISTRY.get(registry);
            if (collector == null) {
                collector = new PrometheusQueueHistograms();
                registry.register(collector);
                BY_REGISTRY.put(registry, collector);
            }
        }
        collector.sources.add(source);
    }

    static void detach(PrometheusRegistry registry, WorkQueueMetrics source) {
        synchronized (BY_REGISTRY) {
            PrometheusQueueHistograms collector = BY_REGISTRY.get(registry);
            if (collector != null) {
                collector.sources.remove(source);
            }
        }
    }

    @Override
    public MetricSnapshots collect() {
        if (sources.isEmpty()) {
            return MetricSnapshots.of();
        }
        List<HistogramSnapshot.HistogramDataPointSnapshot> queue = new ArrayList<>();
        List<HistogramSnapshot.HistogramDataPointSnapshot> work = new ArrayList<>();
        for (WorkQueueMetrics source : sources) {
            WorkQueueMetrics.Histograms h = source.histograms();
            Labels labels = Labels.of("controller", source.controller(), "name", source.name());
            queue.add(point(h.queueBuckets(), h.queueSumSeconds(), labels));
            work.add(point(h.workBuckets(), h.workSumSeconds(), labels));
        }
        return MetricSnapshots.of(
                new HistogramSnapshot(new MetricMetadata(QUEUE_DURATION,
                        "How long in seconds an item stays in the workqueue before being requested"), queue),
                new HistogramSnapshot(new MetricMetadata(WORK_DURATION,
                        "How long in seconds processing an item from the workqueue takes"), work));
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(QUEUE_DURATION, WORK_DURATION);
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot point(long[] buckets, double sum, Labels labels) {
        return new HistogramSnapshot.HistogramDataPointSnapshot(
                ClassicHistogramBuckets.of(LatencyHistogram.BOUNDS_SECONDS, buckets), sum, labels, Exemplars.EMPTY, 0L);
    }
}
