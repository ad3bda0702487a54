package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

import java.util.List;

/**
 * One open watch: replays the event log from the requested resourceVersion (or the current state as ADDED
 * when none is given), then forwards live events, translating label/field selector transitions into
 * ADDED/DELETED as kube-apiserver does. Sends BOOKMARKs when asked and a 410 ERROR event when the requested
 * resourceVersion is older than the event log.
 */
public final class Watch {
    public record Options(String namespace, String name, LabelSelector labels, FieldSelector fields,
                          String resourceVersion, boolean bookmarks, long timeoutSeconds) {
    }

    private final ApiServer api;
    private final ResourceType type;
    private final String version;
    private final Options options;
    private final WatchSink sink;
    private Runnable unlisten = () -> { };
    private long bookmarkTimer = -1;
    private long timeoutTimer = -1;
    private boolean closed;
    private Future<Void> delivered = Future.succeededFuture();
    /** Events held back by {@link WatchHolds}, in order; while any is here, later events queue behind it. */
    private final java.util.ArrayDeque<StoredEvent> lagging = new java.util.ArrayDeque<>();

    public Watch(ApiServer api, ResourceType type, String version, Options options, WatchSink sink) {
        this.api = api;
        this.type = type;
        this.version = version;
        this.options = options;
        this.sink = sink;
    }

    /**
     * Starts the watch; {@code bookmarkIntervalMs} paces BOOKMARK events. The caller closes it when the client
     * goes away.
     */
    public void start(long bookmarkIntervalMs) {
        ObjectStore store = api.store();
        String rv = options.resourceVersion();
        if (rv == null || rv.isEmpty() || rv.equals("0")) {
            for (ObjectNode o : store.list(type, type.namespaced() ? options.namespace() : null).values()) {
                if (matches(o)) {
                    emit("ADDED", o);
                }
            }
        } else {
            long from;
            try {
                from = Long.parseLong(rv);
            } catch (NumberFormatException e) {
                sendError(ApiException.badRequest("invalid resource version \"" + rv + "\""));
                return;
            }
            List<StoredEvent> replay = store.eventsAfter(type, from);
            if (replay == null) {
                sendError(new ApiException(410, "Expired", "too old resource version: " + from + " ("
                        + store.currentResourceVersion() + ")"));
                return;
            }
            replay.forEach(this::deliver);
        }
        unlisten = store.listen(type, this::deliver);
        if (options.bookmarks()) {
            bookmarkTimer = api.vertx().setPeriodic(bookmarkIntervalMs, id -> bookmark());
        }
        if (options.timeoutSeconds() > 0) {
            timeoutTimer = api.vertx().setTimer(options.timeoutSeconds() * 1000, id -> {
                close();
                sink.end();
            });
        }
    }

    private boolean matches(ObjectNode o) {
        if (o == null) {
            return false;
        }
        JsonPaths.Meta m = JsonPaths.meta(o);
        if (type.namespaced() && options.namespace() != null && !options.namespace().equals(m.namespace())) {
            return false;
        }
        if (options.name() != null && !options.name().equals(m.name())) {
            return false;
        }
        return options.labels().matches(o) && options.fields().matches(o);
    }

    private void deliver(StoredEvent e) {
        if (closed) {
            return;
        }
        if (!lagging.isEmpty() || held(e)) {
            if (lagging.isEmpty()) {
                api.watchHolds().whenReleased(this::catchUp);
            }
            lagging.add(e);
            return;
        }
        deliverNow(e);
    }

    private boolean held(StoredEvent e) {
        return api.watchHolds().holds(type, JsonPaths.meta(e.object()).namespace());
    }

    private void catchUp() {
        while (!closed && !lagging.isEmpty()) {
            if (held(lagging.peek())) {
                api.watchHolds().whenReleased(this::catchUp);
                return;
            }
            deliverNow(lagging.poll());
        }
    }

    private void deliverNow(StoredEvent e) {
        boolean was = matches(e.previous());
        boolean is = !e.type().equals("DELETED") && matches(e.object());
        if (e.type().equals("DELETED")) {
            if (was) {
                emit("DELETED", e.object());
            }
        } else if (was && is) {
            emit("MODIFIED", e.object());
        } else if (is) {
            emit("ADDED", e.object());
        } else if (was) {
            emit("DELETED", e.object());
        }
    }

    private void emit(String eventType, ObjectNode object) {
        // Conversion may be asynchronous; chaining keeps events in order (it completes at once when none is needed).
        delivered = delivered.compose(v -> api.view(type, object, version)).<Void>map(o -> {
            if (!closed) {
                ObjectNode event = JsonNodeFactory.instance.objectNode();
                event.put("type", eventType);
                event.set("object", o);
                sink.send(event);
            }
            return null;
        }).recover(e -> {
            if (!closed) {
                sendError(e instanceof ApiException a ? a : new ApiException(500, "InternalError", "watch event conversion failed: " + e.getMessage()));
            }
            return Future.succeededFuture();
        });
    }

    private void bookmark() {
        if (closed || !delivered.isComplete() || !lagging.isEmpty()) {
            // A bookmark past held events would let a resuming client skip them.
            return;
        }
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("type", "BOOKMARK");
        ObjectNode object = event.putObject("object");
        object.put("kind", type.kind()).put("apiVersion", type.apiVersion(version));
        object.putObject("metadata").put("resourceVersion", Long.toString(api.store().currentResourceVersion()));
        sink.send(event);
    }

    private void sendError(ApiException error) {
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("type", "ERROR");
        event.set("object", error.toStatus());
        sink.send(event);
        close();
        sink.end();
    }

    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        unlisten.run();
        if (bookmarkTimer >= 0) {
            api.vertx().cancelTimer(bookmarkTimer);
        }
        if (timeoutTimer >= 0) {
            api.vertx().cancelTimer(timeoutTimer);
        }
    }
}
