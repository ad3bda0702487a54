package dev.kruisevertx.api.policy.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;

import java.util.Objects;

/** The workload whose pods a PodUnavailableBudget protects (apiVersion, kind, name in the budget's namespace). */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TargetReference extends UnknownFields {
    @JsonPropertyDescription("API version of the referent.")
    private String apiVersion;
    @JsonPropertyDescription("Kind of the referent.")
    private String kind;
    @JsonPropertyDescription("Name of the referent.")
    private String name;

    public TargetReference() {
    }

    public TargetReference(String apiVersion, String kind, String name) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.name = name;
    }

    public String getApiVersion() {
        return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TargetReference t && Objects.equals(apiVersion, t.apiVersion)
                && Objects.equals(kind, t.kind) && Objects.equals(name, t.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(apiVersion, kind, name);
    }

    @Override
    public String toString() {
        return "{apiVersion:" + apiVersion + ", kind:" + kind + ", name:" + name + "}";
    }
}
