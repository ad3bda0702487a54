package dev.kruisevertx.api.apps.v1alpha1;

/** Values of {@code spec.strategy.failurePolicy}; the webhook defaults an empty one to {@link #FAIL}. */
public final class ContainerRecreateRequestFailurePolicy {
    /** The request ends as soon as one container fails to be recreated. */
    public static final String FAIL = "Fail";
    /** A failed container is recorded and the others go on. */
    public static final String IGNORE = "Ignore";

    private ContainerRecreateRequestFailurePolicy() {
    }
}
