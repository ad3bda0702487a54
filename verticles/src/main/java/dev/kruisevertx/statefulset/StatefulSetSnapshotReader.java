package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.Indexes;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads one Advanced StatefulSet's {@link StatefulSetSnapshot} from the cache. Runs on a worker thread: a set may own
 * 100,000 pods, and reserveOrdinals may hold a great many entries (the cache can be read from any thread).
 */
final class StatefulSetSnapshotReader {
    private final CachedResource<Pod> pods;
    private final CachedResource<PersistentVolumeClaim> claims;
    private final CachedResource<ControllerRevision> revisions;
    private final ResourceVersionExpectations versions;

    StatefulSetSnapshotReader(CachedResource<Pod> pods, CachedResource<PersistentVolumeClaim> claims,
                              CachedResource<ControllerRevision> revisions, ResourceVersionExpectations versions) {
        this.pods = pods;
        this.claims = claims;
        this.revisions = revisions;
        this.versions = versions;
    }

    /** The snapshot; or why the set is invalid; or the first pod whose update by us the cache has not shown yet. */
    record Read(StatefulSetSnapshot snapshot, String invalid, String unsatisfied) {
    }

    Read read(StatefulSet set, int replicas, int start) {
        Predicate<Map<String, String>> selector;
        DesiredOrdinals desired;
        try {
            selector = LabelSelectors.compile(set.getSpec().getSelector());
            // A range, never a list: replicas may be 2147483647 (Kubernetes allows it, so the webhook does).
            desired = DesiredOrdinals.of(replicas, start, set.getSpec().getReserveOrdinals());
        } catch (IllegalArgumentException e) {
            return new Read(null, e.getMessage(), null);
        }
        String uid = set.getMetadata().getUid();
        String setName = set.getMetadata().getName();
        Set<Integer> ordinals = new HashSet<>();
        List<Pod> owned = new ArrayList<>();
        List<Pod> release = new ArrayList<>();
        for (Pod p : pods.controlledBy(uid)) {
            if (!selector.test(Pods.labels(p))) {
                if (Pods.isActive(p)) {
                    release.add(p);
                }
                continue;
            }
            int ordinal = PodOrdinals.ordinalOf(setName, p.getMetadata().getName());
            if (ordinal < 0) {
                continue;
            }
            if (!versions.isSatisfied(p)) {
                return new Read(null, null, p.getMetadata().getName());
            }
            ordinals.add(ordinal);
            owned.add(p);
        }
        List<Pod> adopt = new ArrayList<>();
        // The cache's orphan index, not the namespace: at start-up every set looks once, and a namespace of
        // 100,000 owned pods made that scan the whole cost of start-up.
        for (Pod p : pods.byIndex(Indexes.ORPHAN_NAMESPACE, set.getMetadata().getNamespace())) {
            if (Pods.controllerOf(p).isEmpty() && Pods.isActive(p) && selector.test(Pods.labels(p))
                    && PodOrdinals.ordinalOf(setName, p.getMetadata().getName()) >= 0) {
                adopt.add(p);
            }
        }
        return new Read(StatefulSetSnapshot.of(set, desired, owned, release, adopt, revisions.controlledBy(uid),
                claimsOf(set, desired, ordinals)), null, null);
    }

    /**
     * The PVCs the decision may look at: those of every pod that exists, and of the lowest missing ordinals (a plan
     * creates at most {@link StatefulSetPlanner#MAX_CREATES_PER_PLAN} of them, lowest first). Never all of
     * {@code replicas}.
     */
    private Map<String, PersistentVolumeClaim> claimsOf(StatefulSet set, DesiredOrdinals desired,
                                                       Set<Integer> existing) {
        List<PersistentVolumeClaim> templates = set.getSpec().getVolumeClaimTemplates();
        Map<String, PersistentVolumeClaim> out = new HashMap<>();
        if (templates == null || templates.isEmpty()) {
            return out;
        }
        List<Integer> ordinals = new ArrayList<>(existing);
        int missing = 0;
        for (PrimitiveIterator.OfInt it = desired.iterator(); it.hasNext() && missing <= StatefulSetPlanner.MAX_CREATES_PER_PLAN; ) {
            int ordinal = it.nextInt();
            if (!existing.contains(ordinal)) {
                ordinals.add(ordinal);
                missing++;
            }
        }
        String ns = set.getMetadata().getNamespace();
        for (int ordinal : ordinals) {
            for (PersistentVolumeClaim t : templates) {
                String name = PodOrdinals.claimName(t.getMetadata().getName(), set.getMetadata().getName(), ordinal);
                PersistentVolumeClaim c = claims.get(ns, name);
                if (c != null) {
                    out.put(name, c);
                }
            }
        }
        return out;
    }
}
