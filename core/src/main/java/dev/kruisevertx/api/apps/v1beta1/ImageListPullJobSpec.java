package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** Desired state of an ImageListPullJob: pull each of {@code images} as its own ImagePullJob. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImageListPullJobSpec extends ImagePullJobTemplate {
    @Required
    @JsonPropertyDescription("Images is the image list to be pulled by the job")
    private List<String> images;

    public List<String> getImages() {
        return images;
    }

    public void setImages(List<String> images) {
        this.images = images;
    }

    /** The images, never null. */
    public List<String> images() {
        return images == null ? List.of() : images;
    }
}
