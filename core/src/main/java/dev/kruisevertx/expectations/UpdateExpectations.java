package dev.kruisevertx.expectations;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Pods a controller has updated to a revision but whose update the cache has not shown yet, per
 * controller key. Semantics follow OpenKruise's update expectations:
 * <ul>
 *   <li>expecting for a revision other than the one tracked starts over for the new revision;</li>
 *   <li>a pod is observed only when the controller's tracked revision is the given one and the pod,
 *       as seen, already carries that revision;</li>
 *   <li>observing for another revision, or emptying the set, forgets the controller;</li>
 *   <li>{@link #satisfied} is true when nothing is tracked or the tracked revision is not the one asked about.</li>
 * </ul>
 * Pods are identified by {@code namespace/name}. There is no timeout, as in OpenKruise. Thread-safe.
 */
public final class UpdateExpectations {
    /** The label Kubernetes and OpenKruise workloads put the pod's revision in. */
    public static final String REVISION_LABEL = "controller-revision-hash";

    private final Function<HasMetadata, String> revisionOf;
    private final Map<String, Tracked> byController = new HashMap<>();

    /** @param revisionOf reads the revision a pod currently runs (e.g. its {@value #REVISION_LABEL} label) */
    public UpdateExpectations(Function<HasMetadata, String> revisionOf) {
        this.revisionOf = Objects.requireNonNull(revisionOf, "revisionOf");
    }

    /** Expectations that read the pod revision from the {@value #REVISION_LABEL} label. */
    public static UpdateExpectations byRevisionLabel() {
        return new UpdateExpectations(pod -> {
            Map<String, String> labels = pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
            return labels == null ? null : labels.get(REVISION_LABEL);
        });
    }

    public synchronized void expectUpdated(String controllerKey, String revision, HasMetadata pod) {
        Tracked t = byController.get(controllerKey);
        if (t == null || !t.revision.equals(revision)) {
            t = new Tracked(revision);
            byController.put(controllerKey, t);
        }
        t.pods.add(key(pod));
    }

    public synchronized void observeUpdated(String controllerKey, String revision, HasMetadata pod) {
        Tracked t = byController.get(controllerKey);
        if (t == null) {
            return;
        }
        String key = key(pod);
        if (t.revision.equals(revision) && t.pods.contains(key) && revision.equals(revisionOf.apply(pod))) {
            t.pods.remove(key);
        }
        if (!t.revision.equals(revision) || t.pods.isEmpty()) {
            byController.remove(controllerKey);
        }
    }

    public synchronized boolean satisfied(String controllerKey, String revision) {
        Tracked t = byController.get(controllerKey);
        return t == null || !t.revision.equals(revision) || t.pods.isEmpty();
    }

    /** Pods ({@code namespace/name}, sorted) still expected to show {@code revision}; empty when satisfied. */
    public synchronized List<String> pending(String controllerKey, String revision) {
        Tracked t = byController.get(controllerKey);
        if (t == null || !t.revision.equals(revision)) {
            return List.of();
        }
        return List.copyOf(new TreeSet<>(t.pods));
    }

    public synchronized void delete(String controllerKey) {
        byController.remove(controllerKey);
    }

    private static String key(HasMetadata pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    private static final class Tracked {
        final String revision;
        final Set<String> pods = new java.util.HashSet<>();

        Tracked(String revision) {
            this.revision = Objects.requireNonNull(revision, "revision");
        }
    }
}
