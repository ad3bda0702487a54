package dev.kruisevertx.sim.api;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Lagging watches on demand, for tests of what a controller does while its cache is behind its own writes: while
 * resource R in namespace N is held, every open watch of R keeps the events of R's objects in N (and everything that
 * follows them on that watch, so the stream stays in order, as a slow watch on a real cluster does) until it is
 * released. Writes, reads and lists answer as usual; only watches lag. Used on the API server's context only.
 */
public final class WatchHolds {
    private final Set<String> held = new HashSet<>();
    private List<Runnable> waiting = new ArrayList<>();

    private static String key(String resourceKey, String namespace) {
        return resourceKey + "|" + namespace;
    }

    /** Holds the watch events of the resource keyed {@code resourceKey} ({@link ResourceType#key()}, e.g. {@code pods}) in {@code namespace}. */
    public void hold(String resourceKey, String namespace) {
        held.add(key(resourceKey, namespace));
    }

    /** Lets the held events of {@code resourceKey} in {@code namespace} go, in their order. */
    public void release(String resourceKey, String namespace) {
        if (held.remove(key(resourceKey, namespace))) {
            List<Runnable> run = waiting;
            waiting = new ArrayList<>();
            run.forEach(Runnable::run);
        }
    }

    boolean holds(ResourceType type, String namespace) {
        return !held.isEmpty() && namespace != null && held.contains(key(type.key(), namespace));
    }

    /** Runs {@code action} at the next release (of anything: the watch looks again at what it still holds). */
    void whenReleased(Runnable action) {
        waiting.add(action);
    }
}
