package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.InPlaceUpdateStrategy;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.Objects;

/**
 * A v1beta1 CloneSet's in-place update knobs: the shared grace period plus the image pre-download settings that a
 * v1alpha1 CloneSet keeps in the annotations {@code apps.kruise.io/image-predownload-*}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSetInPlaceUpdateStrategy extends InPlaceUpdateStrategy {
    @JsonPropertyDescription("Nodes pulling the new image at once during pre-download (a number or a percentage).")
    private IntOrString imagePreDownloadParallelism;
    @JsonPropertyDescription("Seconds an image pre-download may take on a node.")
    private Integer imagePreDownloadTimeoutSeconds;
    @JsonPropertyDescription("Updated ready pods needed before images are pre-downloaded for the rest.")
    private Integer imagePreDownloadMinUpdatedReadyPods;

    public IntOrString getImagePreDownloadParallelism() {
        return imagePreDownloadParallelism;
    }

    public void setImagePreDownloadParallelism(IntOrString imagePreDownloadParallelism) {
        this.imagePreDownloadParallelism = imagePreDownloadParallelism;
    }

    public Integer getImagePreDownloadTimeoutSeconds() {
        return imagePreDownloadTimeoutSeconds;
    }

    public void setImagePreDownloadTimeoutSeconds(Integer imagePreDownloadTimeoutSeconds) {
        this.imagePreDownloadTimeoutSeconds = imagePreDownloadTimeoutSeconds;
    }

    public Integer getImagePreDownloadMinUpdatedReadyPods() {
        return imagePreDownloadMinUpdatedReadyPods;
    }

    public void setImagePreDownloadMinUpdatedReadyPods(Integer imagePreDownloadMinUpdatedReadyPods) {
        this.imagePreDownloadMinUpdatedReadyPods = imagePreDownloadMinUpdatedReadyPods;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CloneSetInPlaceUpdateStrategy that)) return false;
        return super.equals(that) && Objects.equals(imagePreDownloadParallelism, that.imagePreDownloadParallelism)
                && Objects.equals(imagePreDownloadTimeoutSeconds, that.imagePreDownloadTimeoutSeconds)
                && Objects.equals(imagePreDownloadMinUpdatedReadyPods, that.imagePreDownloadMinUpdatedReadyPods);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), imagePreDownloadParallelism, imagePreDownloadTimeoutSeconds,
                imagePreDownloadMinUpdatedReadyPods);
    }
}
