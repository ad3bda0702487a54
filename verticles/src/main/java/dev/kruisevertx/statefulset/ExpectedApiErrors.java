package dev.kruisevertx.statefulset;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.function.Predicate;

/**
 * The API answers this controller expects and treats as outcomes, not failures: 404 (the object is gone) and 409 (it
 * already exists, or changed under us). Kept in this one place so the shared conflict-handling edit helper can take
 * it over.
 */
final class ExpectedApiErrors {
    private ExpectedApiErrors() {
    }

    static boolean notFound(KubernetesClientException e) {
        return e.getCode() == 404;
    }

    static boolean conflict(KubernetesClientException e) {
        return e.getCode() == 409;
    }

    /** A write whose object may be gone: null then. */
    interface Write<T> {
        T run();
    }

    static <T> T nullIfGone(Write<T> write) {
        return nullWhen(ExpectedApiErrors::notFound, write);
    }

    /** A create whose object may exist already: null then. */
    static <T> T nullIfExists(Write<T> create) {
        return nullWhen(ExpectedApiErrors::conflict, create);
    }

    private static <T> T nullWhen(Predicate<KubernetesClientException> expected, Write<T> write) {
        try {
            return write.run();
        } catch (KubernetesClientException e) {
            if (expected.test(e)) {
                return null;
            }
            throw e;
        }
    }
}
