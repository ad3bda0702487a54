package dev.kruisevertx.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetSpec;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Shards;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sidecarset.SidecarSetController;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.faults.FaultPlan;
import dev.kruisevertx.sim.invariants.WorkloadKind;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code --shards 2} with the sidecarset controller on (it reads pods of every namespace, so the holder of shard 0
 * caches every pod): two whole managers on the embedded cluster. The holder of shard 0 reconciles the CloneSet of a
 * shard-0 namespace and the cluster-scoped SidecarSet over the pods of both namespaces (its status counts them all);
 * the holder of shard 1 caches only its shard's pods and reconciles neither. A checker polls both replicas' gates all
 * along: a cluster-scoped key is never owned while the shard's namespaced keys still wait (the gates open in that
 * order) nor while the replica's pod cache lacks a namespace's pods. Then the holder of shard 0 is killed; the
 * survivor lists shard 0 in and reconciles the SidecarSet again without any event, from the replay of the
 * cluster-scoped keys once its cache is whole.
 */
class ShardZeroCacheEndToEndTest {
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final List<String> FLAGS = List.of("--enable-leader-election=true",
            "--leader-election-namespace=kruise-system", "--leader-election-lease-duration=" + LEASE.toSeconds() + "s",
            "--leader-election-renew-deadline=4s", "--leader-election-retry-period=1s", "--shards=2");
    private static final Workloads.Variant VARIANT = new Workloads.Variant(WorkloadKind.CLONESET, false, 2);
    private static final List<ControllerDefinition> CONTROLLERS = List.of(new CloneSetController(),
            new dev.kruisevertx.podreadiness.PodReadinessController(), new SidecarSetController());
    private static final Request SIDECARSET_KEY = new Request("", "sc-everywhere");

    private static ClusterFixture cluster;
    private static KubernetesClient client;
    private static final List<ManagerUnderTest> managers = new ArrayList<>();

