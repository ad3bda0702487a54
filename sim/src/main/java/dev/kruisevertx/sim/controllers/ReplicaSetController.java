package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's ReplicaSet controller: keeps {@code spec.replicas} active pods (creating them from the template with a
 * controller reference, in slow-start batches of 1, 2, 4, ...; deleting surplus ones in {@link ActivePodOrder}),
 * adopts orphans its selector matches, and reports replicas, fullyLabeledReplicas, readyReplicas and
 * availableReplicas (ready for minReadySeconds).
 */
final class ReplicaSetController extends WorkloadController<ReplicaSet> {
    static final int BURST = 500;

    ReplicaSetController(KubernetesClient client, Caches caches, Expectations expectations) {
        super(caches.replicaSets(), client, caches, expectations);
    }

    /** What to do this pass: how many pods to create, which to delete. */
    record Plan(int create, List<Pod> delete) {
    }

    static Plan plan(int replicas, List<Pod> active) {
        int diff = active.size() - replicas;
        if (diff < 0) {
            return new Plan(Math.min(-diff, BURST), List.of());
        }
        if (diff > 0) {
            List<Pod> sorted = new ArrayList<>(active);
            sorted.sort(ActivePodOrder.DELETE_FIRST);
            return new Plan(0, List.copyOf(sorted.subList(0, Math.min(diff, BURST))));
        }
        return new Plan(0, List.of());
    }

    @Override
    Optional<Duration> sync(ReplicaSet rs, String owner) {
        List<Pod> pods = Children.claim(client, caches.pods(), rs, rs.getSpec().getSelector(), Pod.class);
        List<Pod> active = pods.stream().filter(Pods::isActive).toList();
        boolean settled = expectations.satisfied(owner, (ns, n) -> Caches.get(caches.pods(), ns, n));
        if (settled && rs.getMetadata().getDeletionTimestamp() == null) {
            int replicas = rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
            act(rs, plan(replicas, active), owner);
        }
        int minReady = rs.getSpec().getMinReadySeconds() == null ? 0 : rs.getSpec().getMinReadySeconds();
        Instant now = Instant.now();
        writeStatus(rs, status(rs, active, minReady, now));
        Duration next = Pods.nextAvailableIn(active, minReady, now);
        return next.isZero() ? Optional.empty() : Optional.of(next);
    }

    private void act(ReplicaSet rs, Plan plan, String owner) {
        // Slow start, as kube: batches of 1, 2, 4, ... so a template the API server refuses fails once, not 500 times.
        int done = 0;
        for (int batch = 1; done < plan.create(); batch *= 2) {
            int n = Math.min(batch, plan.create() - done);
            for (int i = 0; i < n; i++) {
                Pod pod = Children.podFromTemplate(rs.getSpec().getTemplate(), rs, rs.getMetadata().getName() + "-");
                createPod(pod, owner);
            }
            done += n;
        }
        for (Pod p : plan.delete()) {
            deletePod(p, owner);
        }
    }

    static ReplicaSetStatus status(ReplicaSet rs, List<Pod> active, int minReadySeconds, Instant now) {
        Map<String, String> templateLabels = rs.getSpec().getTemplate().getMetadata() == null
                || rs.getSpec().getTemplate().getMetadata().getLabels() == null
                ? Map.of() : rs.getSpec().getTemplate().getMetadata().getLabels();
        int fully = 0;
        int ready = 0;
        int available = 0;
        for (Pod p : active) {
            Map<String, String> labels = Pods.labels(p);
            if (labels.entrySet().containsAll(templateLabels.entrySet())) {
                fully++;
            }
            if (Pods.isReady(p)) {
                ready++;
                if (Pods.isAvailable(p, minReadySeconds, now)) {
                    available++;
                }
            }
        }
        ReplicaSetStatus old = rs.getStatus();
        return new ReplicaSetStatusBuilder().withReplicas(active.size()).withFullyLabeledReplicas(fully)
                .withReadyReplicas(ready).withAvailableReplicas(available)
                .withObservedGeneration(rs.getMetadata().getGeneration())
                .withConditions(old == null ? null : old.getConditions()).build();
    }

    private void writeStatus(ReplicaSet rs, ReplicaSetStatus status) {
        if (status.equals(rs.getStatus())) {
            return;
        }
        ReplicaSet next = new ReplicaSetBuilder(rs).withStatus(status).build();
        client.apps().replicaSets().inNamespace(rs.getMetadata().getNamespace()).resource(next).updateStatus();
    }
}
