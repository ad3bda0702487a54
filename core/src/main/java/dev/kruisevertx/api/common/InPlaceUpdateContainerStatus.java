package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.util.Objects;

/** What a container looked like before an in-place update, to tell when the update has taken effect. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class InPlaceUpdateContainerStatus extends UnknownFields {
    private String imageID;
    private ResourceRequirements resources;

    public InPlaceUpdateContainerStatus() {
    }

    public InPlaceUpdateContainerStatus(String imageID) {
        this.imageID = imageID;
    }

    public String getImageID() {
        return imageID;
    }

    public void setImageID(String imageID) {
        this.imageID = imageID;
    }

    public ResourceRequirements getResources() {
        return resources;
    }

    public void setResources(ResourceRequirements resources) {
        this.resources = resources;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof InPlaceUpdateContainerStatus that)) return false;
        return Objects.equals(imageID, that.imageID) && Objects.equals(resources, that.resources)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(imageID, resources, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "InPlaceUpdateContainerStatus{imageID=" + imageID + ", resources=" + resources + '}';
    }
}
