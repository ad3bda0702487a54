package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The API server's service proxy, {@code /api/v1/namespaces/NS/services/[SCHEME:]NAME[:PORT]/proxy/PATH}, as
 * kube-apiserver serves it: the Service must exist, its port is found by number or name, and the request goes to
 * an endpoint of that port. The embedded cluster runs no pods for the Services of processes on this machine (the
 * manager), so an endpoint is whatever {@link #map} set for the Service's port: without one the answer is kube's
 * 503 "no endpoints available for service". Plain HTTP only, as the manager's metrics listener.
 */
public final class ServiceProxy {
    private final Map<String, String> endpoints = new ConcurrentHashMap<>();
    private final HttpClient http;

    /** The proxied response: status, content type and body as the endpoint sent them. */
    public record Answer(int status, String contentType, Buffer body) {
    }

    public ServiceProxy(Vertx vertx) {
        this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5_000).setKeepAlive(false));
    }

    /** Requests to {@code namespace/name}'s port {@code port} (a number) go to {@code host:port}. */
    public void map(String namespace, String name, int port, String hostAndPort) {
        endpoints.put(namespace + "/" + name + ":" + port, hostAndPort);
    }

    public void unmap(String namespace, String name, int port) {
        endpoints.remove(namespace + "/" + name + ":" + port);
    }

    /**
     * Forwards one request. {@code nameAndPort} is the path segment ({@code name}, {@code name:port},
     * {@code http:name:port}); {@code service} the stored Service.
     */
    Future<Answer> forward(String namespace, String nameAndPort, JsonNode service, HttpMethod method, String path,
                           String query, MultiMap headers, Buffer body) {
        String[] parts = nameAndPort.split(":", -1);
        String name;
        String port = null;
        if (parts.length == 3) {
            if (!parts[0].equals("http")) {
                return Future.failedFuture(new ApiException(503, "ServiceUnavailable",
                        "the embedded API server proxies plain http only, got scheme \"" + parts[0] + "\""));
            }
            name = parts[1];
            port = parts[2];
        } else if (parts.length == 2) {
            name = parts[0];
            port = parts[1];
        } else {
            name = parts[0];
        }
        Integer number = portOf(service, port);
        if (number == null) {
            return Future.failedFuture(new ApiException(503, "ServiceUnavailable", "no endpoints available for service \""
                    + name + "\"" + (port == null ? "" : " (no port " + port + ")")));
        }
        String target = endpoints.get(namespace + "/" + name + ":" + number);
        if (target == null) {
            return Future.failedFuture(new ApiException(503, "ServiceUnavailable",
                    "no endpoints available for service \"" + name + "\""));
        }
        int colon = target.lastIndexOf(':');
        RequestOptions options = new RequestOptions().setMethod(method).setHost(target.substring(0, colon))
                .setPort(Integer.parseInt(target.substring(colon + 1)))
                .setURI((path.startsWith("/") ? path : "/" + path) + (query == null || query.isEmpty() ? "" : "?" + query));
        String accept = headers.get("Accept");
        if (accept != null) {
            options.putHeader("Accept", accept);
        }
        return http.request(options)
                .compose(req -> req.send(body))
                .compose(resp -> resp.body().map(b -> new Answer(resp.statusCode(),
                        resp.getHeader("Content-Type"), b)))
                .recover(e -> e instanceof ApiException ? Future.failedFuture(e)
                        : Future.failedFuture(new ApiException(503, "ServiceUnavailable",
                        "error trying to reach service: " + e.getMessage())));
    }

    /** The Service port a path names, by number or name; the only port when none is named. */
    private static Integer portOf(JsonNode service, String port) {
        JsonNode ports = service.path("spec").path("ports");
        if (port == null || port.isEmpty()) {
            return ports.size() == 1 ? ports.get(0).path("port").asInt() : null;
        }
        for (JsonNode p : ports) {
            if (port.equals(p.path("name").asText(null)) || port.equals(p.path("port").asText())) {
                return p.path("port").asInt();
            }
        }
        return null;
    }

    public Future<Void> close() {
        return http.close();
    }
}
