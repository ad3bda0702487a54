package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP face of {@link ApiServer}: kube-apiserver's URL layout, JSON bodies, Status errors, watches over
 * chunked HTTP ({@code ?watch=true}) and over WebSocket. Everything runs on the context that created it.
 */
public final class ApiHttpServer {
    private static final Logger LOG = LoggerFactory.getLogger(ApiHttpServer.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectMapper YAML_MAPPER = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper();

    private final Vertx vertx;
    private final ApiServer api;
    private final Discovery discovery;
    private final OpenApi openApi;
    private final long bookmarkIntervalMs;
    private final List<Watch> watches = new ArrayList<>();
    /** Serves {@code /sim/...} (the simulator's own endpoints) when set; blocking, so run on a worker. */
    private volatile SimEndpoint simEndpoint;

    /** A blocking handler of the simulator's own endpoints: method, path, body to status code and JSON. */
    public interface SimEndpoint {
        Reply handle(String method, String path, String body);
    }

    public void setSimEndpoint(SimEndpoint endpoint) {
        this.simEndpoint = endpoint;
    }
    private HttpServer server;
    private final ServiceProxy serviceProxy;

    public ApiHttpServer(Vertx vertx, ApiServer api, long bookmarkIntervalMs) {
        this.vertx = vertx;
        this.api = api;
        this.serviceProxy = new ServiceProxy(vertx);
        this.discovery = new Discovery(api.registry());
        this.openApi = new OpenApi(api.registry());
        this.bookmarkIntervalMs = bookmarkIntervalMs;
    }

    public Future<Integer> listen(String host, int port) {
        // No h2c upgrade: a real API server speaks HTTP/2 only over TLS, and the JDK client's cleartext
        // upgrade was seen to stall a large list body mid-way.
        server = vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(port)
                .setHttp2ClearTextEnabled(false)
                .setMaxWebSocketFrameSize(16 * 1024 * 1024).setMaxWebSocketMessageSize(64 * 1024 * 1024))
                .webSocketHandler(this::webSocket)
                .requestHandler(this::request);
        // The protobuf descriptors take seconds to load on a busy machine: load them on a worker before the first
        // request, or the first answer would load them on the event loop.
        return vertx.executeBlocking(() -> {
            KubeProtobuf.warmUp();
            return null;
        }).compose(v -> server.listen()).map(HttpServer::actualPort);
    }

    public Future<Void> close() {
        new ArrayList<>(watches).forEach(Watch::close);
        serviceProxy.close();
        return server == null ? Future.succeededFuture() : server.close();
    }

    /** Where {@code /api/v1/namespaces/NS/services/NAME:PORT/proxy/...} goes. */
    public ServiceProxy serviceProxy() {
        return serviceProxy;
    }

    /** A parsed resource URL. {@code plural} is null for discovery paths. */
    record Target(String group, String version, String namespace, String plural, String name, String subresource) {
    }

    static Target parse(String path) {
        String[] raw = path.split("/");
        List<String> s = new ArrayList<>();
        for (String p : raw) {
            if (!p.isEmpty()) {
                s.add(p);
            }
        }
        int i;
        String group;
        String version;
        if (s.size() >= 2 && s.get(0).equals("api")) {
            group = "";
            version = s.get(1);
            i = 2;
        } else if (s.size() >= 3 && s.get(0).equals("apis")) {
            group = s.get(1);
            version = s.get(2);
            i = 3;
        } else {
            return null;
        }
        List<String> rest = s.subList(i, s.size());
        if (rest.isEmpty()) {
            return new Target(group, version, null, null, null, null);
        }
        if (rest.get(0).equals("namespaces") && rest.size() >= 3) {
            String ns = rest.get(1);
            String third = rest.get(2);
            // namespaces/<name>/status and /finalize are the namespace's own subresources.
            if (rest.size() == 3 && group.isEmpty() && (third.equals("status") || third.equals("finalize"))) {
                return new Target(group, version, null, "namespaces", ns, third);
            }
            return new Target(group, version, ns, third, rest.size() > 3 ? rest.get(3) : null,
                    rest.size() > 4 ? String.join("/", rest.subList(4, rest.size())) : null);
        }
        return new Target(group, version, null, rest.get(0), rest.size() > 1 ? rest.get(1) : null,
                rest.size() > 2 ? String.join("/", rest.subList(2, rest.size())) : null);
    }

