package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Objects;

/** The probes of one pod on the node. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodProbe extends UnknownFields {
    @Required
    @JsonPropertyDescription("pod name")
    private String name;
    @Required
    @JsonPropertyDescription("pod namespace")
    private String namespace;
    @Required
    @JsonPropertyDescription("pod uid")
    private String uid;
    @Required
    @JsonProperty("IP")
    @JsonPropertyDescription("pod ip")
    private String ip;
    @JsonPropertyDescription("Custom container probe, supports Exec, Tcp, and returns the result to Pod yaml")
    private List<ContainerProbe> probes;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public String getUid() {
        return uid;
    }

    public void setUid(String uid) {
        this.uid = uid;
    }

    @JsonProperty("IP")
    public String getIp() {
        return ip;
    }

    @JsonProperty("IP")
    public void setIp(String ip) {
        this.ip = ip;
    }

    public List<ContainerProbe> getProbes() {
        return probes;
    }

    public void setProbes(List<ContainerProbe> probes) {
        this.probes = probes;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof PodProbe that)) return false;
        return Objects.equals(name, that.name) && Objects.equals(namespace, that.namespace) && Objects.equals(uid, that.uid) && Objects.equals(ip, that.ip) && Objects.equals(probes, that.probes)
                && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, namespace, uid, ip, probes, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "PodProbe{" + "name=" + name + ", " + "namespace=" + namespace + ", " + "uid=" + uid + ", " + "ip=" + ip + ", " + "probes=" + probes + '}';
    }
}
