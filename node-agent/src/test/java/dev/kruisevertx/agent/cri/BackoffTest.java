package dev.kruisevertx.agent.cri;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.kruisevertx.agent.cri.RealRuntime.await;
import static dev.kruisevertx.agent.cri.RealRuntime.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BackoffTest {
    final Vertx vertx = Vertx.vertx();

    @AfterEach
    void tearDown() {
        await(vertx.close());
    }

    @Test
    void delaysGrowByTheFactorUpToTheCap() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000), 2.0);
        assertEquals(Duration.ofMillis(100), b.delay(0));
        assertEquals(Duration.ofMillis(200), b.delay(1));
        assertEquals(Duration.ofMillis(800), b.delay(3));
        assertEquals(Duration.ofMillis(1000), b.delay(4));
        assertEquals(Duration.ofMillis(1000), b.delay(500));
    }

    @Test
    void defaultIsOneToThirtySeconds() {
        assertEquals(Duration.ofSeconds(1), Backoff.DEFAULT.delay(0));
        assertEquals(Duration.ofSeconds(30), Backoff.DEFAULT.delay(10));
    }

    @Test
    void badBoundsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), 2));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 2));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 0.5));
    }

    @Test
    void retriesUntilTheActionSucceeds() {
        AtomicInteger calls = new AtomicInteger();
        Backoff b = new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), 2.0);

        String result = await(b.retry(vertx, "flaky", () -> calls.incrementAndGet() < 4
                ? Future.failedFuture(new IllegalStateException("not yet")) : Future.succeededFuture("done"), e -> true, 0));

        assertEquals("done", result);
        assertEquals(4, calls.get());
    }

    @Test
    void stopsAtAFailureThatIsNotRetryable() {
        AtomicInteger calls = new AtomicInteger();
        IllegalArgumentException fatal = new IllegalArgumentException("fatal");
        Backoff b = new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), 2.0);

        Throwable e = failure(b.retry(vertx, "doomed", () -> {
            calls.incrementAndGet();
            return Future.failedFuture(fatal);
        }, err -> !(err instanceof IllegalArgumentException), 0));

        assertSame(fatal, e);
        assertEquals(1, calls.get());
    }

    @Test
    void givesUpAfterMaxAttemptsWithTheLastFailure() {
        AtomicInteger calls = new AtomicInteger();
        Backoff b = new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), 2.0);

        Throwable e = failure(b.retry(vertx, "always failing",
                () -> Future.failedFuture(new IllegalStateException("attempt " + calls.incrementAndGet())), err -> true, 3));

        assertEquals("attempt 3", e.getMessage());
        assertEquals(3, calls.get());
    }

    @Test
    void anActionThatThrowsCountsAsAFailedAttempt() {
        AtomicInteger calls = new AtomicInteger();
        Backoff b = new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), 2.0);

        String result = await(b.retry(vertx, "throwing", () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("boom");
            }
            return Future.succeededFuture("ok");
        }, err -> true, 0));

        assertEquals("ok", result);
    }
}
