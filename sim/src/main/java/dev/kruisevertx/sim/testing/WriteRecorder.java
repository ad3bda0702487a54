package dev.kruisevertx.sim.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.api.ResourceType;
import dev.kruisevertx.sim.api.StoredEvent;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Records the writes the embedded API server stores for some resources in one namespace, each with the parts of the
 * object it changed ({@code metadata.labels}, {@code spec}, {@code status.conditions[Ready]}, ...), so a test can
 * assert that nobody created, deleted or changed its objects over a stretch of time, and name what changed when
 * someone did. Bookkeeping fields the server itself moves (resourceVersion, managedFields, generation) are not
 * changes.
 */
public final class WriteRecorder implements AutoCloseable {
    /** Server-maintained metadata that every write moves. */
    private static final Set<String> SERVER_METADATA = Set.of("resourceVersion", "managedFields", "generation");

    /**
     * One stored write.
     *
     * @param type    ADDED, MODIFIED or DELETED
     * @param changed the parts a MODIFIED changed (empty for ADDED and DELETED)
     */
    public record Write(String resource, String type, String namespace, String name, Set<String> changed) {
        public String describe() {
            return type + " " + resource + " " + namespace + "/" + name + (changed.isEmpty() ? "" : " " + changed);
        }

        /** Whether the write created or deleted the object, or changed its metadata or spec. */
        public boolean touchesObject() {
            return !type.equals("MODIFIED")
                    || changed.stream().anyMatch(c -> c.startsWith("metadata.") || c.equals("spec"));
        }
    }

    private final List<Write> writes = new CopyOnWriteArrayList<>();
    private final List<Runnable> stops = new ArrayList<>();
    private final EmbeddedCluster cluster;

    private WriteRecorder(EmbeddedCluster cluster) {
        this.cluster = cluster;
    }

    /** Starts recording writes to {@code resources} (registry keys, such as {@code pods}) in {@code namespace}. */
    public static WriteRecorder start(EmbeddedCluster cluster, String namespace, String... resources)
            throws Exception {
        WriteRecorder recorder = new WriteRecorder(cluster);
        for (String resource : resources) {
            ResourceType type = cluster.apiServer().registry().byKey(resource).orElseThrow(
                    () -> new IllegalArgumentException("no resource " + resource));
            recorder.stops.add(cluster.onApiContext(() -> cluster.apiServer().store().listen(type, e -> {
                ObjectNode o = e.object();
                if (namespace.equals(o.path("metadata").path("namespace").asText())) {
                    recorder.writes.add(new Write(resource, e.type(), namespace,
                            o.path("metadata").path("name").asText(), changed(e)));
                }
            })).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
        }
        return recorder;
    }

    /** Every write recorded so far, in order. */
    public List<Write> writes() {
        return List.copyOf(writes);
    }

    /** The parts of the object a MODIFIED event changed: metadata fields, spec, and status fields. */
    static Set<String> changed(StoredEvent e) {
        Set<String> out = new TreeSet<>();
        if (e.previous() == null || !e.type().equals("MODIFIED")) {
            return out;
        }
        JsonNode before = e.previous();
        JsonNode after = e.object();
        diffFields("metadata", before.path("metadata"), after.path("metadata"), SERVER_METADATA, out);
        if (!before.path("spec").equals(after.path("spec"))) {
            out.add("spec");
        }
        JsonNode sb = before.path("status");
        JsonNode sa = after.path("status");
        diffFields("status", sb, sa, Set.of("conditions"), out);
        if (!sb.path("conditions").equals(sa.path("conditions"))) {
            Set<String> types = new TreeSet<>();
            sb.path("conditions").forEach(c -> types.add(c.path("type").asText()));
            sa.path("conditions").forEach(c -> types.add(c.path("type").asText()));
            for (String t : types) {
                if (!condition(sb, t).equals(condition(sa, t))) {
                    out.add("status.conditions[" + t + "]");
                }
            }
        }
        return out;
    }

    private static void diffFields(String prefix, JsonNode before, JsonNode after, Set<String> skip,
                                   Set<String> out) {
        Set<String> names = new TreeSet<>();
        before.fieldNames().forEachRemaining(names::add);
        after.fieldNames().forEachRemaining(names::add);
        for (String n : names) {
            if (!skip.contains(n) && !before.path(n).equals(after.path(n))) {
                out.add(prefix + "." + n);
            }
        }
    }

    private static JsonNode condition(JsonNode status, String type) {
        for (Iterator<JsonNode> it = status.path("conditions").elements(); it.hasNext(); ) {
            JsonNode c = it.next();
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    @Override
    public void close() throws Exception {
        cluster.onApiContext(() -> {
            stops.forEach(Runnable::run);
            return null;
        }).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
