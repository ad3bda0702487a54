package dev.kruisevertx.sim.faults;

/** The kinds of failure {@link FaultProxy} injects, each counted on its own. */
public enum FaultClass {
    /** A write answered 409 Conflict without reaching the API server. */
    CONFLICT,
    /** 429 Too Many Requests with a Retry-After header. */
    TOO_MANY_REQUESTS,
    /** 500 Internal Server Error. */
    INTERNAL_ERROR,
    /** 503 Service Unavailable. */
    UNAVAILABLE,
    /** Forwarded, but only after a delay. */
    SLOW,
    /** Held without an answer, then the connection is closed: what a client sees when a request times out. */
    TIMEOUT,
    /** The connection closed before any answer. */
    CONNECTION_RESET,
    /** A watch (chunked or WebSocket) forwarded, then cut off mid-way. */
    WATCH_DROPPED,
    /** A watch resuming from a resourceVersion answered with a 410 Gone ERROR event ("too old resource version"). */
    WATCH_GONE,
    /** A request refused (connection closed) during a partition; open watches are cut when it starts. */
    PARTITION
}
