package dev.kruisevertx.sim.testing;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.function.Supplier;

/**
 * A test's own read-then-write (fabric8's {@code edit}) races the product's status writes: a 409 means the product
 * wrote the object between the read and the write, so the test reads again and retries, as any client must.
 */
public final class ConflictRetry {
    private static final int ATTEMPTS = 30;

    private ConflictRetry() {
    }

    public static void run(Runnable write) {
        get(() -> {
            write.run();
            return null;
        });
    }

    public static <T> T get(Supplier<T> write) {
        for (int attempt = 1; ; attempt++) {
            try {
                return write.get();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
