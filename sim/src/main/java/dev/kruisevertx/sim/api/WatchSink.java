package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Where a watch writes its events: a chunked HTTP response or a WebSocket. */
public interface WatchSink {
    void send(ObjectNode event);

    /** Ends the stream (timeout, 410, server shutdown). */
    void end();

    /** Registers what to do when the client goes away. */
    void onClose(Runnable action);
}
