package dev.kruisevertx.webhook.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Large requests (a body above {@link ServerLimits#inlineBodyBytes()}): their work grows with the body (parsing,
 * decoding, defaulting, diffing, encoding a patch that can be larger than the object), so it runs on a small worker
 * pool of its own instead of the event loop, where it would stall every other admission and {@code /healthz}. How
 * many may be in flight at once is bounded by the sum of their declared sizes, checked before the body is read;
 * that also bounds the memory they take. Budget bookkeeping is confined to the server's event loop.
 */
final class LargeRequests {
    private static final Logger LOG = LoggerFactory.getLogger(LargeRequests.class);

    private final ServerLimits limits;
    private final WebhookMetrics metrics;
    private final Function<String, String> pathLabel;
    private final WorkerExecutor workers;
    private long reserved;

    /** @param pathLabel the metrics label of a request path (registered paths as is, others {@code unknown}) */
    LargeRequests(Vertx vertx, ServerLimits limits, WebhookMetrics metrics, Function<String, String> pathLabel) {
        this.limits = limits;
        this.metrics = metrics;
        this.pathLabel = pathLabel;
        // Unique name: a shared executor of the same name would be shared with (and sized by) another server.
        this.workers = vertx.createSharedWorkerExecutor("kruise-webhook-large-requests-" + System.identityHashCode(this),
                limits.largeRequestWorkers(), 60, TimeUnit.SECONDS);
    }

    /** Route before the body handler: reserves budget for a large declared body, or answers 429 and closes. */
    void admit(RoutingContext ctx) {
        long size = declaredSize(ctx);
        if (size <= limits.inlineBodyBytes()) {
            ctx.next();
            return;
        }
        if (size > limits.maxBodyBytes()) {
            // The body handler refuses it with 413 before reading; nothing to reserve.
            ctx.next();
            return;
        }
        if (reserved + size > limits.largeBodyBudgetBytes()) {
            metrics.record(pathLabel.apply(ctx.normalizedPath()), WebhookMetrics.BUSY, 0);
            LOG.debug("Refusing a {} byte request to {}: {} bytes of large requests are in flight (budget {})",
                    size, ctx.normalizedPath(), reserved, limits.largeBodyBudgetBytes());
            ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1");
            Responses.plainAndClose(ctx, 429, "the webhook is busy with " + reserved + " bytes of large requests "
                    + "(budget " + limits.largeBodyBudgetBytes() + "); retry");
            return;
        }
        reserved += size;
        ctx.addEndHandler(done -> reserved -= size);
        ctx.next();
    }

    /** Whether a body of this size is judged on a worker. */
    boolean isLarge(int bodyBytes) {
        return bodyBytes > limits.inlineBodyBytes();
    }

    /** Runs {@code work} on a large-request worker; the future it returns may complete later. */
    <T> Future<T> run(Callable<Future<T>> work) {
        return workers.<Future<T>>executeBlocking(work, false).compose(f -> f);
    }

    long reservedBytes() {
        return reserved;
    }

    Future<Void> close() {
        return workers.close();
    }

    /** Content-Length, or the maximum body size for a chunked body of unknown length; 0 without a body. */
    private long declaredSize(RoutingContext ctx) {
        String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null) {
            try {
                return Math.max(0, Long.parseLong(length.trim()));
            } catch (NumberFormatException e) {
                return limits.maxBodyBytes();
            }
        }
        String encoding = ctx.request().getHeader(HttpHeaders.TRANSFER_ENCODING);
        return encoding != null && encoding.toLowerCase(java.util.Locale.ROOT).contains("chunked")
                ? limits.maxBodyBytes() : 0;
    }
}
