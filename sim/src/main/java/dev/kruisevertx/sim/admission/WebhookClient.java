package dev.kruisevertx.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SocketAddress;

import java.net.URI;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Calls a webhook described by a {@code clientConfig} (admission or CRD conversion) the way kube-apiserver does:
 * HTTPS POST of a JSON review, the server certificate verified against {@code caBundle} and against the URL's
 * host or the service's DNS name ({@code <name>.<namespace>.svc}). A {@code service} reference connects to the
 * local address configured for it.
 */
public final class WebhookClient {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Distinct caBundles kept open at once. */
    static final int MAX_CLIENTS = 8;

    private final Vertx vertx;
    private final Map<String, String> serviceAddresses;
    /**
     * One client per caBundle (its trust differs), least recently used first. Rotations and stale configurations
     * would otherwise add a client (and its connection pool) per bundle forever; the oldest is closed past the cap.
     */
    private final Map<String, HttpClient> clients = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, HttpClient> eldest) {
            if (size() <= MAX_CLIENTS) {
                return false;
            }
            eldest.getValue().close();
            return true;
        }
    };

    /** {@code serviceAddresses}: {@code "namespace/name"} or {@code "namespace/name:port"} to {@code "host:port"}. */
    public WebhookClient(Vertx vertx, Map<String, String> serviceAddresses) {
        this.vertx = vertx;
        this.serviceAddresses = Map.copyOf(serviceAddresses);
    }

    /** Posts {@code review}; succeeds with the parsed answer of an HTTP 200, fails with a readable reason otherwise. */
    public Future<JsonNode> post(JsonNode clientConfig, long timeoutMs, ObjectNode review) {
        JsonNode cc = clientConfig;
        String caBundle = cc.path("caBundle").asText("");
        String host;
        int port;
        String path;
        SocketAddress connectTo;
        if (cc.hasNonNull("url")) {
            URI uri;
            try {
                uri = URI.create(cc.path("url").asText());
            } catch (IllegalArgumentException e) {
                return Future.failedFuture(new IllegalArgumentException("invalid url " + cc.path("url").asText()));
            }
            if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
                return Future.failedFuture(new IllegalArgumentException("webhook url must be https://host[:port]/path, got " + uri));
            }
            host = uri.getHost();
            port = uri.getPort() < 0 ? 443 : uri.getPort();
            path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            connectTo = SocketAddress.inetSocketAddress(port, host);
        } else if (cc.has("service")) {
            JsonNode svc = cc.path("service");
            String ns = svc.path("namespace").asText();
            String name = svc.path("name").asText();
            port = svc.path("port").asInt(443);
            path = svc.path("path").asText("/");
            host = name + "." + ns + ".svc";
            String mapped = serviceAddresses.getOrDefault(ns + "/" + name + ":" + port, serviceAddresses.get(ns + "/" + name));
            if (mapped == null) {
                return Future.failedFuture(new IllegalStateException("service " + ns + "/" + name
                        + " has no local address in this embedded cluster (EmbeddedClusterOptions.mapService)"));
            }
            int colon = mapped.lastIndexOf(':');
            int mappedPort;
            try {
                mappedPort = Integer.parseInt(mapped.substring(colon + 1));
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                return Future.failedFuture(new IllegalStateException("mapped address \"" + mapped + "\" for service " + ns + "/" + name + " needs host:port"));
            }
            connectTo = SocketAddress.inetSocketAddress(mappedPort, mapped.substring(0, colon));
        } else {
            return Future.failedFuture(new IllegalArgumentException("the webhook has neither clientConfig.url nor clientConfig.service"));
        }
        HttpClient client;
        try {
            client = client(caBundle);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
        }
        RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port).setURI(path)
                .setServer(connectTo).setSsl(true).setIdleTimeout(timeoutMs).setConnectTimeout(timeoutMs)
                .putHeader("Content-Type", "application/json").putHeader("Accept", "application/json");
        Buffer body;
        try {
            body = Buffer.buffer(MAPPER.writeValueAsBytes(review));
        } catch (Exception e) {
            return Future.failedFuture(e);
        }
        return client.request(ro)
                .compose(r -> r.send(body))
                .compose(resp -> resp.body().map(b -> {
                    if (resp.statusCode() != 200) {
                        throw new IllegalStateException("the webhook answered HTTP " + resp.statusCode() + ": " + b.toString());
                    }
                    try {
                        return MAPPER.readTree(b.getBytes());
                    } catch (Exception e) {
                        throw new IllegalStateException("the webhook's answer is not JSON: " + e.getMessage());
                    }
                }))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private HttpClient client(String caBundle) {
        return clients.computeIfAbsent(caBundle, ca -> {
            HttpClientOptions o = new HttpClientOptions().setSsl(true).setVerifyHost(true).setForceSni(true);
            if (!ca.isEmpty()) {
                byte[] pem;
                try {
                    pem = Base64.getDecoder().decode(ca);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("caBundle is not valid base64");
                }
                o.setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(pem)));
            }
            return vertx.createHttpClient(o);
        });
    }

    /** How many clients are open (one per distinct caBundle, at most {@link #MAX_CLIENTS}). */
    int openClients() {
        return clients.size();
    }
}
