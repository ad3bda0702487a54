package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One of kube-controller-manager's workload controllers: brings one object (namespace/name) to its desired state.
 * Every one reads the same caches and writes through the same client; those that own pods record each pod write in
 * the shared expectations, so none decides again before its informer has seen what it wrote.
 */
abstract class WorkloadController<T extends HasMetadata> {
    protected final KubernetesClient client;
    protected final Caches caches;
    protected final Expectations expectations;
    private final SharedIndexInformer<T> owned;

    /** A controller of the objects {@code owned} (one of {@code caches}) holds. */
    WorkloadController(SharedIndexInformer<T> owned, KubernetesClient client, Caches caches, Expectations expectations) {
        this.owned = owned;
        this.client = client;
        this.caches = caches;
        this.expectations = expectations;
    }

    /**
     * One pass over the object {@code namespace/name} as the informers show it now: reads the caches, writes
     * through the client. Returns when to look again without an event (a deadline, minReadySeconds passing), if
     * ever. An object gone from the cache has nothing to do, and what was expected for it is forgotten.
     */
    final Optional<Duration> sync(String namespace, String name) {
        String owner = kind() + ":" + namespace + "/" + name;
        T object = Caches.get(owned, namespace, name);
        if (object == null) {
            expectations.forget(owner);
            return Optional.empty();
        }
        return sync(object, owner);
    }

    /** {@link #sync(String, String)} for an object in the cache; {@code owner} keys its expectations. */
    abstract Optional<Duration> sync(T object, String owner);

    /** The kind it owns, as its queue keys and logs name it. */
    final String kind() {
        return HasMetadata.getKind(owned.getApiTypeClass());
    }

    /** A child named by a hash of what it holds, and whether this pass created it. */
    record HashNamed<C>(C child, boolean created) {
    }

    /**
     * kube's rule for a child named by a hash of what it holds (a ReplicaSet of a template, a ControllerRevision):
     * creates {@code child}; when the name is taken by a child {@code same} accepts, that one is used; any other is a
     * hash collision, which {@code countCollision} records (the owner's status.collisionCount, which changes the
     * next hash), and there is no child this pass.
     */
    final <C extends HasMetadata> Optional<HashNamed<C>> createHashNamed(C child, Predicate<C> same, Runnable countCollision) {
        try {
            return Optional.of(new HashNamed<>(client.resource(child).create(), true));
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isConflict(e)) {
                throw e;
            }
            C existing = client.resource(child).get();
            if (existing != null && same.test(existing)) {
                return Optional.of(new HashNamed<>(existing, false));
            }
            countCollision.run();
            return Optional.empty();
        }
    }

    /** Creates {@code pod} (named by the API server from its generateName) and expects to see it, for {@code owner}. */
    final void createPod(Pod pod, String owner) {
        String ns = pod.getMetadata().getNamespace();
        Pod created = client.pods().inNamespace(ns).resource(pod).create();
        expectations.expectCreate(owner, ns, created.getMetadata().getName());
    }

    /** Deletes {@code pod} and expects to see it go, for {@code owner}; a pod already gone is not an error. */
    final void deletePod(Pod pod, String owner) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
            expectations.expectDelete(owner, pod);
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isNotFound(e)) {
                throw e;
            }
        }
    }
}
