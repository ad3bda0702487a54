package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@code rollout status|history|undo|pause|resume} and {@code set image} for any {@link WorkloadKind}.
 * Methods print to {@code out} and signal user errors with {@link CliException}.
 */
public final class RolloutOperations {
    static final String CHANGE_CAUSE = "kubernetes.io/change-cause";

    private final WorkloadClient client;
    private final PrintStream out;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;

    /** How the status watch waits between polls; tests may speed it up. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    public RolloutOperations(WorkloadClient client, PrintStream out) {
        this(client, out, System::nanoTime, d -> Thread.sleep(d.toMillis()));
    }

    RolloutOperations(WorkloadClient client, PrintStream out, LongSupplier nanoClock, Sleeper sleeper) {
        this.client = client;
        this.out = out;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    /**
     * Prints the rollout state; with {@code watch}, polls until done or {@code timeout} (zero: no limit).
     * Returns true when the rollout is complete.
     */
    public boolean status(WorkloadKinds.Target target, boolean watch, Duration timeout, Duration pollInterval)
            throws InterruptedException {
        long deadline = timeout.isZero() ? Long.MAX_VALUE : nanoClock.getAsLong() + timeout.toNanos();
        String last = null;
        while (true) {
            RolloutState state = target.kind().rolloutState(client.get(target));
            if (!state.message().equals(last)) {
                out.println(state.message());
                last = state.message();
            }
            if (state.done() || !watch) {
                return state.done();
            }
            if (nanoClock.getAsLong() >= deadline) {
                throw new CliException("timed out after " + timeout.toSeconds() + "s waiting for the rollout of "
                        + target.displayName());
            }
            sleeper.sleep(pollInterval);
        }
    }

    /** Lists revisions, or prints the pod template of one revision when {@code revision > 0}. */
    public void history(WorkloadKinds.Target target, long revision) {
        JsonNode object = client.get(target);
        List<ControllerRevision> revisions = client.revisions(target, object);
        if (revision > 0) {
            ControllerRevision r = find(target, revisions, revision);
            out.println(target.displayName() + " with revision #" + revision);
            out.print(Serialization.asYaml(Map.of("template", WorkloadClient.templateOf(r))).replaceFirst("^---\\n", ""));
            return;
        }
        out.println(target.displayName());
        if (revisions.isEmpty()) {
            out.println("No rollout history found.");
            return;
        }
        out.printf("%-10s%s%n", "REVISION", "CHANGE-CAUSE");
        for (ControllerRevision r : revisions) {
            Map<String, String> annotations = r.getMetadata().getAnnotations();
            String cause = annotations == null ? null : annotations.get(CHANGE_CAUSE);
            out.printf("%-10d%s%n", r.getRevision(), cause == null ? "<none>" : cause);
        }
        out.println();
    }

    /** Puts back the pod template of {@code toRevision}, or of the revision before the newest when it is 0. */
    public void undo(WorkloadKinds.Target target, long toRevision) {
        JsonNode object = client.get(target);
        List<ControllerRevision> revisions = client.revisions(target, object);
        ControllerRevision chosen;
        if (toRevision > 0) {
            chosen = find(target, revisions, toRevision);
        } else {
            if (revisions.size() < 2) {
                throw new CliException("no rollout history found for " + target.displayName()
                        + ": there is no previous revision to roll back to");
            }
            chosen = revisions.get(revisions.size() - 2);
        }
        ObjectNode template = WorkloadClient.templateOf(chosen);
        JsonNode current = object.path("spec").path("template");
        if (withoutNulls(template).equals(withoutNulls(current))) {
            out.println(target.displayName() + " skipped rollback (current template already matches revision "
                    + chosen.getRevision() + ")");
            return;
        }
        ArrayNode ops = JsonNodeFactory.instance.arrayNode();
        ops.add(testResourceVersion(object));
        ops.addObject().put("op", "replace").put("path", "/spec/template").set("value", template);
        client.jsonPatch(target, ops);
        out.println(target.displayName() + " rolled back");
    }

    /** Sets the kind's paused flag; pausing a paused workload (or resuming a running one) is an error, as in kubectl. */
    public void setPaused(WorkloadKinds.Target target, boolean paused) {
        JsonNode object = client.get(target);
        List<String> path = target.kind().pausedPath();
        boolean now = ReplicatedWorkloadKind.at(object, path).asBoolean(false);
        if (now == paused) {
            throw new CliException(target.displayName() + " is " + (paused ? "already paused" : "not paused"));
        }
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode node = patch;
        for (int i = 0; i < path.size() - 1; i++) {
            node = node.putObject(path.get(i));
        }
        node.put(path.get(path.size() - 1), paused);
        client.mergePatch(target, patch);
        out.println(target.displayName() + (paused ? " paused" : " resumed"));
    }

    /**
     * Sets container images ({@code name=image}, {@code *=image} for every container) in the pod template,
     * init containers included. Every named container must exist.
     */
    public void setImage(WorkloadKinds.Target target, Map<String, String> images) {
        if (images.isEmpty()) {
            throw new CliException("at least one CONTAINER=IMAGE pair is required");
        }
        JsonNode object = client.get(target);
        JsonNode podSpec = object.path("spec").path("template").path("spec");
        ArrayNode ops = JsonNodeFactory.instance.arrayNode();
        ops.add(testResourceVersion(object));
        java.util.Set<String> matched = new java.util.HashSet<>();
        for (String list : List.of("initContainers", "containers")) {
            JsonNode containers = podSpec.path(list);
            for (int i = 0; i < containers.size(); i++) {
                String name = containers.get(i).path("name").asText();
                String image = images.containsKey(name) ? images.get(name) : images.get("*");
                if (image == null) {
                    continue;
                }
                matched.add(name);
                if (!image.equals(containers.get(i).path("image").asText())) {
                    ops.addObject().put("op", "replace").put("path", "/spec/template/spec/" + list + "/" + i + "/image")
                            .put("value", image);
                }
            }
        }
        for (String name : images.keySet()) {
            if (!name.equals("*") && !matched.contains(name)) {
                throw new CliException("unable to find container named \"" + name + "\" in " + target.displayName());
            }
        }
        if (ops.size() == 1) {
            out.println(target.displayName() + " image unchanged");
            return;
        }
        client.jsonPatch(target, ops);
        out.println(target.displayName() + " image updated");
    }

    private static ControllerRevision find(WorkloadKinds.Target target, List<ControllerRevision> revisions, long n) {
        return revisions.stream().filter(r -> r.getRevision() != null && r.getRevision() == n).findFirst()
                .orElseThrow(() -> new CliException("unable to find revision " + n + " of " + target.displayName()
                        + (revisions.isEmpty() ? " (it has no revisions)" : " (revisions: "
                        + revisions.stream().map(r -> String.valueOf(r.getRevision())).toList() + ")")));
    }

    private static ObjectNode testResourceVersion(JsonNode object) {
        return JsonNodeFactory.instance.objectNode().put("op", "test").put("path", "/metadata/resourceVersion")
                .put("value", object.path("metadata").path("resourceVersion").asText());
    }

    /** A copy without null values and empty objects, so a stored template compares equal to the live one. */
    static JsonNode withoutNulls(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            node.fields().forEachRemaining(e -> {
                JsonNode v = withoutNulls(e.getValue());
                if (!v.isNull() && !(v.isObject() && v.isEmpty()) && !(v.isArray() && v.isEmpty())) {
                    copy.set(e.getKey(), v);
                }
            });
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(e -> copy.add(withoutNulls(e)));
            return copy;
        }
        return node;
    }
}
