package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.dsl.Informable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The workload controllers of kube-controller-manager — Deployment, ReplicaSet, Job (with its TTL-after-finished
 * controller) and StatefulSet — against any API server through a fabric8 client, for the embedded cluster,
 * {@code demo} and {@code sim-nodes}. Informer handlers only enqueue keys; every sync runs on one thread of its own,
 * never on a Vert.x event loop, so the controllers share their caches and expectations without locks.
 */
public final class BuiltinControllers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BuiltinControllers.class);
    private static final Duration CONFLICT_RETRY = Duration.ofMillis(100);
    private static final Duration ERROR_RETRY = Duration.ofSeconds(1);

    private final ScheduledExecutorService worker;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private final Map<String, WorkloadController<?>> byKind = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private BuiltinControllers() {
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sim-controllers");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the informers and controllers; blocks until the caches have synced (call it off any event loop). */
    public static BuiltinControllers start(KubernetesClient client, BuiltinControllersOptions options) {
        BuiltinControllers c = new BuiltinControllers();
        try {
            c.startAll(client, options.copy());
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private void startAll(KubernetesClient client, BuiltinControllersOptions options) {
        Caches caches = new Caches(
                informer(client.pods().inAnyNamespace()),
                informer(client.apps().replicaSets().inAnyNamespace()),
                informer(client.apps().deployments().inAnyNamespace()),
                informer(client.batch().v1().jobs().inAnyNamespace()),
                informer(client.apps().statefulSets().inAnyNamespace()),
                informer(client.apps().controllerRevisions().inAnyNamespace()),
                informer(client.persistentVolumeClaims().inAnyNamespace()));
        Expectations expectations = new Expectations();
        register(new ReplicaSetController(client, caches, expectations));
        register(new DeploymentController(client, caches, expectations));
        register(new JobController(client, caches, expectations, options.jobBackoff()));
        register(new StatefulSetController(client, caches, expectations));

        caches.pods().addEventHandler(handler(this::podChanged));
        caches.replicaSets().addEventHandler(handler(rs -> {
            enqueue("ReplicaSet", rs);
            enqueueOwner(rs, caches.deployments(), "Deployment");
        }));
        caches.deployments().addEventHandler(handler(d -> enqueue("Deployment", d)));
        caches.jobs().addEventHandler(handler(j -> enqueue("Job", j)));
        caches.statefulSets().addEventHandler(handler(s -> enqueue("StatefulSet", s)));
        caches.revisions().addEventHandler(handler(r -> controllerOf(r, "StatefulSet")
                .ifPresent(ref -> enqueue("StatefulSet", r.getMetadata().getNamespace(), ref.getName()))));
        this.caches = caches;
        for (SharedIndexInformer<?> i : informers) {
            try {
                i.start().toCompletableFuture().get(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the controllers' caches synced", e);
            } catch (Exception e) {
                throw new IllegalStateException("the built-in controllers' caches did not sync: " + e.getMessage(), e);
            }
        }
    }

    private Caches caches;

    private <T extends HasMetadata> SharedIndexInformer<T> informer(Informable<T> source) {
        SharedIndexInformer<T> i = source.runnableInformer(0);
        i.addIndexers(Caches.indexers());
        informers.add(i);
        return i;
    }

    private void register(WorkloadController<?> c) {
        byKind.put(c.kind(), c);
    }

    private static <T> ResourceEventHandler<T> handler(java.util.function.Consumer<T> onEvent) {
        return dev.kruisevertx.cache.InformerHandlers.anyEvent(onEvent);
    }

    /** A pod event wakes its controller, or every controller of the namespace that might adopt it. */
    private void podChanged(Pod pod) {
        Optional<OwnerReference> owner = pod.getMetadata().getOwnerReferences() == null ? Optional.empty()
                : pod.getMetadata().getOwnerReferences().stream().filter(r -> Boolean.TRUE.equals(r.getController())).findFirst();
        if (owner.isPresent()) {
            String kind = owner.get().getKind();
            if (byKind.containsKey(kind) && owner.get().getApiVersion() != null
                    && (owner.get().getApiVersion().equals("apps/v1") || owner.get().getApiVersion().equals("batch/v1"))) {
                enqueue(kind, pod.getMetadata().getNamespace(), owner.get().getName());
            }
            if ("ReplicaSet".equals(kind) && caches != null) {
                // A Recreate rollout waits for the old pods to be gone, which no ReplicaSet status change announces.
                ReplicaSet rs = Caches.get(caches.replicaSets(), pod.getMetadata().getNamespace(), owner.get().getName());
                if (rs != null) {
                    controllerOf(rs, "Deployment").ifPresent(d -> enqueue("Deployment", pod.getMetadata().getNamespace(), d.getName()));
                }
            }
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null || caches == null) {
            return;
        }
        String ns = pod.getMetadata().getNamespace();
        adopters(caches.replicaSets(), ns, pod, o -> o.getSpec().getSelector(), "ReplicaSet");
        adopters(caches.jobs(), ns, pod, o -> o.getSpec().getSelector(), "Job");
        adopters(caches.statefulSets(), ns, pod, o -> o.getSpec().getSelector(), "StatefulSet");
    }

    private <T extends HasMetadata> void adopters(SharedIndexInformer<T> informer, String ns, HasMetadata child,
            Function<T, io.fabric8.kubernetes.api.model.LabelSelector> selector, String kind) {
        for (T o : Caches.inNamespace(informer, ns)) {
            if (Children.matches(selector.apply(o), child)) {
                enqueue(kind, o);
            }
        }
    }

    private <T extends HasMetadata> void enqueueOwner(HasMetadata child, SharedIndexInformer<T> owners, String kind) {
        Optional<OwnerReference> ref = controllerOf(child, kind);
        if (ref.isPresent()) {
            enqueue(kind, child.getMetadata().getNamespace(), ref.get().getName());
        } else if (child.getMetadata().getDeletionTimestamp() == null) {
            for (T o : Caches.inNamespace(owners, child.getMetadata().getNamespace())) {
                if (o instanceof Deployment d && Children.matches(d.getSpec().getSelector(), child)) {
                    enqueue(kind, o);
                }
            }
        }
    }

    private static Optional<OwnerReference> controllerOf(HasMetadata o, String kind) {
        if (o.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        return o.getMetadata().getOwnerReferences().stream()
                .filter(r -> Boolean.TRUE.equals(r.getController()) && kind.equals(r.getKind())).findFirst();
    }

    private void enqueue(String kind, HasMetadata o) {
        enqueue(kind, o.getMetadata().getNamespace(), o.getMetadata().getName());
    }

    private void enqueue(String kind, String namespace, String name) {
        String key = kind + "/" + namespace + "/" + name;
        if (closed || !queued.add(key)) {
            return;
        }
        try {
            worker.execute(() -> {
                queued.remove(key);
                run(kind, namespace, name);
            });
        } catch (RejectedExecutionException e) {
            queued.remove(key);
        }
    }

    private void enqueueAfter(String kind, String namespace, String name, Duration delay) {
        try {
            worker.schedule(() -> enqueue(kind, namespace, name), Math.max(10, delay.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // Closing.
        }
    }

    private void run(String kind, String namespace, String name) {
        if (closed) {
            return;
        }
        WorkloadController<?> c = byKind.get(kind);
        try {
            c.sync(namespace, name).ifPresent(d -> enqueueAfter(kind, namespace, name, d));
        } catch (KubernetesClientException e) {
            if (closed) {
                return;
            }
            if (ApiErrors.isConflict(e)) {
                // A write over a version the cache had not caught up with: try again once it has.
                LOG.debug("built-in {} {}/{}: conflict, retrying", kind, namespace, name);
                enqueueAfter(kind, namespace, name, CONFLICT_RETRY);
            } else if (ApiErrors.isNotFound(e)) {
                LOG.debug("built-in {} {}/{}: gone while syncing", kind, namespace, name);
            } else {
                LOG.warn("built-in {} {}/{}: call failed ({}): {}", kind, namespace, name, e.getCode(), reason(e));
                enqueueAfter(kind, namespace, name, ERROR_RETRY);
            }
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warn("built-in {} {}/{}: sync failed", kind, namespace, name, e);
                enqueueAfter(kind, namespace, name, ERROR_RETRY);
            }
        }
    }

    private static String reason(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
    }

    @Override
    public void close() {
        closed = true;
        informers.forEach(SharedIndexInformer::close);
        worker.shutdownNow();
    }
}
