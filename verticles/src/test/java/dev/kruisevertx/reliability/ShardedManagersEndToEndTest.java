package dev.kruisevertx.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.Shards;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.faults.FaultPlan;
import dev.kruisevertx.sim.invariants.InvariantChecker;
import dev.kruisevertx.sim.invariants.WorkloadKind;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
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
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code --shards 2} with two whole managers (webhook and controllers, each behind a fault proxy of its own) on the
 * embedded cluster: the shards split one each, each manager reconciles only the CloneSets of its shard's namespace,
 * the holder of one shard is killed hard (its proxy cuts it off, so it releases nothing) and the other takes the
 * shard within the lease time plus a retry and reconciles its CloneSet, and a new replica gets a shard back. Pods are
 * cached per shard: each replica's cache holds only its shards' pods, the survivor lists the taken shard's pods in,
 * and the shard given back leaves its cache. A hooked CloneSet (minReadySeconds, inPlaceUpdate hook) rolls out across
 * the hand-over. The reliability checker watches every namespace throughout.
 */
class ShardedManagersEndToEndTest {
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final List<String> FLAGS = List.of("--enable-leader-election=true",
            "--leader-election-namespace=kruise-system", "--leader-election-lease-duration=" + LEASE.toSeconds() + "s",
            "--leader-election-renew-deadline=4s", "--leader-election-retry-period=" + RETRY.toSeconds() + "s",
            "--shards=2");
    private static final Workloads.Variant VARIANT = new Workloads.Variant(WorkloadKind.CLONESET, false, 2);
    private static final Workloads.Variant HOOKED = new Workloads.Variant(WorkloadKind.CLONESET, true, 2,
            Workloads.Hook.IN_PLACE_UPDATE_LABEL);

    private static ClusterFixture cluster;
    private static KubernetesClient client;
    private static InvariantChecker checker;
    private static AutoCloseable watching;
    private static final List<ManagerUnderTest> managers = new ArrayList<>();
    private static final List<ControllerDefinition> CONTROLLERS = List.of(new CloneSetController(),
            new dev.kruisevertx.podreadiness.PodReadinessController());

    @BeforeAll
    static void startCluster() {
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(3));
        EmbeddedProduct.install(cluster.cluster());
        client = KubeClients.forTest(new ConfigBuilder(cluster.cluster().clientConfig()).withHttp2Disable(true).build());
        checker = InvariantChecker.withWorkloadInvariants();
        watching = checker.watch(client, null, List.of(WorkloadKind.CLONESET));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        for (ManagerUnderTest m : managers) {
            m.close();
        }
        if (watching != null) {
            watching.close();
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

    /** A namespace whose keys are in {@code shard} of 2 ("sh-<i>-e": no name is a part of another). */
    private static String namespaceIn(int shard) {
        for (int i = 0; ; i++) {
            String ns = "sh-" + i + "-e";
            if (Shards.shardOf(ns, 2) == shard) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                        .create();
                return ns;
            }
        }
    }

