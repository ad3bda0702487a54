package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kruisevertx.api.common.UnknownFields;
import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.TCPSocketAction;

import java.util.Objects;

/** A hook action copied from a container's preStop: one of exec, httpGet or tcpSocket. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ProbeHandler extends UnknownFields {
    @JsonPropertyDescription("Exec specifies the action to take.")
    private ExecAction exec;
    @JsonPropertyDescription("HTTPGet specifies the http request to perform.")
    private HTTPGetAction httpGet;
    @JsonPropertyDescription("TCPSocket specifies an action involving a TCP port. TCP hooks not yet supported")
    private TCPSocketAction tcpSocket;

    public ExecAction getExec() {
        return exec;
    }

    public void setExec(ExecAction exec) {
        this.exec = exec;
    }

    public HTTPGetAction getHttpGet() {
        return httpGet;
    }

    public void setHttpGet(HTTPGetAction httpGet) {
        this.httpGet = httpGet;
    }

    public TCPSocketAction getTcpSocket() {
        return tcpSocket;
    }

    public void setTcpSocket(TCPSocketAction tcpSocket) {
        this.tcpSocket = tcpSocket;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ProbeHandler that)) return false;
        return Objects.equals(exec, that.exec) && Objects.equals(httpGet, that.httpGet)
                && Objects.equals(tcpSocket, that.tcpSocket) && unknownFieldsEqual(that);
    }

    @Override
    public int hashCode() {
        return Objects.hash(exec, httpGet, tcpSocket, unknownFieldsHash());
    }

    @Override
    public String toString() {
        return "ProbeHandler{exec=" + exec + ", httpGet=" + httpGet + ", tcpSocket=" + tcpSocket + '}';
    }
}
