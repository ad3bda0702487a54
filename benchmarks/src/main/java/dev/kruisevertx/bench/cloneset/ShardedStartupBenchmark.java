package dev.kruisevertx.bench.cloneset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.bench.startup.StartupHarness;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.Shards;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Start-up of R manager replicas with {@code --shards S} against one API server holding C CloneSets of P ready pods
 * each, spread round-robin over N namespaces (so the namespace hash splits them about evenly between shards), then the
 * hard death of one replica. All in one JVM: the embedded API server (no kubelets, no admission) and the replicas,
 * each a whole manager (webhook, CloneSet controller, shard election) with its own client behind a
 * {@link dev.kruisevertx.sim.faults.FaultProxy} so that it can be cut off as a killed process is.
 *
 * <p>Reported: loading time and the API server's heap (used heap after GC before and after loading); time from the
 * replicas' start until every CloneSet's status shows generation 1 and P replicas, and reconciles per second (all
 * replicas); the reconcile phase alone (from the first CloneSet seen reconciled to the last); each replica's requests
 * by verb and resource ({@link RequestCounts}) during its start-up and then until every CloneSet is reconciled; the replicas' heap (growth after they started, and its average per replica); then one replica's proxy
 * cuts it off (it releases nothing), every CloneSet of its shards gets a spec edit (generation 2) and the hand-over
 * time is the time from the cut until the survivors hold every shard and have reconciled all those CloneSets at
 * generation 2; the heap that the dead replica's removal freed is its own heap, measured.
 *
 * <p>Run: {@code java -Xmx8g -cp benchmarks/target/benchmarks.jar
 * dev.kruisevertx.bench.cloneset.ShardedStartupBenchmark 2000 50 1000 4 4}
 * (CloneSets, pods each, namespaces, replicas, shards).
 */