    @Test
    void twoReplicasSplitTheShardsAndASurvivorTakesOverAKilledOnesShard() throws Exception {
        ManagerUnderTest a = startManager(1);
        await("the first replica holds both shards", Duration.ofSeconds(60),
                () -> a.app().shards().held().equals(Set.of(0, 1)), () -> a.app().shards().held());
        ManagerUnderTest b = startManager(2);
        await("the shards split one each", Duration.ofSeconds(60),
                () -> a.app().shards().held().size() == 1 && b.app().shards().held().size() == 1,
                () -> "a=" + a.app().shards().held() + " b=" + b.app().shards().held());
        Set<Integer> union = new TreeSet<>(a.app().shards().held());
        union.addAll(b.app().shards().held());
        assertEquals(Set.of(0, 1), union, "disjoint and complete");
        assertLeaseHolders(a, b);

        String ns0 = namespaceIn(0);
        String ns1 = namespaceIn(1);
        client.resource(Workloads.yaml(VARIANT, ns0, "web", 3, "nginx:1.0")).create();
        client.resource(Workloads.yaml(VARIANT, ns1, "web", 3, "nginx:1.0")).create();
        // A hooked CloneSet (minReadySeconds, inPlaceUpdate hook released by the user's controller) whose rollout
        // goes on across the hand-over.
        client.resource(Workloads.yaml(HOOKED, ns1, "hooked", 2, "nginx:1.0")).create();
        HookHandler hooks = new HookHandler(client, ns1, "hooked", HOOKED.hook(), 7).start();
        awaitReady(ns0, "web", "nginx:1.0");
        awaitReady(ns1, "web", "nginx:1.0");
        awaitReady(ns1, "hooked", "nginx:1.0");

        ManagerUnderTest holder0 = a.app().shards().holds(0) ? a : b;
        ManagerUnderTest holder1 = holder0 == a ? b : a;
        // Each replica caches only the pods of its shard's namespaces (--shards: pods are cached per shard).
        awaitCachesOnly(holder0, Set.of(0), ns0);
        awaitCachesOnly(holder1, Set.of(1), ns1);
        // Each reconciled only its shard's CloneSet (the per-key plans each keeps).
        String plans0 = plans(holder0);
        String plans1 = plans(holder1);
        assertTrue(plans0.contains(ns0 + "/web"), plans0);
        assertFalse(plans0.contains(ns1 + "/web"), "the holder of shard 0 reconciled a key of shard 1: " + plans0);
        assertTrue(plans1.contains(ns1 + "/web"), plans1);
        assertFalse(plans1.contains(ns0 + "/web"), "the holder of shard 1 reconciled a key of shard 0: " + plans1);
        assertEquals(1.0, gauge(holder0, "kruise_manager_shards_held"));
        assertTrue(debugControllers(holder0).contains("\"held\":[0]"), debugControllers(holder0));

        // A rollout in shard 1 is under way when its holder dies without releasing anything.
        edit(ns1, r -> {
            ((java.util.Map<String, Object>) ((java.util.List<Object>) ((java.util.Map<String, Object>) ((java.util.Map<String, Object>)
                    ((java.util.Map<String, Object>) r.getAdditionalProperties().get("spec")).get("template")).get("spec"))
                    .get("containers")).get(0)).put("image", "nginx:2.0");
            return r;
        });
        editCloneSet(ns1, "hooked", r -> {
            ((java.util.Map<String, Object>) ((java.util.List<Object>) ((java.util.Map<String, Object>) ((java.util.Map<String, Object>)
                    ((java.util.Map<String, Object>) r.getAdditionalProperties().get("spec")).get("template")).get("spec"))
                    .get("containers")).get(0)).put("image", "nginx:2.0");
            return r;
        });
        // A second CloneSet of shard 1, deleted while the shard has no live holder (the owner deleted mid-operation).
        client.resource(Workloads.yaml(VARIANT, ns1, "doomed", 2, "nginx:1.0")).create();
        Thread.sleep(1500);
        long killedAt = System.nanoTime();
        holder1.killHard();
        managers.remove(holder1);
        JsonNode doomed = Workloads.get(client, WorkloadKind.CLONESET, ns1, "doomed");
        checker.expectWorkloadDeletion(doomed.path("metadata").path("uid").asText());
        retryingWebhook(() -> Workloads.resources(client, WorkloadKind.CLONESET).inNamespace(ns1).withName("doomed")
                .delete());
        await("the survivor takes shard 1", LEASE.plus(Duration.ofSeconds(30)),
                () -> holder0.app().shards().holds(1), () -> holder0.app().shards().held());
        Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
        // Lease time + a jittered retry + a round's requests, with slack for a loaded machine.
        assertTrue(takeover.compareTo(LEASE.plus(Duration.ofSeconds(10))) <= 0, "takeover took " + takeover);
        System.out.println("shard takeover after a hard kill: " + takeover.toMillis() + " ms (lease " + LEASE + ")");
        // The survivor lists shard 1's pods into its cache, then reconciles the moved CloneSets.
        awaitCachesOnly(holder0, Set.of(0, 1), ns1);
        awaitReady(ns1, "web", "nginx:2.0");
        awaitReady(ns1, "hooked", "nginx:2.0");
        assertTrue(plans(holder0).contains(ns1 + "/web"), "the survivor reconciles shard 1's CloneSet");
        assertTrue(plans(holder0).contains(ns1 + "/hooked"), "the survivor reconciles the hooked CloneSet");
        assertTrue(hooks.releases() > 0, "the inPlaceUpdate hook held and released pods");
        assertTrue(counter(holder0, "kruise_manager_shard_handovers_total", "gained") >= 2.0);
        await("the deleted CloneSet's pods gone", Duration.ofSeconds(60), () -> client.pods().inNamespace(ns1).list()
                .getItems().stream().noneMatch(p -> p.getMetadata().getName().startsWith("doomed-")), () -> "pods left");
        assertTrue(Workloads.get(client, WorkloadKind.CLONESET, ns1, "doomed") == null);

        // A new replica joins: the survivor gives one shard back, once.
        ManagerUnderTest c = startManager(3);
        await("the shards split again", Duration.ofSeconds(60),
                () -> holder0.app().shards().held().size() == 1 && c.app().shards().held().size() == 1,
                () -> "survivor=" + holder0.app().shards().held() + " new=" + c.app().shards().held());
        assertLeaseHolders(holder0, c);
        // The shard given back leaves the survivor's cache; the new replica lists it in.
        awaitCachesOnly(holder0, holder0.app().shards().held(), holder0.app().shards().holds(0) ? ns0 : ns1);
        awaitCachesOnly(c, c.app().shards().held(), c.app().shards().holds(0) ? ns0 : ns1);
        Set<Integer> before = holder0.app().shards().held();
        Thread.sleep(3 * RETRY.toMillis());
        assertEquals(before, holder0.app().shards().held(), "a settled spread does not move");

        // Work still flows in both shards after the hand-backs.
        for (String ns : List.of(ns0, ns1)) {
            edit(ns, r -> {
                ((java.util.Map<String, Object>) r.getAdditionalProperties().get("spec")).put("replicas", 2);
                return r;
            });
        }
        await("both scaled down", Duration.ofSeconds(120), () -> readyReplicas(ns0) == 2 && readyReplicas(ns1) == 2
                && activePods(ns0) == 2 && activePods(ns1) == 2, () -> "ns0=" + activePods(ns0) + " ns1=" + activePods(ns1));

        Thread.sleep(6000);
        checker.settle(System.currentTimeMillis(), true);
        hooks.close();
        assertEquals(List.of(), hooks.violations(), "the manager acted on pods the hook still held");
        assertEquals(List.of(), checker.violations(), "reliability invariants: " + checker.violationCounts());
    }

