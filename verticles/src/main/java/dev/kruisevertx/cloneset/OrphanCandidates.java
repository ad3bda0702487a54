package dev.kruisevertx.cloneset;

import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which pods a CloneSet reconcile must look at to adopt orphans, so it does not scan its whole namespace every
 * time. A CloneSet's namespace is scanned once — on its first reconcile by this controller instance (start-up, a
 * new leadership term), again when its UID or selector changes, and after an adoption that failed; from then on
 * only the orphans the pod event handler saw matching it (created, relabelled or released by their controller)
 * are looked at. Pods only become orphans through such events, so nothing is missed.
 *
 * <p>Thread-safe; the event handler and the reconciler of one controller share an instance.
 */
final class OrphanCandidates {
    private record Scanned(String uid, LabelSelector selector) {
    }

    private final Map<String, Scanned> scanned = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> pending = new ConcurrentHashMap<>();

    /** The event handler saw orphan pod {@code podName} matching the CloneSet {@code key}. */
    void matched(String key, String podName) {
        pending.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(podName);
    }

    /**
     * Takes the pods to examine for the CloneSet {@code key}: null when the whole namespace must be scanned (the
     * caller then reports {@link #scannedAll}), otherwise the names the event handler recorded since the last call.
     */
    Set<String> take(String key, String uid, LabelSelector selector) {
        Set<String> names = pending.remove(key);
        Scanned last = scanned.get(key);
        if (last == null || !Objects.equals(last.uid(), uid) || !Objects.equals(last.selector(), selector)) {
            return null;
        }
        return names == null ? Set.of() : names;
    }

    /** The namespace was scanned with this UID and selector. */
    void scannedAll(String key, String uid, LabelSelector selector) {
        scanned.put(key, new Scanned(uid, selector));
    }

    /** Adopting failed part way: scan the namespace again next time rather than trust the recorded names. */
    void rescan(String key) {
        scanned.remove(key);
    }

    /** The CloneSet is gone. */
    void forget(String key) {
        scanned.remove(key);
        pending.remove(key);
    }
}
