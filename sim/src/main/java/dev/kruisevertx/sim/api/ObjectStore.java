package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Objects of every resource, one global resourceVersion counter, and a bounded event log per resource.
 * Stored objects are never mutated after {@code put}: writers store fresh copies. Single-threaded: every
 * call comes from the API server's context.
 */
public final class ObjectStore {
    private final int eventLogSize;
    private final Map<String, Bucket> buckets = new HashMap<>();
    private long resourceVersion = 1;

    private static final class Bucket {
        final TreeMap<String, ObjectNode> objects = new TreeMap<>();
        final Deque<StoredEvent> log = new ArrayDeque<>();
        /** The newest resourceVersion dropped from the log; watches from before it get 410 Gone. */
        long compactedThrough;
        final List<Consumer<StoredEvent>> listeners = new CopyOnWriteArrayList<>();
    }

    public ObjectStore(int eventLogSize) {
        this.eventLogSize = Math.max(1, eventLogSize);
    }

    public static String key(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }

    private Bucket bucket(ResourceType type) {
        return buckets.computeIfAbsent(type.key(), k -> new Bucket());
    }

    public long currentResourceVersion() {
        return resourceVersion;
    }

    public ObjectNode get(ResourceType type, String namespace, String name) {
        return bucket(type).objects.get(key(namespace, name));
    }

    /** Objects in key order, in one namespace or all of them (null). */
    public NavigableMap<String, ObjectNode> list(ResourceType type, String namespace) {
        TreeMap<String, ObjectNode> objects = bucket(type).objects;
        if (namespace == null || !type.namespaced()) {
            return objects;
        }
        return objects.subMap(namespace + "/", true, namespace + "0", false);
    }

    public Collection<ObjectNode> all(ResourceType type) {
        return bucket(type).objects.values();
    }

    /** Stores a new or changed object under a new resourceVersion and records the event. */
    public ObjectNode put(ResourceType type, ObjectNode object) {
        ObjectNode meta = (ObjectNode) object.get("metadata");
        String k = key(meta.path("namespace").asText(null), meta.path("name").asText());
        Bucket bucket = bucket(type);
        long rv = ++resourceVersion;
        meta.put("resourceVersion", Long.toString(rv));
        ObjectNode previous = bucket.objects.put(k, object);
        record(bucket, new StoredEvent(rv, previous == null ? "ADDED" : "MODIFIED", previous, object));
        return object;
    }

    /** Removes an object; the DELETED event carries its final state under a new resourceVersion. */
    public ObjectNode remove(ResourceType type, String namespace, String name) {
        return remove(type, namespace, name, null);
    }

    /** Removes an object whose final state ({@code finalState}, e.g. with its last finalizer gone) differs from the stored one. */
    public ObjectNode remove(ResourceType type, String namespace, String name, ObjectNode finalState) {
        Bucket bucket = bucket(type);
        ObjectNode previous = bucket.objects.remove(key(namespace, name));
        if (previous == null) {
            return null;
        }
        ObjectNode last = finalState != null ? finalState.deepCopy() : previous.deepCopy();
        long rv = ++resourceVersion;
        ((ObjectNode) last.get("metadata")).put("resourceVersion", Long.toString(rv));
        record(bucket, new StoredEvent(rv, "DELETED", previous, last));
        return last;
    }

    /** Drops a whole resource (its CRD went away) after emitting DELETED for each object. */
    public void dropAll(ResourceType type) {
        for (ObjectNode o : new ArrayList<>(all(type))) {
            JsonPaths.Meta m = JsonPaths.meta(o);
            remove(type, m.namespace(), m.name());
        }
    }

    private void record(Bucket bucket, StoredEvent event) {
        bucket.log.addLast(event);
        while (bucket.log.size() > eventLogSize) {
            bucket.compactedThrough = bucket.log.removeFirst().resourceVersion();
        }
        for (Consumer<StoredEvent> listener : bucket.listeners) {
            listener.accept(event);
        }
    }

    /**
     * Forgets every event recorded so far, as kube-apiserver's watch cache does when the server restarts: objects and
     * resourceVersions stay, and a watch resuming from a resourceVersion older than the current one gets 410 Gone.
     */
    public void compactEventLogs() {
        for (Bucket bucket : buckets.values()) {
            bucket.log.clear();
            bucket.compactedThrough = resourceVersion;
        }
    }

    /**
     * Events after {@code fromResourceVersion}, or null when the log no longer reaches back that far (the caller
     * answers 410 Gone).
     */
    public List<StoredEvent> eventsAfter(ResourceType type, long fromResourceVersion) {
        Bucket bucket = bucket(type);
        if (fromResourceVersion < bucket.compactedThrough) {
            return null;
        }
        List<StoredEvent> out = new ArrayList<>();
        for (StoredEvent e : bucket.log) {
            if (e.resourceVersion() > fromResourceVersion) {
                out.add(e);
            }
        }
        return out;
    }

    public Runnable listen(ResourceType type, Consumer<StoredEvent> listener) {
        Bucket bucket = bucket(type);
        bucket.listeners.add(listener);
        return () -> bucket.listeners.remove(listener);
    }
}
