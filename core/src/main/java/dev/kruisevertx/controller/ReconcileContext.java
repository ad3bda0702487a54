package dev.kruisevertx.controller;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who is reconciling what right now: the controller, the key, what put the key in the queue and a process-wide
 * sequence number (the reconcile id). The runtime runs each reconcile on a duplicated Vert.x context that holds it
 * as context-local data, so it follows the reconcile through every Future hop, on the event loop and on the worker
 * threads of {@code executeBlocking} alike (a thread-local MDC would not). {@link ReconcileLogContext} puts it on
 * every log line; the {@link PlanRecorder} on every {@code /debug/plans} entry.
 *
 * @param trigger what enqueued the key, e.g. {@code "Pod UPDATED ns/web-x"}, {@code "retry"} or {@code "requeueAfter"}
 */
public record ReconcileContext(String controller, String key, String trigger, long id) {
    /** Log context keys (MDC), in text and JSON logs alike. */
    public static final String MDC_CONTROLLER = "controller";
    public static final String MDC_KEY = "reconcileKey";
    public static final String MDC_ID = "reconcileId";
    public static final String MDC_TRIGGER = "trigger";

    private static final String LOCAL_KEY = ReconcileContext.class.getName();
    private static final AtomicLong SEQUENCE = new AtomicLong();

    /** A new context with the next reconcile id. */
    public static ReconcileContext next(String controller, String key, String trigger) {
        return new ReconcileContext(controller, key, trigger, SEQUENCE.incrementAndGet());
    }

    /** The reconcile the calling code runs in, or null outside of one. */
    public static ReconcileContext current() {
        Context context = Vertx.currentContext();
        return context instanceof ContextInternal internal ? internal.getLocal(LOCAL_KEY) : null;
    }

    /**
     * A duplicate of {@code parent} (same event loop, same ordering) carrying this reconcile: code run on it, and
     * every Future and blocking call started from it, sees {@link #current()} return this.
     */
    public Context attachTo(Context parent) {
        ContextInternal duplicate = ((ContextInternal) parent).duplicate();
        duplicate.putLocal(LOCAL_KEY, this);
        return duplicate;
    }

    /** The log context of this reconcile. */
    public Map<String, String> logContext() {
        Map<String, String> m = new LinkedHashMap<>(4);
        m.put(MDC_CONTROLLER, controller);
        m.put(MDC_KEY, key);
        m.put(MDC_ID, Long.toString(id));
        if (trigger != null) {
            m.put(MDC_TRIGGER, trigger);
        }
        return m;
    }
}
