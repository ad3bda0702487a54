package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.List;

/** The statuses of one image's tags on a node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImageStatus extends UnknownFields {
    @Required
    @JsonPropertyDescription("Represents statuses of pulling tasks on this node")
    private List<ImageTagStatus> tags;

    public List<ImageTagStatus> getTags() {
        return tags;
    }

    public void setTags(List<ImageTagStatus> tags) {
        this.tags = tags;
    }

    /** The tags, never null. */
    public List<ImageTagStatus> tags() {
        return tags == null ? List.of() : tags;
    }
}
