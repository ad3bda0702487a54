package dev.kruisevertx.queue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class WorkQueueMetricsTest {

    private static final String LABELS = "controller=\"cloneset-controller\",name=\"cloneset\"";

    private final ManualTicker ticker = new ManualTicker();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private WorkQueue<String> queue() {
        return WorkQueue.<String>builder("cloneset")
                .meterRegistry(registry, "cloneset-controller")
                .rateLimiter(new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1)))
                .ticker(ticker)
                .build();
    }

    @Test
    void scrapeShowsControllerRuntimeNamesAndLabels() {
        WorkQueue<String> q = queue();
        String scrape = registry.scrape();
        for (String series : new String[] {
                "workqueue_depth{", "workqueue_adds_total{", "workqueue_retries_total{",
                "workqueue_queue_duration_seconds_bucket{", "workqueue_queue_duration_seconds_count{",
                "workqueue_queue_duration_seconds_sum{", "workqueue_work_duration_seconds_bucket{",
                "workqueue_work_duration_seconds_count{", "workqueue_work_duration_seconds_sum{",
                "workqueue_unfinished_work_seconds{", "workqueue_longest_running_processor_seconds{"}) {
            assertTrue(scrape.contains(series + LABELS), "missing " + series + " in\n" + scrape);
        }
        assertTrue(scrape.contains("# TYPE workqueue_queue_duration_seconds histogram"), scrape);
        assertTrue(scrape.contains("# TYPE workqueue_adds_total counter"), scrape);
        assertTrue(scrape.contains("# TYPE workqueue_depth gauge"), scrape);
        q.shutDown();
    }

    @Test
    void histogramsHaveControllerRuntimeBuckets() {
        WorkQueue<String> q = queue();
        String scrape = registry.scrape();
        Matcher m = Pattern.compile("workqueue_work_duration_seconds_bucket\\{[^}]*le=\"([^\"]+)\"").matcher(scrape);
        java.util.List<String> les = new java.util.ArrayList<>();
        while (m.find()) {
            les.add(m.group(1));
        }
        assertEquals(13, les.size(), "12 buckets plus +Inf: " + les);
        double expected = 1e-8;
        for (int i = 0; i < 12; i++) {
            assertEquals(expected, Double.parseDouble(les.get(i)), expected * 1e-9, "bucket " + i);
            expected *= 10;
        }
        assertEquals("+Inf", les.get(12));
        q.shutDown();
    }

    @Test
    void valuesFollowTheQueue() {
        WorkQueue<String> q = queue();
        q.add("a");
        q.add("b");
        q.add("a");
        assertEquals(2.0, value("workqueue_depth"));
        assertEquals(2.0, value("workqueue_adds_total"), "a duplicate add is not counted");

        ticker.advance(Duration.ofMillis(3));
        assertEquals("a", q.poll());
        assertEquals(1.0, value("workqueue_depth"));
        ticker.advance(Duration.ofSeconds(2));
        assertEquals("b", q.poll());
        assertEquals(0.0, value("workqueue_depth"));
        assertEquals(2.0, value("workqueue_queue_duration_seconds_count"));
        assertEquals(0.003 + 2.003, value("workqueue_queue_duration_seconds_sum"), 1e-9);
        // a waited 3 ms (le=0.01), b 2.003 s (le=10).
        assertEquals(1.0, bucket("workqueue_queue_duration_seconds", "0.01"));
        assertEquals(1.0, bucket("workqueue_queue_duration_seconds", "1.0"));
        assertEquals(2.0, bucket("workqueue_queue_duration_seconds", "10.0"));

        ticker.advance(Duration.ofSeconds(1));
        // a has run 3 s, b 1 s.
        assertEquals(4.0, value("workqueue_unfinished_work_seconds"), 1e-9);
        assertEquals(3.0, value("workqueue_longest_running_processor_seconds"), 1e-9);

        q.add("a");   // re-added while processing: counted as an add and as depth at once
        assertEquals(1.0, value("workqueue_depth"));
        assertEquals(3.0, value("workqueue_adds_total"));

        q.done("a");
        assertEquals(1.0, value("workqueue_work_duration_seconds_count"));
        assertEquals(3.0, value("workqueue_work_duration_seconds_sum"), 1e-9);
        assertEquals(1.0, value("workqueue_longest_running_processor_seconds"), 1e-9);
        q.done("b");
        assertEquals(0.0, value("workqueue_unfinished_work_seconds"));
        assertEquals(0.0, value("workqueue_longest_running_processor_seconds"));

        q.addRateLimited("c");
        q.addRateLimited("c");
        assertEquals(2.0, value("workqueue_retries_total"));
        q.shutDown();
    }

    @Test
    void shutDownUnregistersSoARebuiltQueueReportsItself() {
        WorkQueue<String> first = queue();
        first.add("x");
        first.shutDown();
        assertFalse(registry.scrape().contains("workqueue_depth{"), "meters are removed at shutdown");
        WorkQueue<String> second = queue();
        second.add("y");
        second.add("z");
        assertEquals(2.0, value("workqueue_depth"));
        second.shutDown();
    }

    @Test
    void aSecondLiveQueueWithTheSameLabelsIsRefused() {
        WorkQueue<String> first = queue();
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, this::queue);
        assertTrue(e.getMessage().contains("already registered"), e.getMessage());
        registry.scrape();
        first.shutDown();
        queue().shutDown();
    }

    @Test
    void otherRegistriesGetCountAndTotalTime() {
        var simple = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        WorkQueue<String> q = WorkQueue.<String>builder("plain").meterRegistry(simple, "plain-controller")
                .ticker(ticker).build();
        q.add("a");
        ticker.advance(Duration.ofMillis(250));
        assertEquals("a", q.poll());
        ticker.advance(Duration.ofMillis(500));
        q.done("a");
        var queued = simple.get("workqueue.queue.duration").tag("name", "plain")
                .tag("controller", "plain-controller").functionTimer();
        assertEquals(1.0, queued.count());
        assertEquals(0.25, queued.totalTime(java.util.concurrent.TimeUnit.SECONDS), 1e-9);
        var work = simple.get("workqueue.work.duration").functionTimer();
        assertEquals(0.5, work.totalTime(java.util.concurrent.TimeUnit.SECONDS), 1e-9);
        assertEquals(1.0, simple.get("workqueue.adds").functionCounter().count());
        q.shutDown();
        assertTrue(simple.find("workqueue.depth").gauges().isEmpty(), "meters are removed at shutdown");
    }

    private double value(String series) {
        String prefix = series + "{" + LABELS + "} ";
        for (String line : registry.scrape().split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(prefix.length()).trim());
            }
        }
        return fail("no " + series + " in scrape:\n" + registry.scrape());
    }

    private double bucket(String histogram, String le) {
        String prefix = histogram + "_bucket{" + LABELS + ",le=\"" + le + "\"} ";
        for (String line : registry.scrape().split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(prefix.length()).trim());
            }
        }
        return fail("no bucket " + le + " for " + histogram + " in scrape:\n" + registry.scrape());
    }
}
