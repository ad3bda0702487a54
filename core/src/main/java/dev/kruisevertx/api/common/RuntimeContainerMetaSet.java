package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The JSON document in pod annotation {@value WellKnown#RUNTIME_CONTAINERS_META_ANNOTATION}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class RuntimeContainerMetaSet extends UnknownFields {
    private List<RuntimeContainerMeta> containers;

    /**
     * The set recorded on a pod; empty when the annotation is absent.
     *
     * @throws IllegalArgumentException when the annotation is not valid JSON
     */
    public static Optional<RuntimeContainerMetaSet> readFrom(HasMetadata pod) {
        Map<String, String> annotations = pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        String json = annotations == null ? null : annotations.get(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION);
        if (json == null) {
            return Optional.empty();
        }
        return Optional.of(ApiJson.fromAnnotation(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION, json,
                RuntimeContainerMetaSet.class));
    }

    public String toJson() {
        return ApiJson.toJson(this);
    }

    public List<RuntimeContainerMeta> getContainers() {
        return containers;
    }

    public void setContainers(List<RuntimeContainerMeta> containers) {
        this.containers = containers;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RuntimeContainerMetaSet that)) return false;
        return Objects.equals(containers, that.containers) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(containers, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "RuntimeContainerMetaSet" + toJson();
    }
}