    /**
     * Waits until {@code m}'s pod cache holds exactly the pods of {@code ns} as the API server lists them, and
     * asserts that it holds no pod of a shard outside {@code shards} (and that the metric counts what it holds).
     */
    private static void awaitCachesOnly(ManagerUnderTest m, Set<Integer> shards, String ns) throws InterruptedException {
        var pods = m.app().cache().resource(io.fabric8.kubernetes.api.model.Pod.class);
        await("the cache of " + shards + " holds the pods of " + ns, Duration.ofSeconds(60), () -> {
            Set<String> cached = new TreeSet<>(pods.list(ns).stream().map(p -> p.getMetadata().getName()).toList());
            Set<String> stored = new TreeSet<>(client.pods().inNamespace(ns).list().getItems().stream()
                    .map(p -> p.getMetadata().getName()).toList());
            return !stored.isEmpty() && cached.equals(stored);
        }, () -> pods.list(ns).size() + " cached");
        await("only pods of shards " + shards + " cached", Duration.ofSeconds(60), () -> pods.list().stream()
                .allMatch(p -> shards.contains(Shards.shardOf(p.getMetadata().getNamespace(), 2))),
                () -> pods.list().stream().map(p -> p.getMetadata().getNamespace()).distinct().toList());
        List<io.fabric8.kubernetes.api.model.Pod> all = pods.list();
        assertTrue(all.stream().allMatch(p -> shards.contains(Shards.shardOf(p.getMetadata().getNamespace(), 2))),
                "pods of another shard cached");
        await("kruise_cache_objects counts the cached pods", Duration.ofSeconds(10),
                () -> m.app().registry().get("kruise_cache_objects").tag("kind", "v1/Pod").gauge().value()
                        == pods.list().size(), () -> pods.list().size());
    }