    @BeforeAll
    static void startCluster() {
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2));
        EmbeddedProduct.install(cluster.cluster());
        client = KubeClients.forTest(new ConfigBuilder(cluster.cluster().clientConfig()).withHttp2Disable(true).build());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        for (ManagerUnderTest m : managers) {
            m.close();
        }
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static ManagerUnderTest startManager(int seed) throws Exception {
        ManagerUnderTest m = ManagerUnderTest.start(cluster.vertx(), cluster.cluster(), seed, FaultPlan.none(),
                CONTROLLERS, FLAGS);
        managers.add(m);
        return m;
    }

    private static String namespaceIn(int shard) {
        for (int i = 0; ; i++) {
            String ns = "z-" + i + "-e";
            if (Shards.shardOf(ns, 2) == shard) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                        .create();
                return ns;
            }
        }
    }

    @Test
    void shardZeroReconcilesItsNamespacedKeysAndTheSidecarSetOverThePodsOfEveryNamespace() throws Exception {
        String ns0 = namespaceIn(0);
        String ns1 = namespaceIn(1);
        Request keyInZero = new Request(ns0, "web");
        List<String> violations = new CopyOnWriteArrayList<>();
        AtomicBoolean checking = new AtomicBoolean(true);
        Thread checker = new Thread(() -> {
            while (checking.get()) {
                for (ManagerUnderTest m : List.copyOf(managers)) {
                    Shards shards = m.app().shards();
                    // Owned first, cache read after (a key owned at the first read is served by the second).
                    boolean clusterOwned = shards.owns(SIDECARSET_KEY);
                    boolean zeroOwned = shards.owns(keyInZero);
                    if (clusterOwned && !zeroOwned && shards.holds(0)) {
                        violations.add("a cluster-scoped key owned while shard 0's namespaced keys wait");
                    }
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "gate-checker");
        checker.start();
        try (dev.kruisevertx.testing.CapturedLog log = dev.kruisevertx.testing.CapturedLog.of(
                dev.kruisevertx.manager.ManagerApp.class)) {
            run(ns0, ns1, log);
        } finally {
            checking.set(false);
            checker.join();
        }
        assertEquals(List.of(), violations);
    }

    /**
     * Asserts from the manager's log that {@code m}'s latest win of shard 0 opened the namespaced keys first and the
     * cluster-scoped keys after (each stage logs one line with the replica's identity).
     */
    private static void assertStagesInOrder(dev.kruisevertx.testing.CapturedLog log, ManagerUnderTest m)
            throws InterruptedException {
        String identity = identity(m);
        Supplier<List<String>> lines = () -> log.lines().stream().map(dev.kruisevertx.testing.CapturedLog.Line::message)
                .filter(l -> l.startsWith(identity + ": ")).toList();
        // The line of a stage follows its gate's opening: waited for, not raced.
        await("both stages of " + identity + "'s win of shard 0 logged in order", Duration.ofSeconds(30), () -> {
            List<String> seen = lines.get();
            int own = -1;
            int whole = -1;
            for (int i = 0; i < seen.size(); i++) {
                String l = seen.get(i);
                if (l.contains("namespaced keys are owned") && l.matches(".*shard\\(s\\) \\[(0|0, .*)\\].*")) {
                    own = i;
                } else if (l.contains("shard 0 cached whole")) {
                    whole = i;
                }
            }
            return own >= 0 && whole > own;
        }, lines::get);
    }

    private static String identity(ManagerUnderTest m) {
        String view = debugControllers(m);
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("\"identity\":\"([^\"]+)\"").matcher(view);
        assertTrue(matcher.find(), view);
        return matcher.group(1);
    }

    private void run(String ns0, String ns1, dev.kruisevertx.testing.CapturedLog log) throws Exception {
        ManagerUnderTest a = startManager(11);
        await("the first replica holds both shards", Duration.ofSeconds(60),
                () -> a.app().shards().held().equals(Set.of(0, 1)), () -> a.app().shards().held());
        ManagerUnderTest b = startManager(12);
        await("the shards split one each", Duration.ofSeconds(60),
                () -> a.app().shards().held().size() == 1 && b.app().shards().held().size() == 1,
                () -> "a=" + a.app().shards().held() + " b=" + b.app().shards().held());
        ManagerUnderTest holder0 = a.app().shards().holds(0) ? a : b;
        ManagerUnderTest holder1 = holder0 == a ? b : a;
        await("shard 0's gates open", Duration.ofSeconds(60),
                () -> holder0.app().shards().cacheWait(0) == Shards.CacheWait.NONE,
                () -> holder0.app().shards().cacheWait(0));
        assertStagesInOrder(log, holder0);

        createSidecarSet();
        client.resource(Workloads.yaml(VARIANT, ns0, "web", 2, "nginx:1.0")).create();
        client.resource(Workloads.yaml(VARIANT, ns1, "web", 2, "nginx:1.0")).create();
        awaitReady(ns0);
        awaitReady(ns1);
        // Pods of both namespaces carry the sidecar; the SidecarSet's status counts them all, which only a replica
        // caching the pods of every namespace can write.
        await("the SidecarSet counts the pods of both namespaces", Duration.ofSeconds(120), () -> {
            SidecarSet set = client.resources(SidecarSet.class).withName(SIDECARSET_KEY.name()).get();
            return set.getStatus() != null && set.getStatus().getObservedGeneration() != null
                    && set.getStatus().getObservedGeneration().equals(set.getMetadata().getGeneration())
                    && Integer.valueOf(4).equals(set.getStatus().getMatchedPods())
                    && Integer.valueOf(4).equals(set.getStatus().getUpdatedPods());
        }, () -> client.resources(SidecarSet.class).withName(SIDECARSET_KEY.name()).get().getStatus());
        assertTrue(client.pods().inNamespace(ns1).list().getItems().stream().allMatch(p -> p.getSpec().getContainers()
                .stream().anyMatch(c -> c.getName().equals("side"))), "shard 1's pods got the sidecar");

        // Who reconciled what: shard 0's holder its CloneSet and the SidecarSet, shard 1's holder neither.
        assertTrue(plans(holder0, "cloneset").contains(ns0 + "/web"), plans(holder0, "cloneset"));
        assertFalse(plans(holder1, "cloneset").contains(ns0 + "/web"), plans(holder1, "cloneset"));
        assertTrue(plans(holder0, "sidecarset").contains(SIDECARSET_KEY.name()), plans(holder0, "sidecarset"));
        assertFalse(plans(holder1, "sidecarset").contains(SIDECARSET_KEY.name()), plans(holder1, "sidecarset"));
        // The holder of shard 0 caches every pod (it runs the sidecarset controller), the other only its shard's.
        assertEquals(podNames(ns0, ns1), cachedPodNames(holder0));
        assertEquals(podNames(ns1), cachedPodNames(holder1));
        // The gate state as /debug/controllers and the metric show it.
        assertTrue(debugControllers(holder0).contains("\"cacheWaits\":{\"0\":\"NONE\"}"), debugControllers(holder0));
        assertEquals(1.0, shardCacheComplete(holder0, 0));
        assertEquals(0.0, shardCacheComplete(holder0, 1));
        assertEquals(1.0, shardCacheComplete(holder1, 1));

        // The holder of shard 0 dies; the survivor lists the rest in and reconciles the SidecarSet again though
        // nothing about it changed: the cluster-scoped keys are queued from its cache once they are owned.
        String sidecarPlansBefore = plans(holder1, "sidecarset");
        assertFalse(sidecarPlansBefore.contains(SIDECARSET_KEY.name()), sidecarPlansBefore);
        holder0.killHard();
        managers.remove(holder0);
        await("the survivor takes shard 0 and its cluster-scoped keys", LEASE.plus(Duration.ofSeconds(60)),
                () -> holder1.app().shards().holds(0) && holder1.app().shards().owns(SIDECARSET_KEY),
                () -> holder1.app().shards().held() + " " + holder1.app().shards().cacheWait(0));
        await("the survivor reconciles the SidecarSet", Duration.ofSeconds(60),
                () -> plans(holder1, "sidecarset").contains(SIDECARSET_KEY.name()), () -> plans(holder1, "sidecarset"));
        assertStagesInOrder(log, holder1);
        await("the survivor caches every pod", Duration.ofSeconds(60),
                () -> cachedPodNames(holder1).equals(podNames(ns0, ns1)), () -> cachedPodNames(holder1));
    }

    private static void createSidecarSet() {
        SidecarSet set = new SidecarSet();
        set.setMetadata(new ObjectMetaBuilder().withName(SIDECARSET_KEY.name()).build());
        SidecarSetSpec spec = new SidecarSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build());
        SidecarContainer side = new SidecarContainer();
        side.setName("side");
        side.setImage("busybox:1.0");
        spec.setContainers(List.of(side));
        SidecarSetUpdateStrategy strategy = new SidecarSetUpdateStrategy();
        strategy.setType("RollingUpdate");
        spec.setUpdateStrategy(strategy);
        set.setSpec(spec);
        client.resource(set).create();
    }

    private static Set<String> podNames(String... namespaces) {
        Set<String> out = new TreeSet<>();
        for (String ns : namespaces) {
            client.pods().inNamespace(ns).list().getItems().forEach(p -> out.add(ns + "/" + p.getMetadata().getName()));
        }
        return out;
    }

    /** The pods of the test's namespaces ("z-...") in {@code m}'s cache. */
    private static Set<String> cachedPodNames(ManagerUnderTest m) {
        Set<String> out = new TreeSet<>();
        for (Pod p : m.app().cache().resource(Pod.class).list()) {
            if (p.getMetadata().getNamespace().startsWith("z-")) {
                out.add(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName());
            }
        }
        return out;
    }

    private static double shardCacheComplete(ManagerUnderTest m, int shard) {
        return m.app().registry().get("kruise_manager_shard_cache_complete").tag("shard", Integer.toString(shard))
                .gauge().value();
    }

    private static void awaitReady(String ns) throws InterruptedException {
        await(ns + "/web ready", Duration.ofSeconds(150), () -> {
            JsonNode w = Workloads.get(client, WorkloadKind.CLONESET, ns, "web");
            if (w == null) {
                return false;
            }
            JsonNode st = w.path("status");
            return st.path("observedGeneration").asLong() == w.path("metadata").path("generation").asLong()
                    && st.path("readyReplicas").asInt() == 2 && st.path("updatedReadyReplicas").asInt() == 2;
        }, () -> Workloads.get(client, WorkloadKind.CLONESET, ns, "web").path("status"));
    }

    private static String plans(ManagerUnderTest m, String controller) {
        return get(m.app().debugPort(), "/debug/plans?controller=" + controller);
    }

    private static String debugControllers(ManagerUnderTest m) {
        return get(m.app().debugPort(), "/debug/controllers");
    }

    private static String get(int port, String path) {
        try {
            HttpResponse<String> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build()
                    .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(String description, Duration timeout, BooleanSupplier condition, Supplier<Object> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        fail("timed out after " + timeout + " waiting for: " + description + "; last state: " + state.get());
    }
}
