package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches every pod and workload event of a run and records each broken promise ({@link Violation}). Feed it events
 * directly ({@link #onPod}, {@link #onWorkload}) or let it watch a cluster ({@link #watch}) with a client of its own
 * that bypasses any fault proxy. Add invariants for later controllers with {@link #add}.
 */
public final class InvariantChecker {
    private static final Logger LOG = LoggerFactory.getLogger(InvariantChecker.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int VIOLATION_LIMIT = 1000;

    private final ClusterView view = new ClusterView();
    private final List<Invariant> invariants = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();
    private final Set<String> expectedDeletions = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> violationCounts = new HashMap<>();
    private final AtomicLong podEvents = new AtomicLong();
    private final AtomicLong workloadEvents = new AtomicLong();

    /** With the invariants of the CloneSet, Advanced StatefulSet and Advanced DaemonSet controllers. */
    public static InvariantChecker withWorkloadInvariants() {
        InvariantChecker c = new InvariantChecker();
        c.add(new MaxUnavailableInvariant());
        c.add(new MaxSurgeInvariant());
        c.add(new OrdinalUniquenessInvariant());
        c.add(new BystanderInvariant(c.expectedDeletions));
        c.add(new UnrequestedDeletionInvariant(c.expectedDeletions));
        c.add(new MonotonicStatusInvariant());
        c.add(new DaemonSetNodeInvariant());
        return c;
    }

    public synchronized InvariantChecker add(Invariant invariant) {
        invariants.add(invariant);
        return this;
    }

    /** The run itself deletes this pod (namespace/name): not a violation. */
    public void expectDeletion(String namespace, String name) {
        expectedDeletions.add(namespace + "/" + name);
    }

    /**
     * The run is about to delete this workload (by uid): from now on its pods going away are the deletion's doing,
     * not a rollout's, so the update budgets no longer apply to it.
     */
    public void expectWorkloadDeletion(String workloadUid) {
        view.deletionRequested(workloadUid);
    }

    public synchronized void onPod(PodEvent.Type type, JsonNode pod, long atMillis) {
        podEvents.incrementAndGet();
        JsonNode previous = view.pod(ClusterView.uid(pod));
        if (type == PodEvent.Type.DELETED) {
            view.removePod(pod);
        } else {
            view.putPod(pod);
        }
        PodEvent event = new PodEvent(type, pod, previous, atMillis);
        for (Invariant i : invariants) {
            i.onPod(event, view, this::report);
        }
    }

    public synchronized void onWorkload(WorkloadKind kind, PodEvent.Type type, JsonNode workload, long atMillis) {
        workloadEvents.incrementAndGet();
        JsonNode previous = view.workload(ClusterView.uid(workload));
        if (type == PodEvent.Type.DELETED) {
            view.removeWorkload(workload);
        } else {
            view.putWorkload(kind, workload);
        }
        WorkloadEvent event = new WorkloadEvent(type, kind, workload, previous, atMillis);
        for (Invariant i : invariants) {
            i.onWorkload(event, view, this::report);
        }
    }

    /** An object of a kind watched with {@link #watch(KubernetesClient, String, List, List)}'s {@code objects}. */
    public synchronized void onObject(PodEvent.Type type, JsonNode object, long atMillis) {
        for (Invariant i : invariants) {
            i.onObject(type, object, atMillis, this::report);
        }
    }

    /** Adds the BroadcastJob and AdvancedCronJob invariants; watch {@link #JOB_OBJECTS} for them. */
    public InvariantChecker withJobInvariants() {
        BroadcastJobInvariant.all().forEach(this::add);
        AdvancedCronJobInvariant.all().forEach(this::add);
        return this;
    }

    /** The object kinds (apiVersion, kind) the job invariants read: nodes, BroadcastJobs, Jobs, AdvancedCronJobs. */
    public static final List<List<String>> JOB_OBJECTS = List.of(List.of("v1", "Node"),
            List.of("apps.kruise.io/v1beta1", "BroadcastJob"), List.of("batch/v1", "Job"),
            List.of("apps.kruise.io/v1beta1", "AdvancedCronJob"));

    /** Adds the SidecarSet invariant; watch {@link #SIDECARSET_OBJECTS} for it. */
    public InvariantChecker withSidecarSetInvariants() {
        return add(new SidecarSetInvariant());
    }

    /**
     * Adds the PodUnavailableBudget invariant (it honours {@link #expectDeletion}); watch {@link #PUB_OBJECTS} for
     * it.
     */
    public InvariantChecker withPubInvariants() {
        return add(new PodUnavailableBudgetInvariant(expectedDeletions));
    }

    /** The object kinds the PodUnavailableBudget invariant reads. */
    public static final List<List<String>> PUB_OBJECTS = List.of(List.of("policy.kruise.io/v1alpha1",
            "PodUnavailableBudget"));

    /** The object kinds the SidecarSet invariant reads (cluster-scoped: watched cluster-wide). */
    private static final java.util.Set<String> CLUSTER_SCOPED = java.util.Set.of("Node", "SidecarSet");

    public static final List<List<String>> SIDECARSET_OBJECTS = List.of(List.of("apps.kruise.io/v1beta1", "SidecarSet"));

    /** Lets time-based invariants decide; {@code finalCheck} decides everything still pending. */
    public synchronized void settle(long nowMillis, boolean finalCheck) {
        for (Invariant i : invariants) {
            i.settle(view, nowMillis, finalCheck, this::report);
        }
    }

    private void report(Violation v) {
        violationCounts.merge(v.invariant(), 1L, Long::sum);
        LOG.warn("invariant violated: {}", v);
        if (violations.size() < VIOLATION_LIMIT) {
            violations.add(v);
        }
    }

    public synchronized List<Violation> violations() {
        return List.copyOf(violations);
    }

    /** Violations per invariant (every invariant listed, zeros included). */
    public synchronized Map<String, Long> violationCounts() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (Invariant i : invariants) {
            out.put(i.name(), violationCounts.getOrDefault(i.name(), 0L));
        }
        return out;
    }

    public long podEvents() {
        return podEvents.get();
    }

    public long workloadEvents() {
        return workloadEvents.get();
    }

    /**
     * Watches pods and the given workload kinds in {@code namespace} (all namespaces when null) with informers, and
     * settles every second. Close the result to stop; it settles a last time with {@code finalCheck}.
     */
    public AutoCloseable watch(KubernetesClient client, String namespace, List<WorkloadKind> kinds) {
        return watch(client, namespace, kinds, List.of());
    }

    /**
     * As {@link #watch(KubernetesClient, String, List)}, and also the {@code objects} (apiVersion, kind pairs such as
     * {@link #JOB_OBJECTS}) for the invariants' {@link Invariant#onObject}; nodes are watched cluster-wide.
     */
    public AutoCloseable watch(KubernetesClient client, String namespace, List<WorkloadKind> kinds,
                               List<List<String>> objects) {
        List<SharedIndexInformer<?>> informers = new ArrayList<>();
        for (List<String> object : objects) {
            var resources = client.genericKubernetesResources(object.get(0), object.get(1));
            var scoped = namespace == null || CLUSTER_SCOPED.contains(object.get(1)) ? resources.inAnyNamespace()
                    : resources.inNamespace(namespace);
            informers.add(scoped.inform(handler((GenericKubernetesResource r) -> MAPPER.valueToTree(r),
                    this::onObject), 0));
        }
        var pods = namespace == null ? client.pods().inAnyNamespace() : client.pods().inNamespace(namespace);
        informers.add(pods.inform(handler(p -> MAPPER.valueToTree(p), this::onPod), 0));
        for (WorkloadKind kind : kinds) {
            var resources = client.genericKubernetesResources(kind.apiVersion(), kind.kind());
            var scoped = namespace == null ? resources.inAnyNamespace() : resources.inNamespace(namespace);
            informers.add(scoped.inform(handler((GenericKubernetesResource r) -> MAPPER.valueToTree(r),
                    (type, node, at) -> onWorkload(kind, type, node, at)), 0));
        }
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "invariant-checker");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleWithFixedDelay(() -> settle(System.currentTimeMillis(), false), 1, 1, TimeUnit.SECONDS);
        return () -> {
            ticker.shutdownNow();
            informers.forEach(SharedIndexInformer::close);
            settle(System.currentTimeMillis(), true);
        };
    }

    private interface Sink {
        void accept(PodEvent.Type type, JsonNode node, long atMillis);
    }

    private static <T> ResourceEventHandler<T> handler(java.util.function.Function<T, JsonNode> tree, Sink sink) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                sink.accept(PodEvent.Type.ADDED, tree.apply(obj), System.currentTimeMillis());
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                sink.accept(PodEvent.Type.MODIFIED, tree.apply(newObj), System.currentTimeMillis());
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                sink.accept(PodEvent.Type.DELETED, tree.apply(obj), System.currentTimeMillis());
            }
        };
    }
}
