package dev.kruisevertx.bench.debug;

import dev.kruisevertx.bus.EventBusMetrics;
import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.manager.DebugEndpoints;
import dev.kruisevertx.manager.HealthChecks;
import dev.kruisevertx.manager.HttpEndpoints;
import dev.kruisevertx.manager.ListenAddress;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code /healthz} latency while clients walk {@code /debug/plans} of many objects: the manager's real listeners
 * (HttpEndpoints, DebugEndpoints) on one Vert.x, the plan recorder filled with CloneSet-like summaries, N clients
 * fetching the largest pages back to back, one prober calling {@code /healthz} every 10 ms.
 *
 * <p>Usage: {@code ProbeLatencyUnderDebugLoad [objects=100000] [clients=20] [seconds=20]}
 */
public final class ProbeLatencyUnderDebugLoad {
    private ProbeLatencyUnderDebugLoad() {
    }

    public static void main(String[] args) throws Exception {
        int objects = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;

        PlanRecorder plans = new PlanRecorder();
        for (int i = 0; i < objects; i++) {
            plans.record("cloneset", new Request("ns-" + (i % 100), "web-" + i), PlanSummary
                    .builder("UPDATE: rolling to web-7c9d4 (in-place 2, continue in-place 1)")
                    .count("updateNum", 3).count("updateMaxUnavailable", 1)
                    .action("update pod web-" + i + "-a in place to revision web-7c9d4 (containers main)")
                    .action("update pod web-" + i + "-b in place to revision web-7c9d4 (containers main)")
                    .action("continue the in-place update of pod web-" + i + "-c").build());
        }
        Vertx vertx = Vertx.vertx();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HealthChecks liveness = new HealthChecks("healthz");
        liveness.add("ping", () -> null);
        HttpEndpoints endpoints = new HttpEndpoints(vertx, registry, liveness, new HealthChecks("readyz"),
                new DebugEndpoints(vertx, new EventBusMetrics(registry), plans, Map::of));
        HttpEndpoints.Ports ports = endpoints.start(ListenAddress.parse("--metrics-addr", "127.0.0.1:0"),
                ListenAddress.parse("--health-probe-addr", "127.0.0.1:0"),
                ListenAddress.parse("--debug-addr", "127.0.0.1:0")).await(30, TimeUnit.SECONDS);

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong pagesServed = new AtomicLong();
        AtomicLong bytesServed = new AtomicLong();
        List<Thread> walkers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Thread t = new Thread(() -> walk(ports.debug(), running, pagesServed, bytesServed), "walker-" + c);
            t.setDaemon(true);
            t.start();
            walkers.add(t);
        }
        HttpClient prober = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest healthz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.health() + "/healthz")).build();
        long[] samples = new long[seconds * 200];
        int n = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Thread.sleep(1000); // let the walkers get going
        while (System.nanoTime() < end && n < samples.length) {
            long start = System.nanoTime();
            HttpResponse<String> r = prober.send(healthz, HttpResponse.BodyHandlers.ofString());
            samples[n++] = System.nanoTime() - start;
            if (r.statusCode() != 200) {
                throw new IllegalStateException("/healthz answered " + r.statusCode());
            }
            Thread.sleep(10);
        }
        running.set(false);
        for (Thread t : walkers) {
            t.join(60_000);
        }
        long[] sorted = Arrays.copyOf(samples, n);
        Arrays.sort(sorted);
        System.out.printf("objects=%d clients=%d seconds=%d: debug pages served=%d (%.1f MB), /healthz n=%d "
                        + "p50=%.2f ms p90=%.2f ms p99=%.2f ms max=%.2f ms%n", objects, clients, seconds, pagesServed.get(),
                bytesServed.get() / 1e6, n, at(sorted, 50), at(sorted, 90), at(sorted, 99), at(sorted, 100));
        endpoints.close().await(30, TimeUnit.SECONDS);
        vertx.close().await(30, TimeUnit.SECONDS);
    }

    /** One client: walks every page of /debug/plans at the largest page size, again and again. */
    private static void walk(int port, AtomicBoolean running, AtomicLong pages, AtomicLong bytes) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String token = null;
        while (running.get()) {
            String path = "/debug/plans?limit=" + Integer.MAX_VALUE + (token == null ? "" : "&continue=" + token);
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofMinutes(1)).build(), HttpResponse.BodyHandlers.ofString());
                pages.incrementAndGet();
                bytes.addAndGet(r.body().length());
                int at = r.body().lastIndexOf("\"continue\":\"");
                token = at < 0 ? null : r.body().substring(at + 12, r.body().indexOf('"', at + 12));
            } catch (Exception e) {
                if (running.get()) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private static double at(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
