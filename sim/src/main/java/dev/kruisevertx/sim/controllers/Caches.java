package dev.kruisevertx.sim.controllers;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The informers the built-in controllers read, each indexed by namespace and by its controller's uid. */
record Caches(SharedIndexInformer<Pod> pods, SharedIndexInformer<ReplicaSet> replicaSets,
              SharedIndexInformer<Deployment> deployments, SharedIndexInformer<Job> jobs,
              SharedIndexInformer<StatefulSet> statefulSets, SharedIndexInformer<ControllerRevision> revisions,
              SharedIndexInformer<PersistentVolumeClaim> claims) {
    static final String BY_NAMESPACE = "by-namespace";
    static final String BY_CONTROLLER = "by-controller-uid";

    /** The indexers every informer gets before it starts. */
    static <T extends HasMetadata> Map<String, Function<T, List<String>>> indexers() {
        return Map.of(BY_NAMESPACE, o -> List.of(o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace()),
                BY_CONTROLLER, o -> controllerUid(o).map(List::of).orElse(List.of()));
    }

    static java.util.Optional<String> controllerUid(HasMetadata o) {
        if (o.getMetadata().getOwnerReferences() == null) {
            return java.util.Optional.empty();
        }
        return o.getMetadata().getOwnerReferences().stream().filter(r -> Boolean.TRUE.equals(r.getController()))
                .map(OwnerReference::getUid).findFirst();
    }

    static <T extends HasMetadata> T get(SharedIndexInformer<T> informer, String namespace, String name) {
        return informer.getStore().getByKey(namespace + "/" + name);
    }

    static <T extends HasMetadata> List<T> inNamespace(SharedIndexInformer<T> informer, String namespace) {
        return informer.getIndexer().byIndex(BY_NAMESPACE, namespace);
    }

    static <T extends HasMetadata> List<T> controlledBy(SharedIndexInformer<T> informer, String uid) {
        return informer.getIndexer().byIndex(BY_CONTROLLER, uid);
    }
}