public final class ShardedStartupBenchmark {
    private static final String USAGE = "ShardedStartupBenchmark <clonesets> <pods each> <namespaces> <replicas> <shards>"
            + " [cache list page size, 0 = whole lists] [sidecarset: run the sidecarset controller too, so the holder"
            + " of shard 0 caches every pod]";
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);
    /** CloneSets being loaded at once (each awaits its pods' creation and status writes). */
    private static final int LOAD_WINDOW = 64;
    private static final long POLL_MILLIS = 500;

    private ShardedStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5 || args.length > 7 || (args.length == 7 && !args[6].equals("sidecarset"))) {
            throw new IllegalArgumentException("usage: " + USAGE);
        }
        int clonesets = Integer.parseInt(args[0]);
        int podsEach = Integer.parseInt(args[1]);
        int namespaces = Integer.parseInt(args[2]);
        int replicas = Integer.parseInt(args[3]);
        int shards = Integer.parseInt(args[4]);
        int pageSize = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        if (clonesets < 1 || podsEach < 1 || namespaces < 1 || replicas < 1 || shards < 1) {
            throw new IllegalArgumentException("usage: " + USAGE);
        }
        System.out.printf("cache list page size %d (0: whole lists)%n", args.length > 5 ? Integer.parseInt(args[5]) : 0);
        System.out.printf("%d CloneSets x %d pods in %d namespaces, %d replicas, --shards %d; lease %d s, renew deadline"
                        + " %d s, retry period %d s; max heap %d MiB, %d CPUs%n", clonesets, podsEach, namespaces,
                replicas, shards, LEASE.toSeconds(), RENEW_DEADLINE.toSeconds(), RETRY.toSeconds(),
                Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors());
        try (StartupHarness h = StartupHarness.start()) {
            new ShardedStartupBenchmark().run(h, clonesets, podsEach, namespaces, replicas, shards, pageSize,
                    args.length == 7);
        }
    }

    private static String namespace(int i, int namespaces) {
        return "ns-" + (i % namespaces);
    }

    private void run(StartupHarness h, int clonesets, int podsEach, int namespaces, int replicas, int shards,
                     int pageSize, boolean sidecarSets) throws Exception {
        long heapEmpty = Heap.usedAfterGc();
        ResourceType nsType = h.api().type("", "v1", "namespaces");
        ResourceType csType = h.api().type(CloneSet.GROUP, CloneSet.VERSION, CloneSet.PLURAL);
        ResourceType podType = h.api().type("", "v1", "pods");
        int[] perShard = new int[shards];
        for (int i = 0; i < namespaces; i++) {
            h.create(nsType, "v1", null, new NamespaceBuilder().withNewMetadata().withName("ns-" + i).endMetadata()
                    .build()).await(60, TimeUnit.SECONDS);
        }
        for (int i = 0; i < clonesets; i++) {
            perShard[Shards.shardOf(namespace(i, namespaces), shards)]++;
        }
        System.out.println("CloneSets per shard: " + java.util.Arrays.toString(perShard));

        long loadStart = System.nanoTime();
        Semaphore window = new Semaphore(LOAD_WINDOW);
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < clonesets; i++) {
            window.acquire();
            load(h, csType, podType, namespace(i, namespaces), "app-" + i, podsEach)
                    .onComplete(ar -> {
                        if (ar.failed()) {
                            failures.add(ar.cause());
                        }
                        window.release();
                    });
            if (!failures.isEmpty()) {
                throw new IllegalStateException("loading failed", failures.get(0));
            }
        }
        window.acquire(LOAD_WINDOW);
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        long heapLoaded = Heap.usedAfterGc();
        System.out.printf("loaded %d CloneSets, %d pods in %.1f s (%.0f pods/s); API server heap: %d MiB (used after GC"
                        + " %d MiB empty, %d MiB loaded)%n", clonesets, (long) clonesets * podsEach, loadSeconds,
                clonesets * (double) podsEach / loadSeconds, (heapLoaded - heapEmpty) >> 20, heapEmpty >> 20,
                heapLoaded >> 20);

        List<ControllerDefinition> controllers = sidecarSets
                ? List.of(new CloneSetController(), new dev.kruisevertx.sidecarset.SidecarSetController())
                : List.of(new CloneSetController());
        System.out.println("controllers: " + controllers.stream().map(ControllerDefinition::name).toList());
        List<Replica> running = new ArrayList<>();
        ExecutorService starters = Executors.newFixedThreadPool(replicas);
        Vertx proxies = Vertx.vertx();
        try {
            List<String> flags = List.of("--enable-leader-election=true", "--leader-election-namespace=kruise-system",
                    "--leader-election-lease-duration=" + LEASE.toSeconds() + "s",
                    "--leader-election-renew-deadline=" + RENEW_DEADLINE.toSeconds() + "s",
                    "--leader-election-retry-period=" + RETRY.toSeconds() + "s", "--shards=" + shards,
                    "--cache-list-page-size=" + pageSize);
            long start = System.nanoTime();
            List<java.util.concurrent.Future<Replica>> starting = new ArrayList<>();
            for (int r = 0; r < replicas; r++) {
                int index = r;
                starting.add(starters.submit(() -> Replica.start(proxies, h, index, controllers, flags)));
            }
            for (java.util.concurrent.Future<Replica> f : starting) {
                running.add(f.get(10, TimeUnit.MINUTES));
            }
            System.out.printf("replicas up (webhook ready, campaigning) after %.1f s%n", (System.nanoTime() - start) / 1e9);
            for (Replica r : running) {
                System.out.printf("  replica %d start-up %s%n", r.index(), r.requests().drain());
            }
            ShardZeroGates gates = ShardZeroGates.watch(running, start);
            long[] lastReport = {System.nanoTime()};
            long[] firstSeen = {0};
            boolean all = await(Duration.ofMinutes(Integer.getInteger("bench.startupMinutes", 15)), () -> {
                int n = reconciled(h, csType, podsEach);
                if (n > 0 && firstSeen[0] == 0) {
                    firstSeen[0] = System.nanoTime();
                }
                if (System.nanoTime() - lastReport[0] > TimeUnit.SECONDS.toNanos(10)) {
                    lastReport[0] = System.nanoTime();
                    System.out.printf("  %.0f s: %d reconciled, %.0f reconciles%n", (lastReport[0] - start) / 1e9, n,
                            running.stream().mapToDouble(Replica::reconciles).sum());
                }
                return n == clonesets;
            });
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!all) {
                System.out.println("a CloneSet's status: " + h.cluster().onApiContext(() -> h.api().store().all(csType)
                        .iterator().next().path("status").toString()).await(60, TimeUnit.SECONDS));
            }
            double reconciles = 0;
            for (Replica r : running) {
                reconciles += r.reconciles();
            }
            System.out.printf("CloneSets reconciled once: %d/%d%s%n", reconciled(h, csType, podsEach), clonesets,
                    all ? "" : " (GAVE UP after 15 min)");
            System.out.printf("time to every CloneSet reconciled once: %.1f s%n", seconds);
            // The reconcile phase alone: from the first CloneSet seen reconciled (polls every POLL_MILLIS) to the last.
            System.out.printf("first CloneSet seen reconciled at %.1f s: reconcile phase %.1f s%n",
                    (firstSeen[0] - start) / 1e9, seconds - (firstSeen[0] - start) / 1e9);
            gates.report();
            System.out.printf("reconciles: %.0f (%.0f per second)%n", reconciles, reconciles / seconds);
            for (Replica r : running) {
                System.out.printf("  replica %d: shards %s, %.0f reconciles; %s%n", r.index(), r.app().shards().held(),
                        r.reconciles(), r.requests().drain());
            }
            long heapRunning = Heap.usedAfterGc();
            System.out.printf("replicas' heap: %d MiB in all, %d MiB per replica on average (used after GC %d MiB)%n",
                    (heapRunning - heapLoaded) >> 20, ((heapRunning - heapLoaded) / replicas) >> 20, heapRunning >> 20);
            if (replicas > 1 && shards > 1) {
                handOver(h, csType, running, namespaces, shards, clonesets, heapRunning);
            }
        } finally {
            for (Replica r : running) {
                r.close();
            }
            starters.shutdownNow();
            proxies.close().await(60, TimeUnit.SECONDS);
        }
    }

    /**
     * One CloneSet with its first ready pod through the API server's create and status update (defaults, uid,
     * metadata as it stores them), then the other {@code pods - 1} as copies of that stored pod, each with its own name,
     * uid, instance id and node, put straight into the store (with its ADDED event): a million pods through the full
     * write path twice each would take longer than the run itself.
     */
    private static Future<?> load(StartupHarness h, ResourceType csType, ResourceType podType, String namespace,
                                  String name, int pods) {
        return CloneSetStartupBenchmark.load(h, csType, namespace, name, pods, 1)
                .compose(v -> h.cluster().onApiContext(() -> {
                    ObjectNode first = h.api().store().get(podType, namespace, name + "-00000");
                    for (int j = 1; j < pods; j++) {
                        String id = String.format("%05d", j);
                        ObjectNode copy = first.deepCopy();
                        ObjectNode meta = (ObjectNode) copy.get("metadata");
                        meta.put("name", name + "-" + id);
                        meta.put("uid", java.util.UUID.randomUUID().toString());
                        ((ObjectNode) meta.get("labels")).put(dev.kruisevertx.api.common.WellKnown.CLONESET_INSTANCE_ID_LABEL, id);
                        ((ObjectNode) copy.get("spec")).put("nodeName", "node-" + (j % 100));
                        h.api().store().put(podType, copy);
                    }
                    return null;
                }));
    }

    /** Kills replica 0 hard and measures until the survivors have taken its shards and reconciled their CloneSets. */
    private void handOver(StartupHarness h, ResourceType csType, List<Replica> running, int namespaces, int shards,
                          int clonesets, long heapRunning) throws Exception {
        boolean spread = await(Duration.ofMinutes(3), () -> {
            Set<Integer> union = new TreeSet<>();
            for (Replica r : running) {
                if (r.app().shards().held().isEmpty()) {
                    return false;
                }
                union.addAll(r.app().shards().held());
            }
            return union.size() == shards;
        });
        System.out.println("shards spread over every replica: " + spread);
        Replica victim = running.get(0);
        Set<Integer> lost = victim.app().shards().held();
        List<String> affected = new ArrayList<>();
        for (int i = 0; i < clonesets; i++) {
            if (lost.contains(Shards.shardOf(namespace(i, namespaces), shards))) {
                affected.add(namespace(i, namespaces) + "/app-" + i);
            }
        }
        List<Replica> survivors = running.subList(1, running.size());
        long killedAt = System.nanoTime();
        victim.proxy().partition(Duration.ofDays(1));
        Thread closer = new Thread(victim::close, "killed-replica-close");
        closer.start();
        // A change to every CloneSet of the dead replica's shards: only a survivor that took the shard reconciles it.
        h.cluster().onApiContext(() -> bump(h.api(), csType, affected)).compose(f -> f).await(5, TimeUnit.MINUTES);
        long[] shardsTakenAt = {0};
        boolean done = await(Duration.ofMinutes(5), () -> {
            if (shardsTakenAt[0] == 0) {
                Set<Integer> union = new TreeSet<>();
                survivors.forEach(r -> union.addAll(r.app().shards().held()));
                if (union.size() == shards) {
                    shardsTakenAt[0] = System.nanoTime();
                }
            }
            return shardsTakenAt[0] != 0 && atGeneration2(h, csType, affected) == affected.size();
        });
        double handOver = (System.nanoTime() - killedAt) / 1e9;
        System.out.printf("killed replica 0 (shards %s, %d CloneSets); survivors held every shard after %.1f s%n", lost,
                affected.size(), shardsTakenAt[0] == 0 ? Double.NaN : (shardsTakenAt[0] - killedAt) / 1e9);
        System.out.printf("hand-over time (kill to all its CloneSets reconciled by survivors): %.1f s%s; lease %d s +"
                        + " retry period %d s = %d s%n", handOver, done ? "" : " (GAVE UP after 5 min)",
                LEASE.toSeconds(), RETRY.toSeconds(), LEASE.plus(RETRY).toSeconds());
        for (Replica r : survivors) {
            System.out.printf("  replica %d now: shards %s, %.0f reconciles%n", r.index(), r.app().shards().held(),
                    r.reconciles());
        }
        closer.join(TimeUnit.MINUTES.toMillis(2));
        long heapAfter = Heap.usedAfterGc();
        System.out.printf("heap freed by the killed replica: %d MiB (used after GC %d MiB)%n",
                (heapRunning - heapAfter) >> 20, heapAfter >> 20);
    }

    /** Runs on the API context: sets spec.minReadySeconds of every listed CloneSet (a new generation, no new revision). */
    private static Future<?> bump(ApiServer api, ResourceType csType, List<String> keys) {
        List<Future<ObjectNode>> writes = new ArrayList<>();
        for (String key : keys) {
            String[] nsName = key.split("/", 2);
            ObjectNode cs = api.store().get(csType, nsName[0], nsName[1]).deepCopy();
            ((ObjectNode) cs.path("spec")).put("minReadySeconds", 1);
            writes.add(api.update(csType, CloneSet.VERSION, nsName[0], nsName[1], "", cs, false));
        }
        return Future.all(writes);
    }

    private static int atGeneration2(StartupHarness h, ResourceType csType, List<String> keys) {
        try {
            return h.cluster().onApiContext(() -> {
                int n = 0;
                for (String key : keys) {
                    String[] nsName = key.split("/", 2);
                    ObjectNode cs = h.api().store().get(csType, nsName[0], nsName[1]);
                    if (cs.path("metadata").path("generation").asLong() >= 2
                            && cs.path("status").path("observedGeneration").asLong() >= 2) {
                        n++;
                    }
                }
                return n;
            }).await(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int reconciled(StartupHarness h, ResourceType csType, int podsEach) {
        try {
            return h.cluster().onApiContext(() -> CloneSetStartupBenchmark.reconciledOnce(h.api(), csType, podsEach))
                    .await(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Polls {@code condition} every {@value #POLL_MILLIS} ms: each poll scans every CloneSet on the API server's
     * context, which at 20,000 CloneSets every 100 ms took a noticeable share of the server's event loop.
     */
    private static boolean await(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return false;
    }

    static double reconcileCount(io.micrometer.core.instrument.MeterRegistry registry) {
        double n = 0;
        for (Counter c : registry.find("controller_runtime_reconcile").counters()) {
            n += c.count();
        }
        return n;
    }

    /** Used heap after full GCs (the replicas and the API server share this JVM, so every figure is a difference). */
    static final class Heap {
        private Heap() {
        }

        static long usedAfterGc() throws InterruptedException {
            Runtime rt = Runtime.getRuntime();
            for (int i = 0; i < 3; i++) {
                System.gc();
                Thread.sleep(200);
            }
            return rt.totalMemory() - rt.freeMemory();
        }
    }
}
