package dev.kruisevertx.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonDiff;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Debug aid in the spirit of client-go's cache mutation detector: remembers the serialized form of every
 * object as it enters the cache and compares it with the live cached instance, periodically and on
 * {@link #check()}. A difference means some caller modified a shared cached object, which corrupts every
 * other reader's view and the optimistic-locking resourceVersion. Each mutation is reported once:
 * an ERROR log naming kind, namespace and name with the changed paths (operation and JSON pointer, never the
 * values: a mutated env value or secret must not reach the log), and the counter {@value #METRIC}{kind}.
 */
public final class CacheMutationDetector implements AutoCloseable {
    public static final String METRIC = "kruise_cache_mutations_total";

    private static final Logger LOG = LoggerFactory.getLogger(CacheMutationDetector.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** At most this many changed paths are listed per object. */
    static final int MAX_PATHS = 20;

    /** One detected in-place change of a cached object: {@code changes} lists operations and paths, no values. */
    public record Mutation(String kind, String namespace, String name, String changes) {
        @Override
        public String toString() {
            return kind + " " + (namespace == null ? "" : namespace + "/") + name + " changed: " + changes;
        }
    }

    private final KubernetesSerialization serialization;
    private final MeterRegistry registry;
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;
    private final Map<String, io.fabric8.kubernetes.client.informers.cache.Store<? extends HasMetadata>> stores =
            new java.util.concurrent.ConcurrentHashMap<>();

    CacheMutationDetector(KubernetesSerialization serialization, MeterRegistry registry, Duration period) {
        this.serialization = serialization;
        this.registry = registry;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cache-mutation-detector");
            t.setDaemon(true);
            return t;
        });
        long ms = Math.max(1, period.toMillis());
        scheduler.scheduleWithFixedDelay(this::scanQuietly, ms, ms, TimeUnit.MILLISECONDS);
        LOG.warn("cache mutation detector is on: every cached object is kept twice and re-serialized every {}", period);
    }

    /** Compares now; throws if any cached object was changed since it entered the cache. */
    public void check() {
        List<Mutation> found = scan(true);
        if (!found.isEmpty()) {
            throw new CacheMutationException(found);
        }
    }

    /** Number of objects under watch. */
    public int tracked() {
        return snapshots.size();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        snapshots.clear();
    }

    /**
     * fabric8 swaps an object with an unchanged resourceVersion into its store without telling handlers (a watch
     * replay does that), so scans compare the instance the store hands out now, looked up through {@code store}.
     */
    <T extends HasMetadata> ResourceEventHandler<T> handlerFor(String kind, io.fabric8.kubernetes.client.informers.cache.Store<T> store) {
        stores.put(kind, store);
        return handlerFor(kind);
    }

    <T extends HasMetadata> ResourceEventHandler<T> handlerFor(String kind) {
        return InformerHandlers.changesAndDeletes(obj -> remember(kind, obj), obj -> snapshots.remove(key(kind, obj)));
    }

    private void remember(String kind, HasMetadata obj) {
        snapshots.put(key(kind, obj), new Snapshot(kind, obj, serialization.asJson(obj)));
    }

    private void scanQuietly() {
        try {
            scan(false);
        } catch (RuntimeException e) {
            LOG.warn("cache mutation scan failed", e);
        }
    }

    // includeReported: check() lists every mutation still present; the periodic scan only reports new ones.
    private List<Mutation> scan(boolean includeReported) {
        List<Mutation> found = new ArrayList<>();
        for (Snapshot s : snapshots.values()) {
            HasMetadata live = live(s);
            // A newer resourceVersion is a real update whose handler call has not run yet, not a mutation.
            if (live == null || !java.util.Objects.equals(live.getMetadata().getResourceVersion(),
                    s.resourceVersion)) {
                continue;
            }
            String now = serialization.asJson(live);
            if (now.equals(s.json)) {
                continue;
            }
            Mutation m = new Mutation(s.kind, s.object.getMetadata().getNamespace(), s.object.getMetadata().getName(),
                    diff(s.json, now));
            if (!s.reported) {
                s.reported = true;
                LOG.error("cached object mutated by a caller: {} (cached objects are shared and read-only; "
                        + "copy before changing and write with a patch)", m);
                Counter.builder(METRIC)
                        .description("Cached objects found modified in place by a caller")
                        .tag("kind", s.kind)
                        .register(registry)
                        .increment();
                found.add(m);
            } else if (includeReported) {
                found.add(m);
            }
        }
        return found;
    }

    /** The patch's operations as {@code "replace /spec/replicas"}, without values. */
    private static String diff(String before, String after) {
        try {
            JsonNode patch = JsonDiff.asJson(JSON.readTree(before), JSON.readTree(after));
            List<String> ops = new ArrayList<>();
            for (JsonNode op : patch) {
                if (ops.size() == MAX_PATHS) {
                    ops.add("... " + (patch.size() - MAX_PATHS) + " more");
                    break;
                }
                String from = op.path("from").asText("");
                ops.add(op.path("op").asText() + " " + (from.isEmpty() ? "" : from + " -> ") + op.path("path").asText());
            }
            return ops.toString();
        } catch (Exception e) {
            return "(could not compute the difference: " + e.getMessage() + ")";
        }
    }

    private HasMetadata live(Snapshot s) {
        io.fabric8.kubernetes.client.informers.cache.Store<? extends HasMetadata> store = stores.get(s.kind);
        if (store == null) {
            return s.object;
        }
        String ns = s.object.getMetadata().getNamespace();
        return store.getByKey(ns == null || ns.isEmpty() ? s.object.getMetadata().getName()
                : ns + "/" + s.object.getMetadata().getName());
    }

    private static String key(String kind, HasMetadata obj) {
        String ns = obj.getMetadata().getNamespace();
        return kind + "|" + (ns == null ? "" : ns) + "/" + obj.getMetadata().getName();
    }

    private static final class Snapshot {
        final String kind;
        final HasMetadata object;
        final String json;
        final String resourceVersion;
        volatile boolean reported;

        Snapshot(String kind, HasMetadata object, String json) {
            this.kind = kind;
            this.object = object;
            this.json = json;
            this.resourceVersion = object.getMetadata().getResourceVersion();
        }
    }
}
