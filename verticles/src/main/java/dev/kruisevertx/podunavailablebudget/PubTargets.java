package dev.kruisevertx.podunavailablebudget;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pods a budget protects and the replicas it counts, from the shared cache (OpenKruise's GetPodsForPub):
 * a targetRef's workload (CloneSet, Advanced StatefulSet, apps/v1 StatefulSet, Deployment through its ReplicaSets)
 * and its {@code spec.replicas}; or a selector's active pods and the replicas of the workloads owning them. The
 * {@code pub.kruise.io/protect-total-replicas} annotation replaces the count in both cases. Any other kind is a
 * custom workload: counted when {@code kruise-configuration} whitelists it ({@link CustomWorkloads}), with its
 * {@code spec.replicas} and the pods it controls (OpenKruise's statefulset-like finder).
 */
final class PubTargets {
    /** The budget's pods (active ones) and the replicas it protects. */
    record Snapshot(List<Pod> pods, int expected) {
    }

    /** A whitelisted custom workload as found: its uid (owner of its pods) and its replicas. */
    record CustomWorkload(String uid, int replicas) {
    }

    /**
     * Custom workloads by reference; blocking (reads the API server), so only called from a worker thread.
     * Empty when the kind is not whitelisted or the workload is absent or being deleted.
     */
    interface CustomWorkloads {
        CustomWorkloads NONE = (ns, apiVersion, kind, name) -> Optional.empty();

        Optional<CustomWorkload> get(String namespace, String apiVersion, String kind, String name);
    }

    private final CachedResource<Pod> pods;
    private final CachedResource<CloneSet> cloneSets;
    private final CachedResource<dev.kruisevertx.api.apps.v1beta1.StatefulSet> advancedSets;
    private final CachedResource<io.fabric8.kubernetes.api.model.apps.StatefulSet> statefulSets;
    private final CachedResource<Deployment> deployments;
    private final CachedResource<ReplicaSet> replicaSets;

    PubTargets(CachedResource<Pod> pods, CachedResource<CloneSet> cloneSets,
               CachedResource<dev.kruisevertx.api.apps.v1beta1.StatefulSet> advancedSets,
               CachedResource<io.fabric8.kubernetes.api.model.apps.StatefulSet> statefulSets,
               CachedResource<Deployment> deployments, CachedResource<ReplicaSet> replicaSets) {
        this.pods = pods;
        this.cloneSets = cloneSets;
        this.advancedSets = advancedSets;
        this.statefulSets = statefulSets;
        this.deployments = deployments;
        this.replicaSets = replicaSets;
    }

    static String group(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    Snapshot snapshot(PodUnavailableBudget pub) {
        return snapshot(pub, CustomWorkloads.NONE);
    }

    /** Blocking when the budget involves a custom workload: call from a worker thread. */
    Snapshot snapshot(PodUnavailableBudget pub, CustomWorkloads custom) {
        String ns = pub.getMetadata().getNamespace();
        TargetReference ref = pub.spec().getTargetRef();
        Snapshot found;
        if (ref != null) {
            found = forRef(ns, ref.getApiVersion(), ref.getKind(), ref.getName(), custom);
        } else if (pub.spec().getSelector() == null) {
            found = new Snapshot(List.of(), 0);
        } else {
            java.util.function.Predicate<Map<String, String>> matches;
            try {
                matches = LabelSelectors.compile(pub.spec().getSelector());
            } catch (IllegalArgumentException e) {
                return new Snapshot(List.of(), pub.protectTotalReplicas().orElse(0));
            }
            List<Pod> matched = new ArrayList<>();
            for (Pod pod : pods.list(ns)) {
                if (Pods.isActive(pod) && matches.test(Pods.labels(pod))) {
                    matched.add(pod);
                }
            }
            found = new Snapshot(matched, expectedForPods(ns, matched, custom));
        }
        int expected = pub.protectTotalReplicas().orElse(found.expected());
        return new Snapshot(found.pods(), expected);
    }

    private Snapshot forRef(String ns, String apiVersion, String kind, String name, CustomWorkloads custom) {
        String group = group(apiVersion);
        if (CloneSet.GROUP.equals(group) && CloneSet.KIND.equals(kind)) {
            CloneSet cs = cloneSets.get(ns, name);
            return cs == null ? empty() : owned(cs, replicas(cs.getSpec() == null ? null : cs.getSpec().getReplicas()));
        }
        if (CloneSet.GROUP.equals(group) && "StatefulSet".equals(kind)) {
            var sts = advancedSets.get(ns, name);
            return sts == null ? empty() : owned(sts, replicas(sts.getSpec() == null ? null : sts.getSpec().getReplicas()));
        }
        if ("apps".equals(group) && "StatefulSet".equals(kind)) {
            var sts = statefulSets.get(ns, name);
            return sts == null ? empty() : owned(sts, replicas(sts.getSpec() == null ? null : sts.getSpec().getReplicas()));
        }
        if ("apps".equals(group) && "Deployment".equals(kind)) {
            Deployment d = deployments.get(ns, name);
            if (d == null) {
                return empty();
            }
            List<Pod> out = new ArrayList<>();
            for (ReplicaSet rs : replicaSets.controlledBy(d.getMetadata().getUid())) {
                for (Pod pod : pods.controlledBy(rs.getMetadata().getUid())) {
                    if (Pods.isActive(pod)) {
                        out.add(pod);
                    }
                }
            }
            return new Snapshot(out, replicas(d.getSpec() == null ? null : d.getSpec().getReplicas()));
        }
        if (isBuiltIn(group, kind)) {
            return empty();
        }
        return custom.get(ns, apiVersion, kind, name)
                .map(w -> owned(w.uid(), w.replicas()))
                .orElseGet(PubTargets::empty);
    }

    /** The kinds read from the cache; anything else may only be a whitelisted custom workload. */
    private static boolean isBuiltIn(String group, String kind) {
        return (CloneSet.GROUP.equals(group) && (CloneSet.KIND.equals(kind) || "StatefulSet".equals(kind)))
                || ("apps".equals(group) && ("StatefulSet".equals(kind) || "Deployment".equals(kind)
                || "ReplicaSet".equals(kind)));
    }

    private Snapshot owned(HasMetadata workload, int expected) {
        return owned(workload.getMetadata().getUid(), expected);
    }

    private Snapshot owned(String uid, int expected) {
        List<Pod> out = new ArrayList<>();
        for (Pod pod : pods.controlledBy(uid)) {
            if (Pods.isActive(pod)) {
                out.add(pod);
            }
        }
        return new Snapshot(out, expected);
    }

    /** The replicas of the distinct workloads owning the pods; a pod without a known workload counts as one. */
    private int expectedForPods(String ns, List<Pod> matched, CustomWorkloads custom) {
        Map<String, Integer> byWorkload = new HashMap<>();
        int loose = 0;
        for (Pod pod : matched) {
            Optional<OwnerReference> owner = Pods.controllerOf(pod);
            Optional<Map.Entry<String, Integer>> workload = owner.flatMap(o -> workloadOf(ns, o, custom));
            if (workload.isPresent()) {
                byWorkload.put(workload.get().getKey(), workload.get().getValue());
            } else {
                loose++;
            }
        }
        return loose + byWorkload.values().stream().mapToInt(Integer::intValue).sum();
    }

    private Optional<Map.Entry<String, Integer>> workloadOf(String ns, OwnerReference owner, CustomWorkloads custom) {
        String group = group(owner.getApiVersion());
        String key = group + "/" + owner.getKind() + "/" + owner.getName();
        if ("apps".equals(group) && "ReplicaSet".equals(owner.getKind())) {
            ReplicaSet rs = replicaSets.get(ns, owner.getName());
            if (rs == null) {
                return Optional.empty();
            }
            Optional<OwnerReference> deploy = Pods.controllerOf(rs);
            if (deploy.isPresent()) {
                return workloadOf(ns, deploy.get(), custom);
            }
            return Optional.of(Map.entry(key, replicas(rs.getSpec() == null ? null : rs.getSpec().getReplicas())));
        }
        if (isBuiltIn(group, owner.getKind())) {
            Snapshot s = forRef(ns, owner.getApiVersion(), owner.getKind(), owner.getName(), custom);
            return Optional.of(Map.entry(key, s.expected()));
        }
        return custom.get(ns, owner.getApiVersion(), owner.getKind(), owner.getName())
                .map(w -> Map.entry(key, w.replicas()));
    }

    private static Snapshot empty() {
        return new Snapshot(List.of(), 0);
    }

    private static int replicas(Integer replicas) {
        return replicas == null ? 1 : replicas;
    }

    /** Whether a budget's pods may include {@code pod} (cheap: for event mapping, no walk over pods). */
    static boolean mayProtect(PodUnavailableBudget pub, Pod pod) {
        if (pub.spec().getTargetRef() != null) {
            return Pods.controllerOf(pod).isPresent();
        }
        if (pub.spec().getSelector() == null) {
            return false;
        }
        try {
            return LabelSelectors.matches(pub.spec().getSelector(), Pods.labels(pod));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
