package dev.kruisevertx.sim.faults;

/**
 * One request the proxy saw: when (epoch millis), what, and what became of it.
 *
 * @param forwarded whether it reached the API server (a write that did changed the cluster, unless refused there)
 * @param status    the status the client got, or 0 when the connection was closed instead
 * @param fault     the fault injected, or null
 */
public record ProxiedRequest(long atMillis, String method, String path, boolean watch, boolean forwarded, int status,
                             FaultClass fault) {
    public boolean isWrite() {
        return FaultProxy.isWrite(method);
    }
}
