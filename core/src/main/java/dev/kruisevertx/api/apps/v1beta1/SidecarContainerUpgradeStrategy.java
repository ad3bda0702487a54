package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;
import java.util.Optional;

/** How a sidecar container is upgraded: ColdUpgrade (restart in place) or HotUpgrade. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarContainerUpgradeStrategy extends UnknownFields {
    @JsonPropertyDescription("ColdUpgrade (default) or HotUpgrade.")
    private String upgradeType;

    @JsonPropertyDescription("Image the idle container of a hot-upgrade pair runs; required for HotUpgrade.")
    private String hotUpgradeEmptyImage;

    public String getUpgradeType() {
        return upgradeType;
    }

    public void setUpgradeType(String upgradeType) {
        this.upgradeType = upgradeType;
    }

    /** {@code upgradeType} as an enum; empty when unset or unknown. */
    @JsonIgnore
    public Optional<SidecarContainerUpgradeType> upgradeTypeValue() {
        return SidecarContainerUpgradeType.fromValue(upgradeType);
    }

    public String getHotUpgradeEmptyImage() {
        return hotUpgradeEmptyImage;
    }

    public void setHotUpgradeEmptyImage(String hotUpgradeEmptyImage) {
        this.hotUpgradeEmptyImage = hotUpgradeEmptyImage;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SidecarContainerUpgradeStrategy that)) return false;
        return Objects.equals(upgradeType, that.upgradeType) && Objects.equals(hotUpgradeEmptyImage, that.hotUpgradeEmptyImage)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(upgradeType, hotUpgradeEmptyImage, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SidecarContainerUpgradeStrategy{" + "upgradeType=" + upgradeType + ", " + "hotUpgradeEmptyImage=" + hotUpgradeEmptyImage + '}';
    }
}