    private void request(HttpServerRequest req) {
        req.body().onComplete(ar -> {
            if (ar.failed()) {
                return;
            }
            Buffer raw = ar.result();
            if (raw.length() > LARGE_BODY_BYTES && req.method() != HttpMethod.GET) {
                // Decoding grows with the body (a protobuf one also walks every field): big ones go to a worker.
                String contentType = req.getHeader("Content-Type");
                boolean patch = req.method() == HttpMethod.PATCH;
                vertx.executeBlocking(() -> RequestBody.decoded(raw, contentType, patch), false)
                        .onComplete(decoded -> answer(req, decoded.result()));
            } else {
                answer(req, new RequestBody(raw, req.getHeader("Content-Type")));
            }
        });
    }

    private void answer(HttpServerRequest req, RequestBody body) {
        Future<Reply> reply;
        try {
            reply = route(req, body);
        } catch (ApiException e) {
            reply = Future.failedFuture(e);
        } catch (RuntimeException e) {
            LOG.warn("embedded API server failed on {} {}", req.method(), req.uri(), e);
            reply = Future.failedFuture(e);
        }
        if (reply == null) {
            return;
        }
        // Objects and their Status errors go in the media type the client asks for; discovery and OpenAPI stay JSON.
        Target target = parse(req.path());
        String accept = target != null && target.plural() != null ? req.getHeader("Accept") : null;
        reply.onComplete(r -> {
            HttpServerResponse resp = req.response();
            if (r.succeeded() && isLargeList(r.result().body())) {
                // Stored objects are never mutated after put, so a big list is encoded on a worker: thousands
                // of pods would hold the API server's event loop for a noticeable time.
                int code = r.result().code();
                JsonNode list = r.result().body();
                vertx.executeBlocking(() -> Encoded.of(accept, list), false).onComplete(encoded -> {
                    if (resp.closed() || resp.ended()) {
                        return;
                    }
                    if (encoded.succeeded()) {
                        encoded.result().write(resp, code);
                    } else {
                        resp.setStatusCode(500).end();
                    }
                });
            } else if (r.succeeded()) {
                write(resp, r.result().code(), r.result().body(), accept);
            } else {
                ApiException e = r.cause() instanceof ApiException a ? a
                        : new ApiException(500, "InternalError", "Internal error occurred: " + r.cause());
                write(resp, e.code(), e.toStatus(), accept);
            }
        });
    }

    /** An answer's bytes in the negotiated media type. */
    record Encoded(String contentType, byte[] bytes, int codeOverride) {
        /**
         * Encodes in the type the Accept header asks for; a 406 Status (JSON) when none can be written; JSON when a
         * stored value does not fit the protobuf message (no Go object could hold it either).
         */
        static Encoded of(String accept, JsonNode body) throws JsonProcessingException {
            ResponseMedia media;
            try {
                media = ResponseMedia.negotiate(accept, KubeProtobuf.encodable(body));
            } catch (ApiException e) {
                return new Encoded(ResponseMedia.JSON.contentType, MAPPER.writeValueAsBytes(e.toStatus()), e.code());
            }
            switch (media) {
                case PROTOBUF:
                    try {
                        return new Encoded(media.contentType, KubeProtobuf.encode(body), 0);
                    } catch (JsonProto.NotEncodable e) {
                        LOG.info("answering {} {} in JSON: {}", body.path("kind").asText(),
                                body.path("metadata").path("name").asText(), e.getMessage());
                        return new Encoded(ResponseMedia.JSON.contentType, MAPPER.writeValueAsBytes(body), 0);
                    }
                case YAML:
                    return new Encoded(media.contentType, YAML_MAPPER.writeValueAsBytes(body), 0);
                default:
                    return new Encoded(media.contentType, MAPPER.writeValueAsBytes(body), 0);
            }
        }

        void write(HttpServerResponse resp, int code) {
            resp.setStatusCode(codeOverride != 0 ? codeOverride : code).putHeader("Content-Type", contentType)
                    .end(Buffer.buffer(bytes));
        }
    }

    /** Bodies above this many bytes are decoded off the event loop. */
    static final int LARGE_BODY_BYTES = 64 * 1024;

    /**
     * A request body read by its Content-Type on first use (the service proxy and {@code /sim/} take it raw);
     * {@link #decoded} reads it ahead, keeping a refusal to throw when it is used.
     */
    static final class RequestBody {
        final Buffer raw;
        private final String contentType;
        private JsonNode object;
        private JsonNode patch;
        private ApiException refusal;

