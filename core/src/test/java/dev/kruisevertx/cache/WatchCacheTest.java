package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static dev.kruisevertx.cache.MockCluster.await;
import static dev.kruisevertx.cache.MockCluster.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WatchCacheTest {
    private MockCluster cluster;
    private WatchCache cache;
    private SimpleMeterRegistry registry;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.crud();
        registry = new SimpleMeterRegistry();
    }

    @AfterEach
    void tearDown() {
        if (cache != null) {
            settleStartedInformers();
            cache.close();
        }
        cluster.close();
    }

    private final Set<Class<?>> started = new java.util.HashSet<>();

    // See MockCluster.settlePods: never close a watch while the mock is still sending on it.
    private void settleStartedInformers() {
        String ns = cache.options().namespace() == null ? "a" : cache.options().namespace();
        if (started.contains(Pod.class)) {
            cluster.settlePods(cache.resource(Pod.class), ns);
        }
        if (started.contains(Node.class)) {
            String name = "settle-" + System.nanoTime();
            cluster.client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
            await("marker node", () -> cache.resource(Node.class).get(null, name) != null);
        }
        if (started.contains(Widget.class)) {
            String name = "settle-" + System.nanoTime();
            Widget w = new Widget();
            w.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace(ns).withName(name).build());
            cluster.client.resources(Widget.class).inNamespace(ns).resource(w).create();
            await("marker widget", () -> cache.resource(Widget.class).get(ns, name) != null);
        }
    }

    private WatchCache newCache(WatchCacheOptions options) {
        cache = new WatchCache(cluster.client, options, registry);
        return cache;
    }

    private void sync(Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> type) throws Exception {
        started.add(type);
        cache.start(type).toCompletableFuture().get(MockCluster.WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void oneInformerAndOneWatchPerKindHoweverManyUsers() throws Exception {
        newCache(new WatchCacheOptions(null, java.time.Duration.ZERO, false));
        CachedResource<Pod> first = cache.resource(Pod.class);
        CachedResource<Pod> second = cache.resource(Pod.class);
        assertSame(first, second);
        assertSame(first.informer(), second.informer());

        sync(Pod.class);
        sync(Pod.class); // a second start of the same kind is a no-op
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-0", "node-1")).create();
        await("pod in cache", () -> second.get("a", "web-0") != null);

        int watches = 0;
        int requests = cluster.server.getRequestCount();
        for (int i = 0; i < requests; i++) {
            RecordedRequest r = cluster.server.takeRequest(1, TimeUnit.SECONDS);
            if (r != null && r.getPath().startsWith("/api/v1/pods") && r.getPath().contains("watch=true")) {
                watches++;
            }
        }
        assertEquals(1, watches, "one watch for pods");
        assertTrue(cache.hasSynced());
        assertTrue(first.isWatching());
    }

    @Test
    void builtInIndexesAndCustomIndex() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        Function<Pod, List<String>> byApp = p -> List.of(p.getMetadata().getLabels().get("app"));
        cache.addIndex(Pod.class, "app", byApp);
        cache.addIndex(Pod.class, "app", byApp); // same function again: no-op
        assertThrows(IllegalArgumentException.class,
                () -> cache.addIndex(Pod.class, "app", p -> List.of("other")));
        assertThrows(IllegalArgumentException.class,
                () -> cache.addIndex(Pod.class, Indexes.NAMESPACE, p -> List.of("x")));

        cluster.client.pods().inNamespace("a").resource(pod("a", "web-0", "node-1", "uid-1")).create();
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-1", "node-2", "uid-1", "uid-2")).create();
        cluster.client.pods().inNamespace("b").resource(pod("b", "db-0", "node-1", "uid-3")).create();
        cluster.client.pods().inNamespace("b").resource(pod("b", "db-1", null)).create();
        CachedResource<Pod> pods = cache.resource(Pod.class);
        sync(Pod.class);
        await("4 pods cached", () -> pods.list().size() == 4);

        assertEquals(Set.of("web-0", "web-1"), names(pods.list("a")));
        assertEquals(Set.of("db-0", "db-1"), names(pods.byIndex(Indexes.NAMESPACE, "b")));
        assertEquals(Set.of("web-0", "web-1"), names(pods.byIndex(Indexes.OWNER_UID, "uid-1")));
        assertEquals(Set.of("web-1"), names(pods.byIndex(Indexes.OWNER_UID, "uid-2")));
        assertEquals(Set.of("db-1"), names(pods.byIndex(Indexes.ORPHAN_NAMESPACE, "b")));
        assertEquals(Set.of(), names(pods.byIndex(Indexes.ORPHAN_NAMESPACE, "a")));
        assertEquals(Set.of("web-0", "db-0"), names(pods.byIndex(Indexes.NODE_NAME, "node-1")));
        assertEquals(Set.of(), names(pods.byIndex(Indexes.NODE_NAME, "")));
        assertEquals(Set.of("db-0", "db-1"), names(pods.byIndex("app", "db")));
        assertThrows(IllegalArgumentException.class, () -> pods.byIndex("no-such-index", "x"));

        // A pod released by its controller becomes an orphan in the index.
        cluster.client.pods().inNamespace("a").withName("web-0")
                .edit(p -> new io.fabric8.kubernetes.api.model.PodBuilder(p).editMetadata().withOwnerReferences().endMetadata().build());
        await("web-0 indexed as an orphan", () -> names(pods.byIndex(Indexes.ORPHAN_NAMESPACE, "a")).equals(Set.of("web-0")));
        assertThrows(IllegalStateException.class,
                () -> cache.addIndex(Pod.class, "late", p -> List.of()));

        // the index follows updates
        cluster.client.pods().inNamespace("b").withName("db-1")
                .edit(p -> new PodBuilder(p).editSpec().withNodeName("node-9").endSpec().build());
        await("db-1 indexed on node-9", () -> names(pods.byIndex(Indexes.NODE_NAME, "node-9")).equals(Set.of("db-1")));
    }

    @Test
    void ownerIndexExistsForEveryKind() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        cluster.installCrd(Widget.class);
        Widget w = new Widget();
        w.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace("a").withName("w1")
                .addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap").withName("cm").withUid("cm-uid").endOwnerReference()
                .build());
        cluster.client.resources(Widget.class).inNamespace("a").resource(w).create();
        CachedResource<Widget> widgets = cache.resource(Widget.class);
        sync(Widget.class);
        await("widget cached", () -> widgets.list().size() == 1);
        assertEquals("w1", widgets.byIndex(Indexes.OWNER_UID, "cm-uid").get(0).getMetadata().getName());
    }

    @Test
    void clusterScopedKindsMayReuseTheNamespaceIndexName() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        // OpenKruise indexes cluster-scoped SidecarSets by target namespace under the name "namespace"
        Function<Node, List<String>> zone = n -> List.of(n.getMetadata().getLabels().getOrDefault("zone", Indexes.SIDECARSET_CLUSTER_SCOPE));
        cache.addIndex(Node.class, Indexes.NAMESPACE, zone);
        cluster.client.nodes().resource(new NodeBuilder().withNewMetadata().withName("n1").addToLabels("zone", "z1").endMetadata().build()).create();
        cluster.client.nodes().resource(new NodeBuilder().withNewMetadata().withName("n2").endMetadata().build()).create();
        CachedResource<Node> nodes = cache.resource(Node.class);
        sync(Node.class);
        await("nodes cached", () -> nodes.list().size() == 2);
        assertEquals(Set.of("n1"), names(nodes.byIndex(Indexes.NAMESPACE, "z1")));
        assertEquals(Set.of("n2"), names(nodes.byIndex(Indexes.NAMESPACE, Indexes.SIDECARSET_CLUSTER_SCOPE)));
        assertEquals(Set.of(), names(nodes.list("z1")), "list(namespace) still means metadata.namespace");
    }

    @Test
    void controllerNameIndexMatchesOnlyTheGivenOwnerKinds() {
        Function<Pod, List<String>> fn = Indexes.controllerName(Set.of("apps.kruise.io/v1alpha1"), Set.of("CloneSet"));
        assertEquals(List.of("owner-u1"), fn.apply(pod("a", "p", null, "u1")));
        assertEquals(List.of(), fn.apply(pod("a", "p", null)));
        Function<Pod, List<String>> other = Indexes.controllerName(Set.of("apps/v1"), Set.of("ReplicaSet"));
        assertEquals(List.of(), other.apply(pod("a", "p", null, "u1")));
    }

    @Test
    void readsReturnTheCachedInstancesThemselves() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        sync(Pod.class);
        await("watching", pods::isWatching);
        // Created once the watch runs, so it arrives by exactly one event: a pod that predates the list can be
        // delivered again by the mock server's watch, legitimately replacing the cached instance mid-test.
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-0", "node-1", "uid-1")).create();
        await("pod cached", () -> pods.get("a", "web-0") != null);

        Pod viaGet = pods.get("a", "web-0");
        assertSame(viaGet, pods.get("a", "web-0"));
        assertSame(viaGet, pods.list().get(0));
        assertSame(viaGet, pods.list("a").get(0));
        assertSame(viaGet, pods.byIndex(Indexes.OWNER_UID, "uid-1").get(0));
        assertNull(pods.get("b", "web-0"));
    }

    @Test
    void namespaceRestrictionLimitsNamespacedKindsOnly() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false).withNamespace("a"));
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-0", "node-1")).create();
        cluster.client.pods().inNamespace("b").resource(pod("b", "db-0", "node-1")).create();
        cluster.client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata().build()).create();
        CachedResource<Pod> pods = cache.resource(Pod.class);
        CachedResource<Node> nodes = cache.resource(Node.class);
        sync(Pod.class);
        sync(Node.class);
        await("pod of namespace a and the node cached", () -> pods.list().size() == 1 && nodes.list().size() == 1);

        cluster.client.pods().inNamespace("b").resource(pod("b", "db-1", "node-1")).create();
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-1", "node-1")).create();
        await("web-1 cached", () -> pods.get("a", "web-1") != null);
        assertEquals(Set.of("web-0", "web-1"), names(pods.list()));
        assertNotNull(nodes.get(null, "node-1"));
        assertEquals(Set.of("node-1"), names(nodes.list(null)));
    }

    @Test
    void listenersSeeAddUpdateDeleteAndInitialListFlag() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        cluster.client.pods().inNamespace("a").resource(pod("a", "old-0", "node-1")).create();
        CachedResource<Pod> pods = cache.resource(Pod.class);
        List<CacheEvent<Pod>> events = new CopyOnWriteArrayList<>();
        pods.addListener(events::add);
        sync(Pod.class);
        await("initial add", () -> events.size() == 1);
        assertEquals(CacheEvent.Type.ADDED, events.get(0).type());
        assertTrue(events.get(0).initialList(), "pre-existing pod comes from the initial list");

        cluster.client.pods().inNamespace("a").resource(pod("a", "new-0", "node-1")).create();
        cluster.client.pods().inNamespace("a").withName("new-0")
                .edit(p -> new PodBuilder(p).editMetadata().addToLabels("v", "2").endMetadata().build());
        cluster.client.pods().inNamespace("a").withName("new-0").delete();
        await("add, update and delete of new-0", () -> events.size() == 4);
        assertEquals(CacheEvent.Type.ADDED, events.get(1).type());
        assertFalse(events.get(1).initialList(), "a pod created while watching is not from the initial list");
        assertEquals(CacheEvent.Type.UPDATED, events.get(2).type());
        assertEquals("2", events.get(2).newObject().getMetadata().getLabels().get("v"));
        assertNull(events.get(2).oldObject().getMetadata().getLabels().get("v"));
        assertEquals(CacheEvent.Type.DELETED, events.get(3).type());
        assertNull(events.get(3).newObject());
        assertEquals("new-0", events.get(3).object().getMetadata().getName());

        // a listener joining a running informer gets the cached objects replayed as initial adds
        List<CacheEvent<Pod>> late = new CopyOnWriteArrayList<>();
        pods.addListener(late::add);
        await("replay to late listener", () -> late.size() == 1);
        assertTrue(late.get(0).initialList());
        assertSame(pods.get("a", "old-0"), late.get(0).newObject());
        cluster.client.pods().inNamespace("a").resource(pod("a", "new-1", "node-1")).create();
        await("late listener sees the new pod", () -> late.size() == 2);
        assertFalse(late.get(1).initialList());
    }

    @Test
    void failingListenerDoesNotStopTheInformer() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        pods.addListener(e -> {
            throw new IllegalStateException("listener bug");
        });
        List<CacheEvent<Pod>> events = new CopyOnWriteArrayList<>();
        pods.addListener(events::add);
        sync(Pod.class);
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-0", "node-1")).create();
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-1", "node-1")).create();
        await("both adds delivered", () -> events.size() == 2);
        assertTrue(pods.isWatching());
    }

    @Test
    void mutationDetectorReportsACallerChangingACachedObject() throws Exception {
        newCache(WatchCacheOptions.defaults().withMutationDetector(true));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        sync(Pod.class);
        await("watching", pods::isWatching);
        // Created once the watch runs, so each arrives by exactly one event: a pod that predates the list can be
        // delivered again by the mock server's watch, replacing the cached instance (and its snapshot) mid-test.
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-0", "node-1")).create();
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-1", "node-1")).create();
        CacheMutationDetector detector = cache.mutationDetector().orElseThrow();
        await("both pods tracked", () -> detector.tracked() == 2);
        cache.checkMutations(); // nothing changed yet

        Pod cached = pods.get("a", "web-1");
        cached.getMetadata().getLabels().put("hacked", "yes"); // the violation under test

        CacheMutationException e = assertThrows(CacheMutationException.class, cache::checkMutations);
        assertEquals(1, e.mutations().size());
        CacheMutationDetector.Mutation m = e.mutations().get(0);
        assertEquals("v1/Pod", m.kind());
        assertEquals("a", m.namespace());
        assertEquals("web-1", m.name());
        assertEquals("[add /metadata/labels/hacked]", m.changes());
        // Paths only: a mutated value (an env value, a secret) must not reach the log or the exception.
        assertFalse(m.toString().contains("yes"), m.toString());
        assertFalse(e.getMessage().contains("yes"), e.getMessage());
        assertTrue(e.getMessage().contains("a/web-1"), e.getMessage());
        assertEquals(1.0, registry.get(CacheMutationDetector.METRIC).tag("kind", "v1/Pod").counter().count());

        // a real update through the API replaces the cached object and its snapshot: no longer reported
        cluster.client.pods().inNamespace("a").withName("web-1")
                .edit(p -> new PodBuilder(p).editMetadata().addToLabels("fixed", "yes").endMetadata().build());
        await("new state cached", () -> pods.get("a", "web-1").getMetadata().getLabels().containsKey("fixed"));
        await("detector clean again", () -> {
            try {
                cache.checkMutations();
                return true;
            } catch (CacheMutationException stillStale) {
                return false;
            }
        });
    }

    @Test
    void mutationDetectorIsOffByDefault() {
        assertFalse(WatchCacheOptions.defaults(java.util.Map.of()).mutationDetector());
        assertTrue(WatchCacheOptions.defaults(java.util.Map.of(WatchCacheOptions.MUTATION_DETECTOR_ENV, "true")).mutationDetector());
        newCache(WatchCacheOptions.defaults(java.util.Map.of()));
        assertTrue(cache.mutationDetector().isEmpty());
        cache.checkMutations();
    }

    @Test
    void resyncPeriodIsPassedToTheInformerAndValidated() throws Exception {
        assertThrows(IllegalArgumentException.class,
                () -> WatchCacheOptions.defaults().withResyncPeriod(java.time.Duration.ofMillis(10)));
        assertThrows(IllegalArgumentException.class,
                () -> WatchCacheOptions.defaults().withResyncPeriod(java.time.Duration.ofSeconds(-1)));
        newCache(WatchCacheOptions.defaults().withMutationDetector(false).withResyncPeriod(java.time.Duration.ofSeconds(1)));
        cluster.client.pods().inNamespace("a").resource(pod("a", "web-0", "node-1")).create();
        CachedResource<Pod> pods = cache.resource(Pod.class);
        List<CacheEvent<Pod>> events = new CopyOnWriteArrayList<>();
        pods.addListener(events::add);
        sync(Pod.class);
        // with nothing changing on the server, only a resync can produce an update of the same instance
        await("resync update", () -> events.stream().anyMatch(e -> e.type() == CacheEvent.Type.UPDATED
                && e.oldObject() == e.newObject()));
    }

    @Test
    void isServedAsksDiscovery() {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        assertFalse(cache.isServed(Widget.class), "CRD not installed yet");
        cluster.installCrd(Widget.class);
        assertTrue(cache.isServed(Widget.class));
        assertFalse(cache.isServed(NotInstalled.class));
    }

    @Test
    void closedCacheRefusesUse() {
        newCache(WatchCacheOptions.defaults().withMutationDetector(false));
        SharedIndexInformer<Pod> informer = cache.resource(Pod.class).informer();
        cache.start(Pod.class);
        await("pod informer watching", () -> informer.isWatching());
        cluster.settlePods(cache.resource(Pod.class), "a");
        cache.close();
        assertFalse(informer.isRunning());
        assertThrows(IllegalStateException.class, () -> cache.resource(Pod.class));
        cache = null;
    }

    private static Set<String> names(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> objs) {
        List<String> names = new ArrayList<>();
        objs.forEach(o -> names.add(o.getMetadata().getName()));
        Set<String> set = Set.copyOf(names);
        assertEquals(names.size(), set.size(), "no duplicates");
        return set;
    }

    @io.fabric8.kubernetes.model.annotation.Group("absent.kruisevertx.dev")
    @io.fabric8.kubernetes.model.annotation.Version("v1")
    @io.fabric8.kubernetes.model.annotation.Kind("Gadget")
    public static class NotInstalled extends io.fabric8.kubernetes.client.CustomResource<Void, Void>
            implements io.fabric8.kubernetes.api.model.Namespaced {
    }
}
