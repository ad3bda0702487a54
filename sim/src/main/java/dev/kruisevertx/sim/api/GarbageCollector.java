package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-controller-manager's garbage collector and namespace controller, in process: dependents of a removed
 * owner are deleted (background) or released (orphan), owners in foreground deletion wait for their
 * dependents, and a terminating namespace is emptied and then removed. Work triggered by a removal runs on a
 * later turn of the context, as the real controllers act after the fact.
 */
final class GarbageCollector {
    private record Ref(String typeKey, String namespace, String name) {
    }

    private final ApiServer api;
    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final Map<String, Ref> byUid = new HashMap<>();
    private final Map<String, Set<Ref>> dependentsByOwnerUid = new HashMap<>();

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
        ownerUids(object).forEach(u -> dependentsByOwnerUid.computeIfAbsent(u, k -> new LinkedHashSet<>()).add(ref));
    }

    void indexRemove(ResourceType type, ObjectNode last) {
        Ref ref = ref(type, last);
        byUid.remove(last.path("metadata").path("uid").asText());
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
            dropOwnerReference(d.getKey(), d.getValue(), ownerUid);
        }
    }

    private void dropOwnerReference(ResourceType type, ObjectNode dependent, String ownerUid) {
        ObjectNode next = dependent.deepCopy();
        ObjectNode meta = JsonPaths.metadata(next);
        ArrayNode kept = meta.arrayNode();
        meta.path("ownerReferences").forEach(r -> {
            if (!ownerUid.equals(r.path("uid").asText())) {
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

    /** Deletes (or releases, when another owner still exists) every dependent of {@code ownerUid}. */
    void deleteDependents(String ownerUid) {
        for (Map.Entry<ResourceType, ObjectNode> d : dependents(ownerUid)) {
            ObjectNode dependent = d.getValue();
            boolean otherOwnerAlive = false;
            for (String u : ownerUids(dependent)) {
                if (!u.equals(ownerUid) && byUid.containsKey(u)) {
                    otherOwnerAlive = true;
                }
            }
            if (otherOwnerAlive) {
                dropOwnerReference(d.getKey(), dependent, ownerUid);
            } else if (!dependent.path("metadata").has("deletionTimestamp")) {
                api.deleteNow(d.getKey(), dependent, ApiServer.DeleteOptions.background());
            }
        }
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
                    api.deleteNow(t, o, ApiServer.DeleteOptions.background());
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
