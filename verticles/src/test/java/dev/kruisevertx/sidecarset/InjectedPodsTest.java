package dev.kruisevertx.sidecarset;

import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.sim.testing.FixedCache;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The SidecarSet → injected pods index follows the pods' injected-list annotation through adds, updates, deletes. */
class InjectedPodsTest {
    static Pod pod(String name, String list) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata();
        if (list != null) {
            b.editMetadata().addToAnnotations("kruise.io/sidecarset-injected-list", list).endMetadata();
        }
        return b.build();
    }

    static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void followsTheAnnotation() {
        InjectedPods index = new InjectedPods();
        Pod a = pod("a", "log,mesh");
        Pod b = pod("b", "log");
        Pod c = pod("c", null);
        index.onEvent(CacheEvent.added(a, true));
        index.onEvent(CacheEvent.added(b, true));
        index.onEvent(CacheEvent.added(c, true));
        FixedCache<Pod> cache = FixedCache.of(a, b, c);
        assertEquals(List.of("a", "b"), names(index.of("log", cache)));
        assertEquals(List.of("a"), names(index.of("mesh", cache)));
        assertEquals(List.of(), names(index.of("other", cache)));

        Pod a2 = pod("a", "mesh");
        index.onEvent(CacheEvent.updated(a, a2));
        cache = FixedCache.of(a2, b, c);
        assertEquals(List.of("b"), names(index.of("log", cache)));
        index.onEvent(CacheEvent.deleted(a2));
        assertEquals(List.of(), names(index.of("mesh", FixedCache.of(b, c))));
        assertEquals(1, index.size(), "an empty entry is dropped");
    }

    @Test
    void aStaleEntryIsCheckedAgainstTheCache() {
        InjectedPods index = new InjectedPods();
        index.onEvent(CacheEvent.added(pod("a", "log"), true));
        // The cache already holds a newer pod without the SidecarSet (its event not yet mapped).
        assertEquals(List.of(), names(index.of("log", FixedCache.of(pod("a", "mesh")))));
        assertEquals(List.of(), names(index.of("log", FixedCache.<Pod>of())), "a pod gone from the cache");
    }
}
