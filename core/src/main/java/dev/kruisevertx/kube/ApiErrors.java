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

    /**
     * A 409 on create that may mean the object is there (AlreadyExists), maybe from an earlier attempt whose answer
     * was lost. Only a 409 whose reason is Conflict (an admission webhook or a proxy refusing the request) surely
     * created nothing; any other reason, or none, is taken for AlreadyExists, the cautious side for expectations
     * (fabric8's mock server answers a duplicate create with reason Invalid).
     */
    public static boolean isAlreadyExists(KubernetesClientException e) {
        if (e.getCode() != 409) {
            return false;
        }
        return e.getStatus() == null || !"Conflict".equals(e.getStatus().getReason());
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
     * The server refused the request as it was (a 4xx other than AlreadyExists, a timeout or throttling): nothing was
     * written, so expectations raised for the write can be lowered at once.
     */
    public static boolean definitelyNotWritten(KubernetesClientException e) {
        int code = e.getCode();
        if (code == 409) {
            // An AlreadyExists may be this controller's own earlier attempt: its event is still to come.
            return !isAlreadyExists(e);
        }
        return code >= 400 && code < 500 && code != 408 && code != 429;
    }

    /** Runs a call whose 404 means "nothing to do": returns null then. */
    public static <T> T ignoringNotFound(Callable<T> call) throws Exception {
        return nullWhen(ApiErrors::isNotFound, call);
    }

    /** Runs a create whose 409 means "it exists already" (e.g. the cache has not shown it yet): returns null then. */
    public static <T> T ignoringAlreadyExists(Callable<T> create) throws Exception {
        return nullWhen(ApiErrors::isAlreadyExists, create);
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
