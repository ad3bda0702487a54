package dev.kruisevertx.api.apps.v1beta1;

import dev.kruisevertx.api.common.WireEnum;

import java.util.Optional;

/** Values of {@code containers[].upgradeStrategy.upgradeType} of a SidecarSet (OpenKruise's SidecarContainerUpgradeType). */
public enum SidecarContainerUpgradeType implements WireEnum {
    /** The sidecar is restarted in place with the new image; the default. */
    COLD_UPGRADE("ColdUpgrade"),
    /** Two containers take turns, so the sidecar keeps serving while it is upgraded. */
    HOT_UPGRADE("HotUpgrade");

    private final String value;

    SidecarContainerUpgradeType(String value) {
        this.value = value;
    }

    @Override
    public String value() {
        return value;
    }

    /** The constant for a field value; empty for a missing or unknown value. */
    public static Optional<SidecarContainerUpgradeType> fromValue(String value) {
        return WireEnum.parse(SidecarContainerUpgradeType.class, value);
    }

    @Override
    public String toString() {
        return value;
    }
}
