package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Base of every Kruise API value: fields this model does not know (written by a newer or older OpenKruise)
 * are kept here and written back unchanged, so reading and re-writing an object never loses data.
 * The CRD generator runs with implicit preserve-unknown-fields off, so this map does not show up in the schema.
 * Serializable like every fabric8 model class, so a CloneSet behaves like any other resource.
 */
public abstract class UnknownFields implements Serializable {
    private static final long serialVersionUID = 1L;

    @JsonIgnore
    private Map<String, Object> additionalProperties;

    @JsonAnyGetter
    @JsonIgnore
    public Map<String, Object> getAdditionalProperties() {
        return additionalProperties == null ? Map.of() : additionalProperties;
    }

    @JsonAnySetter
    public void setAdditionalProperty(String name, Object value) {
        if (additionalProperties == null) {
            additionalProperties = new LinkedHashMap<>();
        }
        additionalProperties.put(name, value);
    }

    /** Equality of the unknown fields only; subclasses combine it with their own fields. */
    protected boolean unknownFieldsEqual(UnknownFields other) {
        return getAdditionalProperties().equals(other.getAdditionalProperties());
    }

    protected int unknownFieldsHash() {
        return getAdditionalProperties().hashCode();
    }
}
