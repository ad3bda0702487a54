package dev.kruisevertx.bench.queue;

import dev.kruisevertx.queue.WorkQueue;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** Every benchmark measures the queue as production runs it: with its Prometheus meters switched on. */
final class MeteredQueues {

    private MeteredQueues() {
    }

    static <K> WorkQueue<K> create(String name) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        return WorkQueue.<K>builder(name).meterRegistry(registry, name + "-controller").build();
    }

    /** Keys shaped like the controllers' namespace/name keys. */
    static String[] keys(int n) {
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = "default/workload-" + i;
        }
        return keys;
    }
}
