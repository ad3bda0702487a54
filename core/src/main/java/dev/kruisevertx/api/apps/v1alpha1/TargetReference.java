package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;

import java.util.Objects;

/** The workload a WorkloadSpread spreads: apiVersion, kind and name, in the WorkloadSpread's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TargetReference extends UnknownFields {
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("API version of the workload.")
    private String apiVersion;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Kind of the workload.")
    private String kind;
    @Required
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyDescription("Name of the workload.")
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

    /** The API group of {@link #getApiVersion()}: the part before '/', "" for the core group or no version. */
    public String group() {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TargetReference t && Objects.equals(apiVersion, t.apiVersion)
                && Objects.equals(kind, t.kind) && Objects.equals(name, t.name) && unknownFieldsEqual(t);
    }

    @Override
    public int hashCode() {
        return Objects.hash(apiVersion, kind, name);
    }

    /** Shown in validation messages the way the API server prints a Go struct value. */
    @Override
    public String toString() {
        return "{\"apiVersion\":\"" + nullToEmpty(apiVersion) + "\",\"kind\":\"" + nullToEmpty(kind)
                + "\",\"name\":\"" + nullToEmpty(name) + "\"}";
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
