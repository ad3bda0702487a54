package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of an image pull job's (or a NodeImage tag's) {@code imagePullPolicy}: pull again although present, or only when absent. */
public enum ImagePullPolicy implements WireEnum {
    ALWAYS("Always"),
    IF_NOT_PRESENT("IfNotPresent");

    private final String value;

    ImagePullPolicy(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<ImagePullPolicy> fromValue(String value) {
        return WireEnum.parse(ImagePullPolicy.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
