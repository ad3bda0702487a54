package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;

/**
 * One term of a scatter strategy: pods labelled {@code key=value} are spread over the update order instead of
 * being updated in one batch. A scatter strategy is a list of these terms.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdateScatterTerm extends UnknownFields {
    @Required
    private String key;
    @Required
    private String value;

    public UpdateScatterTerm() {
    }

    public UpdateScatterTerm(String key, String value) {
        this.key = key;
        this.value = value;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public String getValue() {
        return value;
    }

    public void setValue(String value) {
        this.value = value;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof UpdateScatterTerm that)) return false;
        return Objects.equals(key, that.key) && Objects.equals(value, that.value) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, value, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "UpdateScatterTerm{" + key + '=' + value + '}';
    }
}
