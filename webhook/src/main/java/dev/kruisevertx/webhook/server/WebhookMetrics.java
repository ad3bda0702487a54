package dev.kruisevertx.webhook.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-handler webhook metrics: {@code kruise_webhook_requests_total{path,result}} and the latency histogram
 * {@code kruise_webhook_request_duration_seconds{path}}. Paths with no handler are counted as
 * {@code unknown} so a caller cannot grow the label set.
 */
public final class WebhookMetrics {
    public static final String REQUESTS = "kruise_webhook_requests";
    public static final String DURATION = "kruise_webhook_request_duration";

    /** Outcome labels. */
    public static final String ALLOWED = "allowed";
    public static final String PATCHED = "patched";
    public static final String DENIED = "denied";
    public static final String ERROR = "error";
    public static final String BAD_REQUEST = "bad_request";
    public static final String NOT_FOUND = "not_found";
    public static final String CONVERTED = "converted";
    public static final String CONVERSION_FAILED = "conversion_failed";
    /** Refused before the body was read: too many large requests in flight (429). */
    public static final String BUSY = "busy";
    /** The body did not arrive in time (408). */
    public static final String TIMEOUT = "timeout";
    /** The body exceeds the limit (413). */
    public static final String TOO_LARGE = "too_large";

    /** {@code kruise_webhook_connections_closed_total{reason}}: connections the server closed on its own. */
    public static final String CONNECTIONS_CLOSED = "kruise_webhook_connections_closed";
    /** Reasons of {@link #CONNECTIONS_CLOSED}. */
    public static final String LIMIT = "limit";
    public static final String HEADER_TIMEOUT = "header_timeout";
    public static final String BODY_TIMEOUT = "body_timeout";
    public static final String IDLE_TIMEOUT = "idle_timeout";

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public WebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void record(String path, String result, long nanos) {
        counters.computeIfAbsent(path + '\u0000' + result, k -> Counter.builder(REQUESTS)
                .description("Webhook requests by path and result")
                .tag("path", path).tag("result", result)
                .register(registry)).increment();
        timers.computeIfAbsent(path, k -> Timer.builder(DURATION)
                .description("Webhook request latency by path")
                .tag("path", path)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(50_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry)).record(Duration.ofNanos(nanos));
    }

    /** The server closed a connection: over the connection limit, or a timeout ({@link #LIMIT}, ...). */
    public void connectionClosed(String reason) {
        counters.computeIfAbsent("connections\u0000" + reason, k -> Counter.builder(CONNECTIONS_CLOSED)
                .description("Connections the webhook server closed: over the limit or timed out")
                .tag("reason", reason)
                .register(registry)).increment();
    }

    public MeterRegistry registry() {
        return registry;
    }
}
