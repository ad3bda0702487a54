package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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

    /**
     * The first problem that makes a scatter strategy (a list of terms) invalid, worded as OpenKruise's webhook words
     * it; empty when valid.
     */
    public static Optional<String> validateStrategy(List<UpdateScatterTerm> strategy) {
        if (strategy == null) {
            return Optional.empty();
        }
        Set<String> seen = new HashSet<>();
        for (UpdateScatterTerm term : strategy) {
            if (term.key == null || term.key.isEmpty()) {
                return Optional.of("key should not be empty");
            }
            if (!seen.add(term.key + ":" + term.value)) {
                return Optional.of("duplicated key=" + term.key + " value=" + (term.value == null ? "" : term.value));
            }
        }
        return Optional.empty();
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
