package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Map;

/** Desired state of a NodeImage: the images to pull on its node, by name (without tag). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class NodeImageSpec extends UnknownFields {
    @JsonPropertyDescription("Specifies images to be pulled on this node It can not be more than 256 for each NodeImage")
    private Map<String, ImageSpec> images;

    public Map<String, ImageSpec> getImages() {
        return images;
    }

    public void setImages(Map<String, ImageSpec> images) {
        this.images = images;
    }

    /** The images, never null. */
    public Map<String, ImageSpec> images() {
        return images == null ? Map.of() : images;
    }
}
