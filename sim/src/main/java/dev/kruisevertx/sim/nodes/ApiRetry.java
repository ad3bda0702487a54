package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Retries a simulated kubelet's API call that failed in a way the next attempt can cure: throttling, a server error, a
 * lost connection and, for calls that carry no resourceVersion (patches), a conflict. Blocking: the simulator calls
 * it on its own thread or on the thread that starts it, never on an event loop.
 */
final class ApiRetry {
    private static final Logger LOG = LoggerFactory.getLogger(ApiRetry.class);

    private final int attempts;
    private final Duration firstDelay;
    private final boolean conflicts;

    /**
     * {@code conflicts}: retry 409 too, for calls whose next attempt can succeed after one (a patch the server could
     * not apply for concurrent writes); never for creates (409 there means it exists) or writes over a version read
     * earlier (the same body conflicts again).
     */
    ApiRetry(int attempts, Duration firstDelay, boolean conflicts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be >= 1, got " + attempts);
        }
        this.attempts = attempts;
        this.firstDelay = firstDelay;
        this.conflicts = conflicts;
    }

    /** Whether another attempt of a failed call can succeed. */
    boolean retriable(KubernetesClientException e) {
        int code = e.getCode();
        if (code == 409) {
            return conflicts;
        }
        // 0: no HTTP answer (connection refused or reset, timeout).
        return code == 0 || code == 429 || code == 500 || code == 502 || code == 503 || code == 504;
    }

    /**
     * Runs {@code call} until it succeeds, fails in a way no retry cures, or the attempts run out; the last failure is
     * thrown. {@code what} names the call in the log line of each retry.
     */
    <T> T call(String what, Supplier<T> call) {
        long delay = firstDelay.toMillis();
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (KubernetesClientException e) {
                if (!retriable(e) || attempt >= attempts) {
                    throw e;
                }
                LOG.debug("{} failed (attempt {}/{}, code {}), retrying: {}", what, attempt, attempts, e.getCode(),
                        e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
            }
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KubernetesClientException(what + " interrupted", e);
            }
            delay = Math.min(delay * 2, 2_000);
        }
    }

    void run(String what, Runnable call) {
        call(what, () -> {
            call.run();
            return null;
        });
    }
}
