package dev.kruisevertx.agent.crr;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ProbeHandler;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

/**
 * Stops a container the way the kubelet kills one: the preStop hook first (exec through the runtime, or an HTTP GET),
 * bounded by the grace period, then StopContainer with what is left of the grace period (at least two seconds, as
 * the kubelet gives). A failing hook is logged and the container is stopped anyway, as the kubelet does.
 */
public final class ContainerStopper {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerStopper.class);
    /** The kubelet's floor for the time left to stop a container after its hook. */
    static final Duration MIN_GRACE = Duration.ofSeconds(2);
    /** The grace period kruise-daemon uses when the request has none. */
    public static final long DEFAULT_GRACE_SECONDS = 30;

    private final CriClient cri;
    private final HttpClient http;

    public ContainerStopper(Vertx vertx, CriClient cri) {
        this.cri = cri;
        this.http = vertx.createHttpClient(new HttpClientOptions().setTrustAll(true).setVerifyHost(false));
    }

    /**
     * Runs the hook and stops the container.
     *
     * @param containerId the runtime id (no {@code <runtime>://} prefix)
     * @param hostIp      where an HTTP hook without a host goes (the pod IP)
     */
    public Future<Void> stop(ContainerRecreateRequestContainer container, String containerId, Duration grace,
            String hostIp) {
        long started = System.nanoTime();
        return runPreStop(container, containerId, grace, hostIp)
                .recover(err -> {
                    LOG.warn("preStop hook of container {} ({}) failed: {}; stopping it anyway", container.getName(),
                            containerId, err.getMessage());
                    return Future.succeededFuture();
                })
                .compose(v -> {
                    Duration left = grace.minus(Duration.ofNanos(System.nanoTime() - started));
                    return cri.stopContainer(containerId, left.compareTo(MIN_GRACE) < 0 ? MIN_GRACE : left);
                });
    }

    private Future<Void> runPreStop(ContainerRecreateRequestContainer container, String containerId, Duration grace,
            String hostIp) {
        ProbeHandler hook = container.getPreStop();
        if (hook == null) {
            return Future.succeededFuture();
        }
        if (hook.getExec() != null && hook.getExec().getCommand() != null && !hook.getExec().getCommand().isEmpty()) {
            return cri.execSync(containerId, hook.getExec().getCommand(), grace).compose(resp -> {
                if (resp.getExitCode() != 0) {
                    return Future.failedFuture(new IllegalStateException("exec " + hook.getExec().getCommand()
                            + " exited with " + resp.getExitCode() + ": " + resp.getStderr().toStringUtf8().trim()));
                }
                return Future.succeededFuture();
            });
        }
        if (hook.getHttpGet() != null) {
            return httpGet(hook.getHttpGet(), container.getPorts(), grace, hostIp);
        }
        if (hook.getTcpSocket() != null) {
            // The kubelet does not run tcpSocket hooks either; it only reports them.
            LOG.info("container {}: tcpSocket preStop hooks are not supported, skipped", container.getName());
        }
        return Future.succeededFuture();
    }

    private Future<Void> httpGet(HTTPGetAction action, List<ContainerPort> ports, Duration timeout, String hostIp) {
        int port;
        try {
            port = resolvePort(action.getPort(), ports);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        String host = action.getHost() == null || action.getHost().isEmpty() ? hostIp : action.getHost();
        if (host == null || host.isEmpty()) {
            host = "127.0.0.1";
        }
        String path = action.getPath() == null || action.getPath().isEmpty() ? "/" : action.getPath();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(host).setPort(port)
                .setURI(path.startsWith("/") ? path : "/" + path)
                .setSsl("HTTPS".equalsIgnoreCase(action.getScheme()))
                .setTimeout(Math.max(1, timeout.toMillis()));
        if (action.getHttpHeaders() != null) {
            for (HTTPHeader h : action.getHttpHeaders()) {
                options.addHeader(h.getName(), h.getValue());
            }
        }
        return http.request(options).compose(req -> req.send()).compose(resp -> resp.body().compose(body -> {
            if (resp.statusCode() >= 400) {
                return Future.failedFuture(new IllegalStateException("HTTP GET " + path + " answered "
                        + resp.statusCode()));
            }
            return Future.<Void>succeededFuture();
        }));
    }

    static int resolvePort(IntOrString port, List<ContainerPort> ports) {
        if (port == null) {
            throw new IllegalArgumentException("httpGet preStop hook has no port");
        }
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        String name = port.getStrVal();
        if (ports != null) {
            for (ContainerPort p : ports) {
                if (name.equals(p.getName()) && p.getContainerPort() != null) {
                    return p.getContainerPort();
                }
            }
        }
        try {
            return Integer.parseInt(name);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("httpGet preStop hook port " + name + " is not a port of the container");
        }
    }

    public Future<Void> close() {
        return http.close();
    }
}