        RequestBody(Buffer raw, String contentType) {
            this.raw = raw;
            this.contentType = contentType;
        }

        static RequestBody decoded(Buffer raw, String contentType, boolean patch) {
            RequestBody b = new RequestBody(raw, contentType);
            try {
                if (patch) {
                    b.patch = RequestBodies.patch(contentType, raw.getBytes());
                } else {
                    b.object = RequestBodies.object(contentType, raw.getBytes());
                }
            } catch (ApiException e) {
                b.refusal = e;
            } catch (RuntimeException e) {
                b.refusal = ApiException.badRequest("the request body could not be decoded: " + e.getMessage());
            }
            return b;
        }

        int length() {
            return raw.length();
        }

        JsonNode object() {
            if (refusal != null) {
                throw refusal;
            }
            if (object == null) {
                object = RequestBodies.object(contentType, raw.getBytes());
            }
            return object;
        }

        JsonNode patch() {
            if (refusal != null) {
                throw refusal;
            }
            if (patch == null) {
                patch = RequestBodies.patch(contentType, raw.getBytes());
            }
            return patch;
        }
    }

    public record Reply(int code, JsonNode body) {
        static Reply ok(JsonNode body) {
            return new Reply(200, body);
        }
    }

    /** Lists above this many items are encoded off the event loop. */
    static final int LARGE_LIST_ITEMS = 200;

    static boolean isLargeList(JsonNode body) {
        return body != null && body.path("items").isArray() && body.path("items").size() > LARGE_LIST_ITEMS;
    }

    private static void write(HttpServerResponse resp, int code, JsonNode body) {
        write(resp, code, body, null);
    }

    private static void write(HttpServerResponse resp, int code, JsonNode body, String accept) {
        if (resp.closed() || resp.ended()) {
            return;
        }
        try {
            Encoded.of(accept, body).write(resp, code);
        } catch (JsonProcessingException e) {
            resp.setStatusCode(500).end();
        }
    }

