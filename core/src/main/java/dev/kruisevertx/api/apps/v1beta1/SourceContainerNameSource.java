package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import java.util.Objects;

/** Where the name of the container to copy env from is read (a downward-API field). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SourceContainerNameSource extends UnknownFields {
    @JsonPropertyDescription("A field of the pod: metadata.name, metadata.labels['<KEY>'], metadata.annotations['<KEY>'] ...")
    private ObjectFieldSelector fieldRef;

    public ObjectFieldSelector getFieldRef() {
        return fieldRef;
    }

    public void setFieldRef(ObjectFieldSelector fieldRef) {
        this.fieldRef = fieldRef;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof SourceContainerNameSource that)) return false;
        return Objects.equals(fieldRef, that.fieldRef)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fieldRef, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "SourceContainerNameSource{" + "fieldRef=" + fieldRef + '}';
    }
}
