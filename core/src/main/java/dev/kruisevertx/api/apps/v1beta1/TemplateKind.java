package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** The kind of child an AdvancedCronJob creates, as written to {@code status.type} (OpenKruise's {@code TemplateKind}). */
public enum TemplateKind implements WireEnum {
    JOB("Job"),
    BROADCAST_JOB("BroadcastJob"),
    IMAGE_LIST_PULL_JOB("ImageListPullJob");

    private final String value;

    TemplateKind(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    public static Optional<TemplateKind> fromValue(String value) {
        return WireEnum.parse(TemplateKind.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
