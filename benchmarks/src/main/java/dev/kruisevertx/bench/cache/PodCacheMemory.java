package dev.kruisevertx.bench.cache;

import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.ShardCacheScope;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.cache.WatchCacheOptions;
import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Heap retained per cached Pod: the shared {@link WatchCache}'s Pod informer lists {@code n} realistic pods
 * ({@link RealisticPods}, ~10.7 KB of JSON each) from a paging stand-in API server, exactly as it lists a real one
 * (fabric8 decodes every page; the informer stores and indexes each pod). Reported: time from start to synced, process
 * CPU per pod (the figure to compare on a shared machine), the peak heap during the fill, used heap after full GCs
 * before and after (the difference is the cache: objects, the item store and the built-in indexes) and bytes per pod.
 *
 * <p>Usage: {@code PodCacheMemory [pods=100000] [lean|full] [pageSize=500] [shards:held]}; {@code full} turns the
 * {@code LeanObjects} transform off (the cache as it was before it). Page size 0 lists whole, as the manager does with
 * {@code --cache-list-page-size=0}: fabric8 buffers a list response in one array before decoding it (so a whole list is bounded by the 2 GiB
 * array limit), and the JDK client's connection that the watch then uses keeps the last list body reachable, which
 * shows up here as ~10.7 KB more per pod. Pages of 500 measure the cache itself. {@code 2:0} caches pods per shard as
 * a replica of {@code --shards 2} holding shard 0 does ({@link ShardCacheScope}; the pods are spread over 100
 * namespaces); it may stand in the page size's place.
 */
public final class PodCacheMemory {

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        boolean lean = args.length <= 1 || !args[1].equals("full");
        long pageSize = 500;
        String shardArg = null;
        for (int i = 2; i < args.length; i++) {
            if (args[i].contains(":")) {
                shardArg = args[i];
            } else {
                pageSize = Long.parseLong(args[i]);
            }
        }
        try (PagingPodServer server = new PagingPodServer(n);
             KubernetesClient client = KubeClients.forTest(new ConfigBuilder().withMasterUrl(server.url())
                     .withNamespace("default").withRequestTimeout(600_000).build())) {
            long before = usedAfterGc();
            long cpuStart = processCpuNanos();
            ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
            long start = System.nanoTime();
            WatchCache cache = new WatchCache(client, WatchCacheOptions.defaults().withLeanObjects(lean).withListPageSize(pageSize),
                    new SimpleMeterRegistry());
            ShardCacheScope scope = null;
            if (shardArg != null) {
                String[] sh = shardArg.split(":");
                scope = new ShardCacheScope(Integer.parseInt(sh[0]), java.util.Map.of(Pod.class, false));
                cache.cacheByShard(scope);
                scope.gained(java.util.Set.of(Integer.parseInt(sh[1]))).toCompletableFuture().get();
                System.out.printf("per-shard pod cache: %s shards, holding shard %s%n", sh[0], sh[1]);
            }
            CachedResource<Pod> pods = cache.resource(Pod.class);
            cache.start(Pod.class).toCompletableFuture().get(2, TimeUnit.HOURS);
            double fillSeconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
            String load = loadAverage();
            long peak = peakHeapUsed();
            long after = usedAfterGc();
            int cached = pods.list().size();
            System.out.printf("%s cache: %,d pods cached in %.1f s (%,.0f pods/s)%n", lean ? "lean" : "full", cached,
                    fillSeconds, cached / fillSeconds);
            // CPU time is the figure to compare across runs on a shared machine: wall time depends on the neighbours.
            System.out.printf("  process CPU during the fill: %.1f s = %,.0f us per pod (stand-in server, decoding, transform, "
                    + "store, GC, JIT); load average at sync: %s%n", cpuSeconds, cpuSeconds * 1e6 / cached, load);
            // Includes garbage not yet collected: an upper bound of what the list needed at once, not a floor.
            System.out.printf("  peak heap used during the fill (sum of the pools' peaks): %,.0f MiB%n", peak / 1048576.0);
            System.out.printf("  heap used after GC: %,.1f MiB before, %,.1f MiB after: cache %,.1f MiB = %,.0f bytes per pod%n",
                    before / 1048576.0, after / 1048576.0, (after - before) / 1048576.0, (after - before) / (double) cached);
            System.out.printf("  JVM: %s %s, max heap %,d MiB, GC %s%n", System.getProperty("java.vm.name"),
                    System.getProperty("java.runtime.version"), Runtime.getRuntime().maxMemory() / 1048576,
                    ManagementFactory.getGarbageCollectorMXBeans().get(0).getName());
            cache.close();
            if (scope != null) {
                scope.close();
            }
        }
    }

    private static long peakHeapUsed() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private PodCacheMemory() {
    }
}
