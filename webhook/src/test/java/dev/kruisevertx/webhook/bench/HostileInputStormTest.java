package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.server.ServerLimits;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 16, hostile input: a seeded storm of malformed and hostile AdmissionReviews and ConversionReviews on every
 * path the webhook serves, over HTTPS to the real server with every handler. Zero 5xx, every answer a proper review
 * or a 4xx with a message, the webhook still admits a valid review afterwards and the heap retained across the storm
 * stays bounded. The build runs {@value #PER_PATH} per path (seed printed on failure; {@code -Dhostile.seed=} replays
 * it, {@code -Dhostile.perPath=} changes the count); {@link HostileInputStorm#main} runs 10,000 per path.
 */
class HostileInputStormTest {
    static final int PER_PATH = 2_000;
    static final long RETAINED_BOUND = 64L << 20;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void everyHostileReviewGetsAProperAnswerAndTheWebhookStaysUp() throws Exception {
        long seed = Long.getLong("hostile.seed", System.nanoTime());
        int perPath = Integer.getInteger("hostile.perPath", PER_PATH);
        Vertx serverVertx = Vertx.vertx();
        Vertx clientVertx = Vertx.vertx();
        try {
            CertBundle certs = TestCerts.localhost();
            ServerLimits limits = ServerLimits.defaults();
            WebhookServerVerticle server = HostileInputStorm.server(serverVertx, certs, limits);
            serverVertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            HttpClient client = HostileInputStorm.client(clientVertx, certs, 16);
            HostileInputStorm.Report report = HostileInputStorm.run(client, server.actualPort(),
                    HostileTarget.all(true), perPath, seed, limits.maxBodyBytes(), 16);
            String summary = report.summary();
            System.out.print(summary);
            System.out.println("categories: " + report.categories());
            assertEquals(0, report.fiveHundreds(), "5xx answers; replay with -Dhostile.seed=" + seed + "\n" + summary);
            assertEquals(0, report.problems(), "wrong answers; replay with -Dhostile.seed=" + seed + "\n" + summary);
            assertTrue(report.validAfterwards(), "a valid review failed after the storm (seed " + seed + ")");
            assertTrue(report.retainedGrowth() < RETAINED_BOUND, "heap retained across the storm grew by "
                    + (report.retainedGrowth() >> 20) + " MiB (seed " + seed + ")");
        } finally {
            clientVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            serverVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