    /** Returns null when the request was answered as a stream (watch). */
    private Future<Reply> route(HttpServerRequest req, RequestBody body) {
        String path = req.path();
        HttpMethod method = req.method();
        MultiMap q = req.params();
        switch (path) {
            case "/version", "/version/":
                return Future.succeededFuture(Reply.ok(discovery.version()));
            case "/api", "/api/":
                return Future.succeededFuture(Reply.ok(discovery.coreVersions(req.authority() == null ? "127.0.0.1" : req.authority().toString())));
            case "/apis", "/apis/":
                return Future.succeededFuture(Reply.ok(discovery.groups()));
            case "/openapi/v3", "/openapi/v3/":
                return Future.succeededFuture(Reply.ok(openApi.index()));
            case "/healthz", "/readyz", "/livez":
                req.response().putHeader("Content-Type", "text/plain").end("ok");
                return null;
            default:
                break;
        }
        SimEndpoint sim = simEndpoint;
        if (sim != null && path.startsWith("/sim/")) {
            String text = body.raw.toString(java.nio.charset.StandardCharsets.UTF_8);
            return vertx.executeBlocking(() -> sim.handle(method.name(), path, text), false);
        }
        if (path.startsWith("/openapi/v3/")) {
            Target gv = parse(path.substring("/openapi/v3".length()));
            ObjectNode doc = gv == null || gv.plural() != null ? null : openApi.groupVersion(gv.group(), gv.version());
            if (doc == null) {
                throw new ApiException(404, "NotFound", "the server could not find the requested resource");
            }
            return Future.succeededFuture(Reply.ok(doc));
        }
        if (path.startsWith("/apis/") && path.split("/").length == 3) {
            return Future.succeededFuture(Reply.ok(discovery.group(path.split("/")[2])));
        }
        Target t = parse(path);
        if (t == null) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource");
        }
        if (t.plural() == null) {
            return Future.succeededFuture(Reply.ok(discovery.resources(t.group(), t.version())));
        }
        if (t.group().isEmpty() && t.plural().equals("services") && t.namespace() != null && t.name() != null
                && t.subresource() != null && (t.subresource().equals("proxy") || t.subresource().startsWith("proxy/"))) {
            proxy(req, body.raw, t);
            return null;
        }
        if (t.group().isEmpty() && t.plural().equals("bindings") && method == HttpMethod.POST) {
            return Future.succeededFuture(new Reply(201, api.bind(t.namespace(), null, body.object())));
        }
        ResourceType type = api.type(t.group(), t.version(), t.plural());
        if (type.namespaced() && t.namespace() == null && t.name() != null) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource");
        }
        if (!type.namespaced() && t.namespace() != null) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource");
        }
        boolean dryRun = q.contains("dryRun");
        String sub = t.subresource() == null ? "" : t.subresource();
        if (t.name() == null) {
            return collection(req, type, t, body, q);
        }
        if (sub.equals("scale")) {
            return scale(req, type, t, body, dryRun);
        }
        if (sub.equals("binding") && method == HttpMethod.POST && type.kind().equals("Pod")) {
            return Future.succeededFuture(new Reply(201, api.bind(t.namespace(), t.name(), body.object())));
        }
        if (sub.equals("eviction") && method == HttpMethod.POST && type.kind().equals("Pod")) {
            return api.evict(type, t.version(), t.namespace(), t.name(), body.object()).map(r -> new Reply(201, r));
        }
        if (sub.equals("ephemeralcontainers") && type.kind().equals("Pod") && !type.custom() && type.group().isEmpty()) {
            // GET, PUT and PATCH like the pod itself; only spec.ephemeralContainers may change (see ObjectPreparer).
        } else if (!sub.isEmpty() && !sub.equals("status")) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource (" + type.plural() + "/" + sub + ")");
        }
        if (sub.equals("status") && !type.statusSubresource()) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource (" + type.plural() + "/status)");
        }
        switch (method.name()) {
            case "GET": {
                boolean table = Tables.wanted(req.getHeader("Accept")) && sub.isEmpty();
                return api.get(type, t.version(), t.namespace(), t.name())
                        .map(o -> Reply.ok(table ? Tables.table(api, type, t.version(), o) : o));
            }
            case "PUT":
                return api.update(type, t.version(), t.namespace(), t.name(), sub, body.object(), dryRun).map(Reply::ok);
            case "PATCH":
                if (RequestBodies.mediaType(req.getHeader("Content-Type")).equals(Patches.APPLY_PATCH)) {
                    // Before the object is looked up: server-side apply of a new object would otherwise be a 404.
                    throw Patches.serverSideApply();
                }
                return api.patch(type, t.version(), t.namespace(), t.name(), sub, req.getHeader("Content-Type"), body.patch(), dryRun)
                        .map(Reply::ok);
            case "DELETE":
                if (!sub.isEmpty()) {
                    throw new ApiException(405, "MethodNotAllowed", "DELETE is not supported on " + sub);
                }
                DeleteOptions options = DeleteOptions.from(body.length() == 0 ? null : body.object(), toMap(q));
                return api.delete(type, t.version(), t.namespace(), t.name(), options)
                        .map(r -> new Reply(r.removed() ? 200 : 202, r.object()));
            default:
                throw new ApiException(405, "MethodNotAllowed", method + " is not supported on " + path);
        }
    }

    /** The service proxy: the Service must exist; the answer is the endpoint's, as it sent it. */
    private void proxy(HttpServerRequest req, Buffer body, Target t) {
        String nameAndPort = t.name();
        String[] parts = nameAndPort.split(":");
        String name = parts.length == 3 ? parts[1] : parts[0];
        String rest = t.subresource().length() > "proxy".length() ? t.subresource().substring("proxy".length()) : "/";
        ResourceType services = api.type("", "v1", "services");
        api.get(services, "v1", t.namespace(), name)
                .compose(svc -> serviceProxy.forward(t.namespace(), nameAndPort, svc, req.method(), rest, req.query(),
                        req.headers(), body))
                .onComplete(ar -> {
                    HttpServerResponse resp = req.response();
                    if (resp.closed() || resp.ended()) {
                        return;
                    }
                    if (ar.succeeded()) {
                        ServiceProxy.Answer a = ar.result();
                        if (a.contentType() != null) {
                            resp.putHeader("Content-Type", a.contentType());
                        }
                        resp.setStatusCode(a.status()).end(a.body());
                    } else {
                        ApiException e = ar.cause() instanceof ApiException x ? x
                                : new ApiException(500, "InternalError", "Internal error occurred: " + ar.cause());
                        write(resp, e.code(), e.toStatus());
                    }
                });
    }

    private Future<Reply> collection(HttpServerRequest req, ResourceType type, Target t, RequestBody body, MultiMap q) {
        switch (req.method().name()) {
            case "GET": {
                if (isTrue(q.get("watch"))) {
                    startChunkedWatch(req, type, t, q);
                    return null;
                }
                long limit = 0;
                if (q.get("limit") != null) {
                    try {
                        limit = Long.parseLong(q.get("limit"));
                    } catch (NumberFormatException e) {
                        throw ApiException.badRequest("limit must be an integer");
                    }
                }
                boolean table = Tables.wanted(req.getHeader("Accept"));
                return api.list(type, t.version(), t.namespace(), new ApiServer.ListOptions(
                        LabelSelector.parse(q.get("labelSelector")), FieldSelector.parse(q.get("fieldSelector")), limit, q.get("continue")))
                        .map(list -> Reply.ok(table ? Tables.table(api, type, t.version(), list) : list));
            }
            case "POST":
                return api.create(type, t.version(), t.namespace(), body.object(), q.contains("dryRun")).map(o -> new Reply(201, o));
            case "DELETE": {
                DeleteOptions options = DeleteOptions.from(body.length() == 0 ? null : body.object(), toMap(q));
                return api.deleteCollection(type, t.version(), t.namespace(), new ApiServer.ListOptions(
                        LabelSelector.parse(q.get("labelSelector")), FieldSelector.parse(q.get("fieldSelector")), 0, null), options)
                        .map(Reply::ok);
            }
            default:
                throw new ApiException(405, "MethodNotAllowed", req.method() + " is not supported on a collection");
        }
    }

    private Future<Reply> scale(HttpServerRequest req, ResourceType type, Target t, RequestBody body, boolean dryRun) {
        switch (req.method().name()) {
            case "GET":
                return Future.succeededFuture(Reply.ok(api.getScale(type, t.namespace(), t.name())));
            case "PUT": {
                JsonNode wanted = body.object();
                return api.writeScale(type, t.version(), t.namespace(), t.name(), current -> {
                    ObjectNode next = current.deepCopy();
                    next.set("spec", wanted.path("spec").deepCopy());
                    JsonNode rv = wanted.path("metadata").path("resourceVersion");
                    ((ObjectNode) next.get("metadata")).set("resourceVersion", rv.isMissingNode() ? null : rv);
                    if (rv.isMissingNode()) {
                        ((ObjectNode) next.get("metadata")).remove("resourceVersion");
                    }
                    return next;
                }, dryRun).map(Reply::ok);
            }
            case "PATCH": {
                JsonNode patch = body.patch();
                String contentType = req.getHeader("Content-Type");
                return api.writeScale(type, t.version(), t.namespace(), t.name(),
                        current -> (ObjectNode) Patches.apply(contentType, current, patch, true), dryRun).map(Reply::ok);
            }
            default:
                throw new ApiException(405, "MethodNotAllowed", req.method() + " is not supported on scale");
        }
    }

    private Watch.Options watchOptions(Target t, MultiMap q) {
        String name = t.name();
        return new Watch.Options(t.namespace(), name, LabelSelector.parse(q.get("labelSelector")), FieldSelector.parse(q.get("fieldSelector")),
                q.get("resourceVersion"), isTrue(q.get("allowWatchBookmarks")), parseLong(q.get("timeoutSeconds")));
    }

    private void startChunkedWatch(HttpServerRequest req, ResourceType type, Target t, MultiMap q) {
        LOG.debug("chunked watch {}", req.uri());
        Watch.Options options = watchOptions(t, q);
        boolean table = Tables.wanted(req.getHeader("Accept"));
        // As kube-apiserver: a client asking for protobuf first gets length-prefixed protobuf frames (client-go's
        // informers for built-in kinds do); Tables and custom kinds stream JSON, and YAML has no stream form.
        boolean protobuf = !table && ResponseMedia.negotiate(req.getHeader("Accept"),
                KubeProtobuf.answerType(type.apiVersion(t.version()), type.kind()) != null) == ResponseMedia.PROTOBUF;
        HttpServerResponse resp = req.response();
        resp.setChunked(true).putHeader("Content-Type", protobuf ? KubeProtobuf.MEDIA_TYPE + ";stream=watch"
                : "application/json").setStatusCode(200);
        WatchSink sink = new WatchSink() {
            @Override
            public void send(ObjectNode event) {
                if (!resp.ended() && !resp.closed()) {
                    try {
                        resp.write(protobuf ? Buffer.buffer(protobufEvent(event))
                                : Buffer.buffer(MAPPER.writeValueAsBytes(event)).appendString("\n"));
                    } catch (JsonProcessingException e) {
                        LOG.warn("cannot encode watch event", e);
                    }
                }
            }

            @Override
            public void end() {
                if (!resp.ended() && !resp.closed()) {
                    resp.end();
                }
            }

            @Override
            public void onClose(Runnable action) {
                resp.closeHandler(v -> action.run());
            }
        };
        open(type, t.version(), options, sink, table);
        // Headers go out now, as kube-apiserver flushes them: a client (client-go, java.net.http) returns from its
        // request only when they arrive, and a quiet watch would otherwise hold it until the first event.
        if (!resp.headWritten() && !resp.ended() && !resp.closed()) {
            resp.writeHead();
        }
    }

    /** One protobuf watch frame; an object that does not fit its message becomes an ERROR event naming it. */
    private static byte[] protobufEvent(ObjectNode event) {
        JsonNode object = event.path("object");
        try {
            return KubeProtobuf.watchFrame(event.path("type").asText(), KubeProtobuf.encode(object));
        } catch (JsonProto.NotEncodable e) {
            LOG.info("watch: {} {} cannot be sent as protobuf: {}", object.path("kind").asText(),
                    object.path("metadata").path("name").asText(), e.getMessage());
            ApiException error = new ApiException(500, "InternalError", "the embedded API server cannot write "
                    + object.path("kind").asText() + " " + object.path("metadata").path("name").asText()
                    + " as protobuf: " + e.getMessage());
            return KubeProtobuf.watchFrame("ERROR", KubeProtobuf.encode(error.toStatus()));
        }
    }

    private void webSocket(ServerWebSocket ws) {
        LOG.debug("websocket watch {}?{}", ws.path(), ws.query());
        Target t = parse(ws.path());
        MultiMap q = MultiMap.caseInsensitiveMultiMap();
        if (ws.query() != null) {
            io.netty.handler.codec.http.QueryStringDecoder d = new io.netty.handler.codec.http.QueryStringDecoder(ws.query(), false);
            d.parameters().forEach(q::add);
        }
        ResourceType type;
        try {
            if (t == null || t.plural() == null) {
                throw new ApiException(404, "NotFound", "the server could not find the requested resource");
            }
            type = api.type(t.group(), t.version(), t.plural());
        } catch (ApiException e) {
            ws.close((short) 1008, e.getMessage());
            return;
        }

        WatchSink sink = new WatchSink() {
            @Override
            public void send(ObjectNode event) {
                if (!ws.isClosed()) {
                    try {
                        ws.writeTextMessage(MAPPER.writeValueAsString(event));
                    } catch (JsonProcessingException e) {
                        LOG.warn("cannot encode watch event", e);
                    }
                }
            }

            @Override
            public void end() {
                if (!ws.isClosed()) {
                    ws.close();
                }
            }

            @Override
            public void onClose(Runnable action) {
                ws.closeHandler(v -> action.run());
            }
        };
        try {
            open(type, t.version(), watchOptions(t, q), sink, false);
        } catch (ApiException e) {
            ws.close((short) 1008, e.getMessage());
        }
    }

    private void open(ResourceType type, String version, Watch.Options options, WatchSink sink, boolean asTable) {
        WatchSink out = !asTable ? sink : new WatchSink() {
            @Override
            public void send(ObjectNode event) {
                String eventType = event.path("type").asText();
                if (!eventType.equals("ERROR") && !eventType.equals("BOOKMARK")) {
                    event.set("object", Tables.table(api, type, version, event.path("object")));
                }
                sink.send(event);
            }

            @Override
            public void end() {
                sink.end();
            }

            @Override
            public void onClose(Runnable action) {
                sink.onClose(action);
            }
        };
        Watch watch = new Watch(api, type, version, options, out);
        watches.add(watch);
        sink.onClose(() -> {
            watch.close();
            watches.remove(watch);
        });
        watch.start(bookmarkIntervalMs);
    }

    private static boolean isTrue(String s) {
        return "true".equalsIgnoreCase(s) || "1".equals(s);
    }

    private static long parseLong(String s) {
        if (s == null || s.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("\"" + s + "\" is not an integer");
        }
    }

    private static Map<String, String> toMap(MultiMap q) {
        Map<String, String> m = new HashMap<>();
        q.forEach(e -> m.putIfAbsent(e.getKey(), e.getValue()));
        return m;
    }
}
