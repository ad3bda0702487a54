package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import java.util.Objects;

/** CPU and memory expressions of a resourcesPolicy (variables cpu and memory; +, -, *, /, max(), min()). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceExprValues extends UnknownFields {
    @JsonPropertyDescription("CPU expression; variable cpu.")
    private String cpu;

    @JsonPropertyDescription("Memory expression; variable memory.")
    private String memory;

    public String getCpu() {
        return cpu;
    }

    public void setCpu(String cpu) {
        this.cpu = cpu;
    }

    public String getMemory() {
        return memory;
    }

    public void setMemory(String memory) {
        this.memory = memory;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ResourceExprValues that)) return false;
        return Objects.equals(cpu, that.cpu) && Objects.equals(memory, that.memory)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(cpu, memory, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ResourceExprValues{" + "cpu=" + cpu + ", " + "memory=" + memory + '}';
    }
}
