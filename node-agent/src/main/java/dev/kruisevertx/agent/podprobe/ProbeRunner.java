package dev.kruisevertx.agent.podprobe;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.cri.v1.Container;
import dev.kruisevertx.cri.v1.ContainerFilter;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStateValue;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.TCPSocketAction;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Runs one PodProbeMarker probe as OpenKruise's daemon does: exec through the CRI's ExecSync in the pod's running
 * container (found by the kubelet's container labels), httpGet and tcpSocket from the node to the pod IP. Timeouts
 * below one second count as one. grpc is not run (OpenKruise v1.9.0 does not either; its webhook refuses it).
 */
public final class ProbeRunner implements AutoCloseable {
    static final String POD_UID_LABEL = "io.kubernetes.pod.uid";
    static final String CONTAINER_NAME_LABEL = "io.kubernetes.container.name";

    private final CriClient cri;
    private final HttpClient http;
    private final HttpClient https;
    private final NetClient tcp;

    public ProbeRunner(Vertx vertx, CriClient cri) {
        this.cri = cri;
        this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
        // As the kubelet: an https probe does not verify the pod's certificate.
        this.https = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false).setSsl(true)
                .setTrustAll(true).setVerifyHost(false));
        this.tcp = vertx.createNetClient(new NetClientOptions());
    }

    /** Runs the probe; an empty result means "nothing to probe yet" (no running container), not a failure. */
    public Future<Optional<ProbeResult>> run(Probe probe, String podUid, String containerName, String podIp) {
        Duration timeout = Duration.ofSeconds(probe.getTimeoutSeconds() == null || probe.getTimeoutSeconds() < 1 ? 1
                : probe.getTimeoutSeconds());
        if (probe.getExec() != null) {
            return exec(probe.getExec().getCommand(), podUid, containerName, timeout);
        }
        if (probe.getHttpGet() != null) {
            return httpGet(probe.getHttpGet(), podIp, timeout).map(Optional::of);
        }
        if (probe.getTcpSocket() != null) {
            return tcpSocket(probe.getTcpSocket(), podIp, timeout).map(Optional::of);
        }
        return Future.succeededFuture(Optional.of(ProbeResult.failure("unsupported probe handler")));
    }

    Future<Optional<ProbeResult>> exec(List<String> command, String podUid, String containerName, Duration timeout) {
        ContainerFilter filter = ContainerFilter.newBuilder()
                .putLabelSelector(POD_UID_LABEL, podUid)
                .putLabelSelector(CONTAINER_NAME_LABEL, containerName)
                .setState(ContainerStateValue.newBuilder().setState(ContainerState.CONTAINER_RUNNING).build())
                .build();
        return cri.listContainers(filter).compose(containers -> {
            Optional<Container> running = containers.stream()
                    .filter(c -> c.getState() == ContainerState.CONTAINER_RUNNING)
                    .max((a, b) -> Long.compare(a.getCreatedAt(), b.getCreatedAt()));
            if (running.isEmpty()) {
                return Future.succeededFuture(Optional.<ProbeResult>empty());
            }
            return cri.execSync(running.get().getId(), command == null ? List.of() : command, timeout)
                    .map(resp -> {
                        String out = resp.getStdout().toString(StandardCharsets.UTF_8);
                        String err = resp.getStderr().toString(StandardCharsets.UTF_8);
                        return Optional.of(resp.getExitCode() == 0 ? ProbeResult.success(out)
                                : ProbeResult.failure(err.isBlank() ? out : err));
                    })
                    .recover(e -> Future.succeededFuture(Optional.of(ProbeResult.failure(
                            "exec failed: " + e.getMessage()))));
        });
    }

    Future<ProbeResult> httpGet(HTTPGetAction action, String podIp, Duration timeout) {
        if (podIp == null || podIp.isEmpty()) {
            return Future.succeededFuture(ProbeResult.failure("pod has no IP"));
        }
        Integer port = action.getPort() == null ? null : action.getPort().getIntVal();
        if (port == null) {
            return Future.succeededFuture(ProbeResult.failure("httpGet port is not a number"));
        }
        String path = action.getPath() == null || action.getPath().isEmpty() ? "/" : action.getPath();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(podIp).setPort(port)
                .setURI(path.startsWith("/") ? path : "/" + path).setTimeout(timeout.toMillis())
                .putHeader("User-Agent", "kruise-prober/1.0");
        if (action.getHttpHeaders() != null) {
            for (HTTPHeader h : action.getHttpHeaders()) {
                if (h != null && h.getName() != null) {
                    options.putHeader(h.getName(), h.getValue() == null ? "" : h.getValue());
                }
            }
        }
        HttpClient client = "HTTPS".equalsIgnoreCase(action.getScheme()) ? https : http;
        return client.request(options)
                .compose(req -> req.send().compose(resp -> resp.body().map(body -> resp.statusCode())))
                .map(code -> code >= 200 && code < 400
                        ? ProbeResult.success("HTTP probe succeeded with statuscode: " + code)
                        : ProbeResult.failure("HTTP probe failed with statuscode: " + code))
                .recover(e -> Future.succeededFuture(ProbeResult.failure("HTTP probe failed: " + e.getMessage())));
    }

    Future<ProbeResult> tcpSocket(TCPSocketAction action, String podIp, Duration timeout) {
        if (podIp == null || podIp.isEmpty()) {
            return Future.succeededFuture(ProbeResult.failure("pod has no IP"));
        }
        Integer port = action.getPort() == null ? null : action.getPort().getIntVal();
        if (port == null) {
            return Future.succeededFuture(ProbeResult.failure("tcpSocket port is not a number"));
        }
        return tcp.connect(new io.vertx.core.net.ConnectOptions().setHost(podIp).setPort(port)
                        .setTimeout((int) timeout.toMillis()))
                .compose(socket -> socket.close().map(ProbeResult.success("")))
                .recover(e -> Future.succeededFuture(ProbeResult.failure("TCP probe failed: " + e.getMessage())));
    }

    @Override
    public void close() {
        http.close();
        https.close();
        tcp.close();
    }
}
