package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Phase of one image tag on one node ({@code NodeImage.status.imageStatuses[].tags[].phase}). */
public enum ImagePullPhase implements WireEnum {
    WAITING("Waiting"),
    PULLING("Pulling"),
    SUCCEEDED("Succeeded"),
    FAILED("Failed");

    private final String value;

    ImagePullPhase(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** Whether the pull of this tag is over (it will not change without a new version). */
    public boolean finished() {
        return this == SUCCEEDED || this == FAILED;
    }

    public static Optional<ImagePullPhase> fromValue(String value) {
        return WireEnum.parse(ImagePullPhase.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
