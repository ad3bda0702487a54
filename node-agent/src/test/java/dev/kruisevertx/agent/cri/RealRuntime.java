package dev.kruisevertx.agent.cri;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real containerd that {@code src/test/scripts/cri-setup.sh} starts. Tests that need it call
 * {@link #endpoint()}: without the runtime they are skipped with the reason, except where
 * {@code KRUISE_CRI_REQUIRED=true} (CI), where a missing runtime is a failure.
 */
public final class RealRuntime {
    static final Duration WAIT = Duration.ofSeconds(90);

    private RealRuntime() {
    }

    /** The endpoint when the runtime is there, else null (for @BeforeAll; tests then call {@link #endpoint()}). */
    static CriEndpoint endpointIfPresent() {
        String text = System.getenv("KRUISE_CRI_ENDPOINT");
        if (text == null || text.isBlank()) {
            return null;
        }
        CriEndpoint endpoint = CriEndpoint.parse(text);
        return Files.exists(endpoint.socket()) ? endpoint : null;
    }

    public static CriEndpoint endpoint() {
        String text = System.getenv("KRUISE_CRI_ENDPOINT");
        boolean required = Boolean.parseBoolean(System.getenv("KRUISE_CRI_REQUIRED"));
        String why = null;
        CriEndpoint endpoint = null;
        if (text == null || text.isBlank()) {
            why = "KRUISE_CRI_ENDPOINT is not set: run `eval \"$(node-agent/src/test/scripts/cri-setup.sh)\"` as root first";
        } else {
            endpoint = CriEndpoint.parse(text);
            if (!Files.exists(endpoint.socket())) {
                why = "CRI socket " + endpoint.socket() + " does not exist: run node-agent/src/test/scripts/cri-setup.sh as root";
            }
        }
        if (why != null) {
            if (required) {
                fail("KRUISE_CRI_REQUIRED=true but " + why);
            }
            assumeTrue(false, "skipped, no container runtime: " + why);
        }
        return endpoint;
    }

    /** Vert.x as the agent creates it: unix sockets need the native (epoll) transport. */
    public static Vertx nativeVertx() {
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        if (!vertx.isNativeTransportEnabled()) {
            vertx.close();
            throw new IllegalStateException("native transport unavailable: " + vertx.unavailableNativeTransportCause());
        }
        return vertx;
    }

    public static String busyboxImage() {
        String image = System.getenv("KRUISE_CRI_TEST_IMAGE");
        return image == null || image.isBlank() ? "127.0.0.1:5000/test/busybox:1" : image;
    }

    public static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + WAIT, e);
        }
    }

    static void assertContains(String actual, String... parts) {
        for (String part : parts) {
            if (actual == null || !actual.contains(part)) {
                fail("expected <" + actual + "> to contain <" + part + ">");
            }
        }
    }

    /** The failure of a future that must fail. */
    static Throwable failure(Future<?> future) {
        try {
            Object value = future.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a failure, got " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + WAIT, e);
        }
    }
}
