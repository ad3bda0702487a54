package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;

/** Expressions computing the sidecar's resources from the target containers'. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourcesExpr extends UnknownFields {
    @JsonPropertyDescription("Expressions for resources.limits.")
    private ResourceExprValues limits;

    @JsonPropertyDescription("Expressions for resources.requests.")
    private ResourceExprValues requests;

    public ResourceExprValues getLimits() {
        return limits;
    }

    public void setLimits(ResourceExprValues limits) {
        this.limits = limits;
    }

    public ResourceExprValues getRequests() {
        return requests;
    }

    public void setRequests(ResourceExprValues requests) {
        this.requests = requests;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ResourcesExpr that)) return false;
        return Objects.equals(limits, that.limits) && Objects.equals(requests, that.requests)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(limits, requests, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ResourcesExpr{" + "limits=" + limits + ", " + "requests=" + requests + '}';
    }
}