    /**
     * The embedded cluster calls one webhook endpoint, the one last registered: right after a kill it may still be
     * the dead manager's until the survivor registers its own again (a Service in front of every replica has no such
     * gap). Retried for up to 60 s, as the reliability suite does.
     */
    private static void retryingWebhook(Runnable call) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                call.run();
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (System.nanoTime() > deadline || e.getMessage() == null
                        || !e.getMessage().contains("failed calling webhook")) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    /** The user's edit races the controllers' status writes (a conflicting writer): retried on 409 as kubectl would. */
    private static void edit(String ns, java.util.function.UnaryOperator<io.fabric8.kubernetes.api.model.GenericKubernetesResource> change)
            throws InterruptedException {
        editCloneSet(ns, "web", change);
    }

    private static void editCloneSet(String ns, String name,
                                     java.util.function.UnaryOperator<io.fabric8.kubernetes.api.model.GenericKubernetesResource> change)
            throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                retryingWebhook(() -> Workloads.resources(client, WorkloadKind.CLONESET).inNamespace(ns).withName(name)
                        .edit(change));
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 20) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static void assertLeaseHolders(ManagerUnderTest x, ManagerUnderTest y) {
        for (int s = 0; s < 2; s++) {
            Lease lease = client.leases().inNamespace("kruise-system").withName("kruise-manager-shard-" + s).get();
            String holder = lease.getSpec().getHolderIdentity();
            ManagerUnderTest expected = x.app().shards().holds(s) ? x : y;
            assertTrue(debugControllers(expected).contains(holder), "lease of shard " + s + " held by " + holder);
        }
    }

    private static void awaitReady(String ns, String name, String image) throws InterruptedException {
        await(ns + "/" + name + " ready at " + image, Duration.ofSeconds(150), () -> {
            JsonNode w = Workloads.get(client, WorkloadKind.CLONESET, ns, name);
            if (w == null) {
                return false;
            }
            int replicas = w.path("spec").path("replicas").asInt();
            JsonNode st = w.path("status");
            return w.path("spec").path("template").path("spec").path("containers").path(0).path("image").asText()
                    .equals(image) && st.path("observedGeneration").asLong() == w.path("metadata").path("generation")
                    .asLong() && st.path("updatedReadyReplicas").asInt() == replicas
                    && st.path("readyReplicas").asInt() == replicas && activePods(ns, name) == replicas;
        }, () -> Workloads.get(client, WorkloadKind.CLONESET, ns, name).path("status") + " pods: "
                + client.pods().inNamespace(ns).list().getItems().stream().map(p -> p.getMetadata().getName() + " "
                        + p.getStatus().getPhase() + " node=" + p.getSpec().getNodeName() + " ready=" + p.getStatus()
                        .getConditions().stream().filter(c -> c.getType().equals("Ready")).map(c -> c.getStatus())
                        .findFirst().orElse("-")).toList() + " plans: " + managers.stream().map(m -> {
                            try {
                                return m.app().shards().held() + "=" + plans(m);
                            } catch (Exception e) {
                                return e.toString();
                            }
                        }).toList());
    }

    private static int readyReplicas(String ns) {
        return Workloads.get(client, WorkloadKind.CLONESET, ns, "web").path("status").path("readyReplicas").asInt();
    }

    private static long activePods(String ns) {
        return activePods(ns, "web");
    }

    private static long activePods(String ns, String workload) {
        return client.pods().inNamespace(ns).list().getItems().stream()
                .filter(p -> p.getMetadata().getName().startsWith(workload + "-"))
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).count();
    }

    private static String plans(ManagerUnderTest m) throws Exception {
        return get(m.app().debugPort(), "/debug/plans?controller=cloneset");
    }

    private static String debugControllers(ManagerUnderTest m) {
        try {
            return get(m.app().debugPort(), "/debug/controllers");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static double gauge(ManagerUnderTest m, String name) {
        return m.app().registry().get(name).gauge().value();
    }

    private static double counter(ManagerUnderTest m, String name, String direction) {
        return m.app().registry().get(name).tag("direction", direction).counter().count();
    }

    private static String get(int port, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build()
                .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return r.body();
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
