package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code injectionStrategy.revision.policy} of a SidecarSet (OpenKruise's SidecarSetInjectRevisionPolicy). */
public enum SidecarSetInjectRevisionPolicy implements WireEnum {
    /** New pods always get the named revision; the default. */
    ALWAYS("Always"),
    /** New pods get the latest revision while the partition allows it, the named one otherwise. */
    PARTIAL("Partial");

    private final String value;

    SidecarSetInjectRevisionPolicy(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<SidecarSetInjectRevisionPolicy> fromValue(String value) {
        return WireEnum.parse(SidecarSetInjectRevisionPolicy.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
