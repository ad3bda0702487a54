package dev.kruisevertx.sidecarset;

import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which pods name each SidecarSet in their {@code kruise.io/sidecarset-injected-list} annotation, kept from the pod
 * events the controller receives (the replay of the cache before its first reconcile included), so a reconcile
 * reads its SidecarSet's pods instead of listing every pod of the cluster: with many SidecarSets that list is what
 * made start-up slow (kruise#1718). Only injected pods are ever matched (as OpenKruise's getMatchingPods), so
 * nothing is missed. Updated on the controller's event loop, read by reconciles on worker threads.
 */
final class InjectedPods {
    private final Map<String, Set<String>> bySet = new ConcurrentHashMap<>();

    void onEvent(CacheEvent<Pod> event) {
        Pod before = event.oldObject();
        Pod after = event.type() == CacheEvent.Type.DELETED ? null : event.newObject();
        Pod any = after != null ? after : before;
        if (any == null) {
            return;
        }
        String key = any.getMetadata().getNamespace() + "/" + any.getMetadata().getName();
        List<String> was = before == null ? List.of() : SidecarSetController.sidecarSetsOf(before);
        List<String> is = after == null ? List.of() : SidecarSetController.sidecarSetsOf(after);
        for (String set : was) {
            if (!is.contains(set)) {
                bySet.computeIfPresent(set, (k, pods) -> {
                    pods.remove(key);
                    return pods.isEmpty() ? null : pods;
                });
            }
        }
        for (String set : is) {
            bySet.computeIfAbsent(set, k -> ConcurrentHashMap.newKeySet()).add(key);
        }
    }

    /** The cached pods that name {@code set}, in namespace/name order (a pod gone from the cache is skipped). */
    List<Pod> of(String set, CachedResource<Pod> pods) {
        Set<String> keys = bySet.get(set);
        if (keys == null) {
            return List.of();
        }
        List<Pod> out = new ArrayList<>();
        for (String key : new TreeSet<>(keys)) {
            int slash = key.indexOf('/');
            Pod pod = pods.get(key.substring(0, slash), key.substring(slash + 1));
            if (pod != null && SidecarPodState.injected(pod, set)) {
                out.add(pod);
            }
        }
        return out;
    }

    /** SidecarSets with at least one pod (for tests and metrics). */
    int size() {
        return bySet.size();
    }
}
