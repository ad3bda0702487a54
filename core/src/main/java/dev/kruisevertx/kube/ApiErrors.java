package dev.kruisevertx.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * The API answers code branches on, named once: callers ask "was it a conflict?" instead of comparing status codes.
 * For how the controller runtime settles a failed reconcile see {@code dev.kruisevertx.controller.ExpectedFailures}.
 */
public final class ApiErrors {
    private ApiErrors() {
    }

    /** 409: someone else wrote first, or (on create) the object already exists. */
    public static boolean isConflict(KubernetesClientException e) {
        return e.getCode() == 409;
    }

    /** 404: the object (or its namespace) does not exist. */
    public static boolean isNotFound(KubernetesClientException e) {
        return e.getCode() == 404;
    }

    /** 422: the object is invalid, or a JSON patch's {@code test} operation failed. */
    public static boolean isInvalid(KubernetesClientException e) {
        return e.getCode() == 422;
    }

    /** 403: this identity may not do that. */
    public static boolean isForbidden(KubernetesClientException e) {
        return e.getCode() == 403;
    }

    /**
     * The server refused the request as it was (a 4xx other than a conflict, a timeout or throttling): nothing was
     * written, so expectations raised for the write can be lowered at once.
     */
    public static boolean definitelyNotWritten(KubernetesClientException e) {
        int code = e.getCode();
        return code >= 400 && code < 500 && code != 409 && code != 408 && code != 429;
    }

    /** Runs a call whose 404 means "nothing to do": returns null then. */
    public static <T> T ignoringNotFound(Callable<T> call) throws Exception {
        return nullWhen(ApiErrors::isNotFound, call);
    }

    /** Runs a create whose 409 means "it exists already" (e.g. the cache has not shown it yet): returns null then. */
    public static <T> T ignoringAlreadyExists(Callable<T> create) throws Exception {
        return nullWhen(ApiErrors::isConflict, create);
    }

    private static <T> T nullWhen(Predicate<KubernetesClientException> expected, Callable<T> call) throws Exception {
        try {
            return call.call();
        } catch (KubernetesClientException e) {
            if (expected.test(e)) {
                return null;
            }
            throw e;
        }
    }

    /** Runs a write whose 404 means "nothing to do". */
    public static void ignoreNotFound(Runnable write) {
        try {
            write.run();
        } catch (KubernetesClientException e) {
            if (!isNotFound(e)) {
                throw e;
            }
        }
    }
}
