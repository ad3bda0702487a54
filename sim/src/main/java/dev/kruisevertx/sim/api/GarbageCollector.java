package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-controller-manager's garbage collector and namespace controller, in process: dependents of a removed
 * owner are deleted (background) or released (orphan), owners in foreground deletion wait for their
 * dependents, and a terminating namespace is emptied and then removed. Work triggered by a removal runs on a
 * later turn of the context, as the real controllers act after the fact.
 *
 * <p>As kube's collector, it judges each dependent by all its ownerReferences: an owner is <em>dangling</em> when no
 * object has its uid (in the dependent's namespace, for a namespaced owner), <em>waiting</em> when it is in
 * foreground deletion, <em>solid</em> otherwise. A dependent with a solid owner loses its references to dangling
 * and waiting owners; one whose owners are all dangling or waiting is deleted. A reference to a kind the server
 * does not serve cannot be judged and keeps the dependent. This runs when an owner goes and also when a dependent
 * is written with a reference that is not solid, so a pod a controller creates for an owner deleted a moment
 * before (the create raced the delete) is collected too. Indexes by uid and by owner uid keep every step
 * proportional to the dependents concerned.
 */
final class GarbageCollector {
    /** Dependents handled per turn of the context, so a big cascade does not hold the API server's context. */
    static final int DEPENDENTS_PER_TURN = 200;
    private static final int REMEMBERED_REMOVALS = 10_000;

    private record Ref(String typeKey, String namespace, String name) {
    }

    private enum OwnerState { SOLID, DANGLING, WAITING, UNRESOLVABLE }

    private final ApiServer api;
    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final Map<String, Ref> byUid = new HashMap<>();
    private final Map<String, Set<Ref>> dependentsByOwnerUid = new HashMap<>();
    /**
     * Uids of objects removed lately (kube's absentOwnerCache): such an owner is known to be gone even when its kind
     * is no longer served, as when a CRD went with its objects.
     */
    private final Map<String, Boolean> recentlyRemoved = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_REMOVALS;
        }
    };

    GarbageCollector(ApiServer api, ObjectStore store, ResourceRegistry registry) {
        this.api = api;
        this.store = store;
        this.registry = registry;
    }

    void indexPut(ResourceType type, ObjectNode previous, ObjectNode object) {
        Ref ref = ref(type, object);
        byUid.put(object.path("metadata").path("uid").asText(), ref);
        if (previous != null) {
            ownerUids(previous).forEach(u -> unlink(u, ref));
        }
        List<String> owners = ownerUids(object);
        owners.forEach(u -> dependentsByOwnerUid.computeIfAbsent(u, k -> new LinkedHashSet<>()).add(ref));
        if (!owners.isEmpty() && (previous == null || !owners.equals(ownerUids(previous)))
                && !allSolid(ref.namespace(), object)) {
            // A dependent written with an owner that is gone (or going): judge it once this write is done.
            api.context().runOnContext(v -> collect(ref));
        }
    }

    void indexRemove(ResourceType type, ObjectNode last) {
        Ref ref = ref(type, last);
        String uid = last.path("metadata").path("uid").asText();
        byUid.remove(uid);
        recentlyRemoved.put(uid, Boolean.TRUE);
        ownerUids(last).forEach(u -> unlink(u, ref));
    }

    private void unlink(String ownerUid, Ref ref) {
        Set<Ref> deps = dependentsByOwnerUid.get(ownerUid);
        if (deps != null) {
            deps.remove(ref);
            if (deps.isEmpty()) {
                dependentsByOwnerUid.remove(ownerUid);
            }
        }
    }

    private static Ref ref(ResourceType type, JsonNode o) {
        JsonPaths.Meta m = JsonPaths.meta(o);
        return new Ref(type.key(), m.namespace(), m.name());
    }

    private static List<String> ownerUids(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.path("metadata").path("ownerReferences").forEach(r -> out.add(r.path("uid").asText()));
        return out;
    }

    boolean hasDependents(String uid) {
        return dependentsByOwnerUid.containsKey(uid);
    }

    private List<Map.Entry<ResourceType, ObjectNode>> dependents(String uid) {
        List<Map.Entry<ResourceType, ObjectNode>> out = new ArrayList<>();
        for (Ref r : new ArrayList<>(dependentsByOwnerUid.getOrDefault(uid, Set.of()))) {
            registry.byKey(r.typeKey()).ifPresent(t -> {
                ObjectNode o = store.get(t, r.namespace(), r.name());
                if (o != null) {
                    out.add(Map.entry(t, o));
                }
            });
        }
        return out;
    }

    /** Drops ownerReferences to {@code ownerUid} from its dependents (propagationPolicy Orphan). */
    void orphanDependents(String ownerUid) {
        for (Map.Entry<ResourceType, ObjectNode> d : dependents(ownerUid)) {
            dropOwnerReferences(d.getKey(), d.getValue(), List.of(ownerUid));
        }
    }

    private void dropOwnerReferences(ResourceType type, ObjectNode dependent, List<String> ownerUids) {
        ObjectNode next = dependent.deepCopy();
        ObjectNode meta = JsonPaths.metadata(next);
        ArrayNode kept = meta.arrayNode();
        meta.path("ownerReferences").forEach(r -> {
            if (!ownerUids.contains(r.path("uid").asText())) {
                kept.add(r);
            }
        });
        if (kept.isEmpty()) {
            meta.remove("ownerReferences");
        } else {
            meta.set("ownerReferences", kept);
        }
        api.commitUpdate(type, dependent, next);
    }

    /**
     * Judges every dependent of {@code ownerUid} (gone, or in foreground deletion): deleted, or released when another
     * owner is solid. Big sets of dependents are judged a slice per turn of the context.
     */
    void deleteDependents(String ownerUid) {
        collectAll(new ArrayList<>(dependentsByOwnerUid.getOrDefault(ownerUid, Set.of())), 0);
    }

    private void collectAll(List<Ref> refs, int from) {
        int to = Math.min(refs.size(), from + DEPENDENTS_PER_TURN);
        for (Ref r : refs.subList(from, to)) {
            collect(r);
        }
        if (to < refs.size()) {
            api.context().runOnContext(v -> collectAll(refs, to));
        }
    }

    /** kube's attemptToDeleteItem for one dependent, as it is stored now. */
    private void collect(Ref r) {
        ResourceType type = registry.byKey(r.typeKey()).orElse(null);
        ObjectNode dependent = type == null ? null : store.get(type, r.namespace(), r.name());
        if (dependent == null) {
            return;
        }
        List<String> release = new ArrayList<>();
        boolean solid = false;
        boolean unresolvable = false;
        for (JsonNode owner : dependent.path("metadata").path("ownerReferences")) {
            switch (ownerState(r.namespace(), owner)) {
                case SOLID -> solid = true;
                case UNRESOLVABLE -> unresolvable = true;
                case DANGLING, WAITING -> release.add(owner.path("uid").asText());
            }
        }
        if (release.isEmpty()) {
            return;
        }
        if (solid) {
            dropOwnerReferences(type, dependent, release);
        } else if (!unresolvable && !dependent.path("metadata").has("deletionTimestamp")) {
            String uid = dependent.path("metadata").path("uid").asText();
            api.deleteNow(type, dependent, hasDependents(uid)
                    ? new DeleteOptions("Foreground", null, null, null, false)
                    : DeleteOptions.background());
        }
    }

    private OwnerState ownerState(String dependentNamespace, JsonNode ownerReference) {
        String uid = ownerReference.path("uid").asText();
        Ref owner = byUid.get(uid);
        if (owner == null) {
            if (recentlyRemoved.containsKey(uid)) {
                return OwnerState.DANGLING;
            }
            // Otherwise kube can only call an owner absent when it can look its kind up.
            return registry.byKind(ownerReference.path("apiVersion").asText(""),
                    ownerReference.path("kind").asText("")).isPresent() ? OwnerState.DANGLING : OwnerState.UNRESOLVABLE;
        }
        if (owner.namespace() != null && !owner.namespace().equals(dependentNamespace)) {
            // A namespaced owner is only looked for in the dependent's namespace.
            return OwnerState.DANGLING;
        }
        ObjectNode o = registry.byKey(owner.typeKey()).map(t -> store.get(t, owner.namespace(), owner.name())).orElse(null);
        if (o != null && o.path("metadata").has("deletionTimestamp")
                && ApiServer.finalizers(o).contains(ApiServer.FOREGROUND_FINALIZER)) {
            return OwnerState.WAITING;
        }
        return OwnerState.SOLID;
    }

    private boolean allSolid(String namespace, JsonNode object) {
        for (JsonNode owner : object.path("metadata").path("ownerReferences")) {
            if (ownerState(namespace, owner) != OwnerState.SOLID) {
                return false;
            }
        }
        return true;
    }

    /** Reacts to an object that is gone for good. */
    void afterRemoval(ResourceType type, ObjectNode last) {
        String uid = last.path("metadata").path("uid").asText();
        List<String> owners = ownerUids(last);
        String namespace = type.namespaced() ? last.path("metadata").path("namespace").asText(null) : null;
        api.context().runOnContext(v -> {
            deleteDependents(uid);
            for (String owner : owners) {
                finishForegroundDeletion(owner);
            }
            if (namespace != null) {
                removeNamespaceIfEmpty(namespace);
            }
        });
    }

    private void finishForegroundDeletion(String ownerUid) {
        Ref ref = byUid.get(ownerUid);
        if (ref == null || hasDependents(ownerUid)) {
            return;
        }
        registry.byKey(ref.typeKey()).ifPresent(t -> {
            ObjectNode owner = store.get(t, ref.namespace(), ref.name());
            if (owner == null || !ApiServer.finalizers(owner).contains(ApiServer.FOREGROUND_FINALIZER)) {
                return;
            }
            ObjectNode next = owner.deepCopy();
            ObjectNode meta = JsonPaths.metadata(next);
            ArrayNode kept = meta.arrayNode();
            meta.path("finalizers").forEach(f -> {
                if (!ApiServer.FOREGROUND_FINALIZER.equals(f.asText())) {
                    kept.add(f);
                }
            });
            meta.set("finalizers", kept);
            api.commitUpdate(t, owner, next);
        });
    }

    /** Namespace controller: delete everything in a terminating namespace. */
    void emptyNamespace(String namespace) {
        for (ResourceType t : new ArrayList<>(registry.all())) {
            if (!t.namespaced()) {
                continue;
            }
            for (ObjectNode o : new ArrayList<>(store.list(t, namespace).values())) {
                if (!o.path("metadata").has("deletionTimestamp") || t.kind().equals("Pod")) {
                    api.deleteNow(t, o, DeleteOptions.background());
                }
            }
        }
        removeNamespaceIfEmpty(namespace);
    }

    private void removeNamespaceIfEmpty(String namespace) {
        ResourceType namespaces = registry.byKey("namespaces").orElseThrow();
        ObjectNode ns = store.get(namespaces, null, namespace);
        if (ns == null || !ns.path("metadata").has("deletionTimestamp")) {
            return;
        }
        for (ResourceType t : registry.all()) {
            if (t.namespaced() && !store.list(t, namespace).isEmpty()) {
                return;
            }
        }
        api.remove(namespaces, null, namespace);
    }
}
