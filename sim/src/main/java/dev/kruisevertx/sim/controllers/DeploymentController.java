package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.RollingUpdateDeployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube's Deployment controller: one ReplicaSet per pod template, named {@code <deployment>-<pod-template-hash>};
 * RollingUpdate moves replicas from old ReplicaSets to the new one within maxSurge (rounded up) and maxUnavailable
 * (rounded down), Recreate scales the old ones to zero and waits for their pods to end before the new one scales
 * up; {@code deployment.kubernetes.io/revision} numbers the templates, paused deployments only scale, old
 * ReplicaSets beyond revisionHistoryLimit are deleted, and the status carries the replica counts and the
 * Available and Progressing conditions (with progressDeadlineSeconds).
 *
 * <p>One difference keeps kube's bounds visible on pods too, not only on ReplicaSet specs: the new ReplicaSet is
 * scaled up only once every old one has observed its last scale-down (status.replicas no more than spec), and
 * availability counts at most spec.replicas per ReplicaSet, so a status that lags a scale-down never lets the
 * rollout run ahead.
 */
final class DeploymentController extends WorkloadController<Deployment> {
    static final String REVISION = "deployment.kubernetes.io/revision";
    static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
    static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";
    private static final Set<String> NOT_COPIED = Set.of("kubectl.kubernetes.io/last-applied-configuration", REVISION,
            "deployment.kubernetes.io/revision-history", DESIRED_REPLICAS, MAX_REPLICAS, "deprecated.deployment.rollback.to");

    DeploymentController(KubernetesClient client, Caches caches, Expectations expectations) {
        super(caches.deployments(), client, caches, expectations);
    }

    static int replicas(Deployment d) {
        return d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
    }

    static int replicas(ReplicaSet rs) {
        return rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
    }

    static boolean recreate(Deployment d) {
        return d.getSpec().getStrategy() != null && "Recreate".equals(d.getSpec().getStrategy().getType());
    }

    /** kube's {@code ResolveFenceposts}: surge rounds up, unavailable down; both zero makes unavailable 1. */
    static int[] fenceposts(Deployment d) {
        if (recreate(d)) {
            return new int[]{0, 0};
        }
        RollingUpdateDeployment ru = d.getSpec().getStrategy() == null ? null : d.getSpec().getStrategy().getRollingUpdate();
        int total = replicas(d);
        int surge = IntOrPercent.resolve(ru == null ? null : ru.getMaxSurge(), "25%", total, true);
        int unavailable = IntOrPercent.resolve(ru == null ? null : ru.getMaxUnavailable(), "25%", total, false);
        if (surge == 0 && unavailable == 0) {
            unavailable = 1;
        }
        return new int[]{surge, unavailable};
    }

    static int revision(ReplicaSet rs) {
        String v = rs.getMetadata().getAnnotations() == null ? null : rs.getMetadata().getAnnotations().get(REVISION);
        try {
            return v == null ? 0 : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Available pods of a ReplicaSet as far as a decision may count on them: never more than its spec asks for. */
    static int available(ReplicaSet rs) {
        int a = rs.getStatus() == null || rs.getStatus().getAvailableReplicas() == null ? 0 : rs.getStatus().getAvailableReplicas();
        return Math.min(a, replicas(rs));
    }

    /** The ReplicaSet's status reflects its current spec, with no more pods than the spec asks for. */
    static boolean settledDown(ReplicaSet rs) {
        if (rs.getStatus() == null) {
            return replicas(rs) == 0 || rs.getMetadata().getGeneration() == null;
        }
        long observed = rs.getStatus().getObservedGeneration() == null ? 0 : rs.getStatus().getObservedGeneration();
        long generation = rs.getMetadata().getGeneration() == null ? 0 : rs.getMetadata().getGeneration();
        int actual = rs.getStatus().getReplicas() == null ? 0 : rs.getStatus().getReplicas();
        return observed >= generation && actual <= replicas(rs);
    }

    /** kube's {@code NewRSNewReplicas} for RollingUpdate: how far the new ReplicaSet may grow now. */
    static int newReplicaSetReplicas(Deployment d, List<ReplicaSet> all, ReplicaSet newRs) {
        int current = newRs == null ? 0 : replicas(newRs);
        int maxTotal = replicas(d) + fenceposts(d)[0];
        int podCount = all.stream().mapToInt(DeploymentController::replicas).sum();
        if (podCount >= maxTotal) {
            return current;
        }
        int up = Math.min(maxTotal - podCount, Math.max(0, replicas(d) - current));
        return current + up;
    }

    /**
     * kube's {@code reconcileOldReplicaSets}: the new spec.replicas of each old ReplicaSet (by name) this pass, first
     * dropping unhealthy replicas, then healthy ones while availability stays at least replicas - maxUnavailable.
     */
    static Map<String, Integer> scaleDownOld(Deployment d, List<ReplicaSet> all, List<ReplicaSet> old, ReplicaSet newRs) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (old.stream().mapToInt(DeploymentController::replicas).sum() == 0) {
            return out;
        }
        int allPods = all.stream().mapToInt(DeploymentController::replicas).sum();
        int minAvailable = replicas(d) - fenceposts(d)[1];
        int newUnavailable = newRs == null ? 0 : replicas(newRs) - available(newRs);
        int maxScaledDown = allPods - minAvailable - newUnavailable;
        if (maxScaledDown <= 0) {
            return out;
        }
        List<ReplicaSet> oldest = new ArrayList<>(old);
        oldest.sort(Comparator.comparing((ReplicaSet rs) -> rs.getMetadata().getCreationTimestamp())
                .thenComparing(rs -> rs.getMetadata().getName()));
        Map<String, Integer> target = new HashMap<>();
        old.forEach(rs -> target.put(rs.getMetadata().getName(), replicas(rs)));
        int cleaned = 0;
        for (ReplicaSet rs : oldest) {
            if (cleaned >= maxScaledDown) {
                break;
            }
            int unhealthy = replicas(rs) - available(rs);
            if (replicas(rs) == 0 || unhealthy <= 0) {
                continue;
            }
            int down = Math.min(unhealthy, maxScaledDown - cleaned);
            target.put(rs.getMetadata().getName(), replicas(rs) - down);
            cleaned += down;
        }
        int availableNow = all.stream().mapToInt(DeploymentController::available).sum();
        int budget = availableNow - minAvailable;
        for (ReplicaSet rs : oldest) {
            if (budget <= 0) {
                break;
            }
            int now = target.get(rs.getMetadata().getName());
            if (now == 0) {
                continue;
            }
            int down = Math.min(now, budget);
            target.put(rs.getMetadata().getName(), now - down);
            budget -= down;
        }
        for (ReplicaSet rs : oldest) {
            int t = target.get(rs.getMetadata().getName());
            if (t != replicas(rs)) {
                out.put(rs.getMetadata().getName(), t);
            }
        }
        return out;
    }

    @Override
    Optional<Duration> sync(Deployment d, String owner) {
        LabelSelector selector = d.getSpec().getSelector();
        if (selector == null || ((selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty()))) {
            // kube refuses to select everything and only records that it saw the generation.
            return Optional.empty();
        }
        List<ReplicaSet> owned = Children.claim(client, caches.replicaSets(), d, selector, ReplicaSet.class);
        List<ReplicaSet> all = new ArrayList<>(owned.stream().filter(rs -> rs.getMetadata().getDeletionTimestamp() == null).toList());
        all.sort(Comparator.comparing((ReplicaSet rs) -> rs.getMetadata().getCreationTimestamp()).thenComparing(rs -> rs.getMetadata().getName()));
        ReplicaSet newRs = all.stream().filter(rs -> PodTemplates.equalIgnoringHash(rs.getSpec().getTemplate(), d.getSpec().getTemplate()))
                .findFirst().orElse(null);
        List<ReplicaSet> old = new ArrayList<>(all);
        old.remove(newRs);
        List<DeploymentCondition> conditions = new ArrayList<>(d.getStatus() == null || d.getStatus().getConditions() == null
                ? List.of() : d.getStatus().getConditions());
        Instant now = Instant.now();
        if (d.getMetadata().getDeletionTimestamp() != null) {
            return writeStatus(d, newRs, all, conditions, now);
        }
        pausedCondition(d, conditions, now);
        boolean paused = Boolean.TRUE.equals(d.getSpec().getPaused());
        int maxOldRevision = old.stream().mapToInt(DeploymentController::revision).max().orElse(0);
        if (newRs != null) {
            ReplicaSet synced = syncRevision(d, newRs, maxOldRevision + 1, conditions, now);
            all.replaceAll(rs -> rs.getMetadata().getName().equals(synced.getMetadata().getName()) ? synced : rs);
            newRs = synced;
        }
        if (paused) {
            scalePaused(d, all, newRs);
            cleanup(d, old);
            return writeStatus(d, newRs, all, conditions, now);
        }
        if (recreate(d)) {
            rolloutRecreate(d, all, old, newRs, maxOldRevision, conditions, now);
            return writeStatus(d, newRs, all, conditions, now);
        }
        if (newRs == null) {
            int initial = newReplicaSetReplicas(d, all, null);
            if (!old.stream().allMatch(DeploymentController::settledDown)) {
                initial = 0;
            }
            Optional<ReplicaSet> created = createNewReplicaSet(d, maxOldRevision + 1, initial, conditions, now);
            if (created.isEmpty()) {
                return Optional.of(Duration.ofMillis(100));
            }
            newRs = created.get();
            all.add(newRs);
        }
        rolloutRolling(d, all, old, newRs);
        if (old.stream().allMatch(rs -> replicas(rs) == 0) && replicas(newRs) == replicas(d) && available(newRs) == replicas(d)) {
            cleanup(d, old);
        }
        return writeStatus(d, newRs, all, conditions, now);
    }

    private void rolloutRolling(Deployment d, List<ReplicaSet> all, List<ReplicaSet> old, ReplicaSet newRs) {
        int target = replicas(newRs);
        if (replicas(newRs) > replicas(d)) {
            target = replicas(d);
        } else if (replicas(newRs) < replicas(d) && old.stream().allMatch(DeploymentController::settledDown)) {
            target = newReplicaSetReplicas(d, all, newRs);
        }
        if (target != replicas(newRs)) {
            scale(d, newRs, target);
            return;
        }
        Map<String, Integer> down = scaleDownOld(d, all, old, newRs);
        for (ReplicaSet rs : old) {
            Integer t = down.get(rs.getMetadata().getName());
            if (t != null) {
                scale(d, rs, t);
            }
        }
    }

    private void rolloutRecreate(Deployment d, List<ReplicaSet> all, List<ReplicaSet> old, ReplicaSet newRs,
            int maxOldRevision, List<DeploymentCondition> conditions, Instant now) {
        boolean scaledDown = false;
        for (ReplicaSet rs : old) {
            if (replicas(rs) != 0) {
                scale(d, rs, 0);
                scaledDown = true;
            }
        }
        if (scaledDown) {
            return;
        }
        // kube waits until no pod of an old ReplicaSet runs (terminating ones included) before the new one starts.
        for (ReplicaSet rs : old) {
            for (Pod p : Caches.controlledBy(caches.pods(), rs.getMetadata().getUid())) {
                String phase = Pods.phase(p);
                if (!Pods.PHASE_SUCCEEDED.equals(phase) && !Pods.PHASE_FAILED.equals(phase)) {
                    return;
                }
            }
        }
        if (newRs == null) {
            createNewReplicaSet(d, maxOldRevision + 1, replicas(d), conditions, now).ifPresent(all::add);
        } else if (replicas(newRs) != replicas(d)) {
            scale(d, newRs, replicas(d));
        }
    }

    /** kube's {@code scale} while paused: only a lone active ReplicaSet follows spec.replicas. */
    private void scalePaused(Deployment d, List<ReplicaSet> all, ReplicaSet newRs) {
        List<ReplicaSet> active = all.stream().filter(rs -> replicas(rs) > 0).toList();
        ReplicaSet only = active.size() == 1 ? active.get(0) : active.isEmpty() ? newRs : null;
        if (only != null && replicas(only) != replicas(d)) {
            scale(d, only, replicas(d));
        }
    }

    private void scale(Deployment d, ReplicaSet rs, int replicas) {
        Map<String, String> ann = new LinkedHashMap<>(rs.getMetadata().getAnnotations() == null ? Map.of() : rs.getMetadata().getAnnotations());
        ann.put(DESIRED_REPLICAS, String.valueOf(replicas(d)));
        ann.put(MAX_REPLICAS, String.valueOf(replicas(d) + fenceposts(d)[0]));
        ReplicaSet next = new ReplicaSetBuilder(rs).editMetadata().withAnnotations(ann).endMetadata()
                .editSpec().withReplicas(replicas).endSpec().build();
        client.apps().replicaSets().inNamespace(rs.getMetadata().getNamespace()).resource(next).update();
    }

    /** The new ReplicaSet's revision becomes the newest (as after a rollback), and the Deployment's follows it. */
    private ReplicaSet syncRevision(Deployment d, ReplicaSet newRs, int newRevision, List<DeploymentCondition> conditions, Instant now) {
        ReplicaSet rs = newRs;
        if (revision(newRs) < newRevision) {
            Map<String, String> ann = new LinkedHashMap<>(newRs.getMetadata().getAnnotations() == null ? Map.of() : newRs.getMetadata().getAnnotations());
            ann.put(REVISION, String.valueOf(newRevision));
            rs = client.apps().replicaSets().inNamespace(newRs.getMetadata().getNamespace())
                    .resource(new ReplicaSetBuilder(newRs).editMetadata().withAnnotations(ann).endMetadata().build()).update();
        }
        syncDeploymentRevision(d, String.valueOf(revision(rs)));
        if (DeploymentConditions.get(conditions, DeploymentConditions.PROGRESSING) == null) {
            DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.PROGRESSING, "True",
                    DeploymentConditions.FOUND_NEW_RS, "Found new replica set \"" + rs.getMetadata().getName() + "\"", now));
        }
        return rs;
    }

    private void syncDeploymentRevision(Deployment d, String revision) {
        String current = d.getMetadata().getAnnotations() == null ? null : d.getMetadata().getAnnotations().get(REVISION);
        if (revision.equals(current)) {
            return;
        }
        Map<String, Object> patch = Map.of("metadata", Map.of("annotations", Map.of(REVISION, revision)));
        client.apps().deployments().inNamespace(d.getMetadata().getNamespace()).withName(d.getMetadata().getName())
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        Serialization.asJson(patch));
    }

    private Optional<ReplicaSet> createNewReplicaSet(Deployment d, int revision, int replicas,
            List<DeploymentCondition> conditions, Instant now) {
        Integer collisions = d.getStatus() == null ? null : d.getStatus().getCollisionCount();
        String hash = PodTemplates.hash(d.getSpec().getTemplate(), collisions);
        PodTemplateSpec template = new PodTemplateSpecBuilder(Serialization.clone(d.getSpec().getTemplate()))
                .editOrNewMetadata().addToLabels(PodTemplates.HASH_LABEL, hash).endMetadata().build();
        LabelSelector selector = new LabelSelectorBuilder(Serialization.clone(d.getSpec().getSelector()))
                .addToMatchLabels(PodTemplates.HASH_LABEL, hash).build();
        Map<String, String> labels = new LinkedHashMap<>(template.getMetadata().getLabels());
        Map<String, String> ann = new LinkedHashMap<>();
        if (d.getMetadata().getAnnotations() != null) {
            d.getMetadata().getAnnotations().forEach((k, v) -> {
                if (!NOT_COPIED.contains(k)) {
                    ann.put(k, v);
                }
            });
        }
        ann.put(REVISION, String.valueOf(revision));
        ann.put(DESIRED_REPLICAS, String.valueOf(replicas(d)));
        ann.put(MAX_REPLICAS, String.valueOf(replicas(d) + fenceposts(d)[0]));
        String rsName = d.getMetadata().getName() + "-" + hash;
        ReplicaSet rs = new ReplicaSetBuilder().withNewMetadata().withName(rsName).withNamespace(d.getMetadata().getNamespace())
                .withLabels(labels).withAnnotations(ann).withOwnerReferences(Children.controllerRef(d)).endMetadata()
                .withNewSpec().withReplicas(replicas).withMinReadySeconds(d.getSpec().getMinReadySeconds())
                .withSelector(selector).withTemplate(template).endSpec().build();
        Optional<HashNamed<ReplicaSet>> made = createHashNamed(rs,
                existing -> Caches.controllerUid(existing).orElse("").equals(d.getMetadata().getUid())
                        && PodTemplates.equalIgnoringHash(existing.getSpec().getTemplate(), d.getSpec().getTemplate()),
                () -> {
                    DeploymentStatus status = new DeploymentStatusBuilder(d.getStatus() == null ? new DeploymentStatus() : d.getStatus())
                            .withCollisionCount(collisions == null ? 1 : collisions + 1).build();
                    client.apps().deployments().inNamespace(d.getMetadata().getNamespace())
                            .resource(new DeploymentBuilder(d).withStatus(status).build()).updateStatus();
                });
        if (made.isPresent() && made.get().created()) {
            syncDeploymentRevision(d, String.valueOf(revision));
            DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.PROGRESSING, "True",
                    DeploymentConditions.NEW_RS_CREATED, "Created new replica set \"" + rsName + "\"", now));
        }
        return made.map(HashNamed::child);
    }

    /** kube's {@code cleanupDeployment}: ReplicaSets scaled to nothing beyond revisionHistoryLimit, oldest first. */
    private void cleanup(Deployment d, List<ReplicaSet> old) {
        int limit = d.getSpec().getRevisionHistoryLimit() == null ? 10 : d.getSpec().getRevisionHistoryLimit();
        List<ReplicaSet> idle = new ArrayList<>(old.stream().filter(rs -> replicas(rs) == 0 && rs.getStatus() != null
                && (rs.getStatus().getReplicas() == null || rs.getStatus().getReplicas() == 0) && settledDown(rs)).toList());
        if (idle.size() <= limit) {
            return;
        }
        idle.sort(Comparator.comparingInt(DeploymentController::revision).thenComparing(rs -> rs.getMetadata().getCreationTimestamp()));
        for (ReplicaSet rs : idle.subList(0, idle.size() - limit)) {
            client.apps().replicaSets().inNamespace(rs.getMetadata().getNamespace()).withName(rs.getMetadata().getName()).delete();
        }
    }

    private static void pausedCondition(Deployment d, List<DeploymentCondition> conditions, Instant now) {
        DeploymentCondition c = DeploymentConditions.get(conditions, DeploymentConditions.PROGRESSING);
        boolean paused = Boolean.TRUE.equals(d.getSpec().getPaused());
        if (paused && (c == null || !DeploymentConditions.PAUSED.equals(c.getReason()))) {
            DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.PROGRESSING, "Unknown",
                    DeploymentConditions.PAUSED, "Deployment is paused", now));
        } else if (!paused && c != null && DeploymentConditions.PAUSED.equals(c.getReason())) {
            DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.PROGRESSING, "Unknown",
                    DeploymentConditions.RESUMED, "Deployment is resumed", now));
        }
    }

    /** kube's {@code calculateStatus} and {@code syncRolloutStatus}; returns when the progress deadline falls due. */
    private Optional<Duration> writeStatus(Deployment d, ReplicaSet newRs, List<ReplicaSet> all,
            List<DeploymentCondition> conditions, Instant now) {
        int available = all.stream().mapToInt(rs -> rs.getStatus() == null || rs.getStatus().getAvailableReplicas() == null
                ? 0 : rs.getStatus().getAvailableReplicas()).sum();
        int replicas = all.stream().mapToInt(rs -> rs.getStatus() == null || rs.getStatus().getReplicas() == null ? 0 : rs.getStatus().getReplicas()).sum();
        int ready = all.stream().mapToInt(rs -> rs.getStatus() == null || rs.getStatus().getReadyReplicas() == null ? 0 : rs.getStatus().getReadyReplicas()).sum();
        int updated = newRs == null || newRs.getStatus() == null || newRs.getStatus().getReplicas() == null ? 0 : newRs.getStatus().getReplicas();
        DeploymentStatus old = d.getStatus() == null ? new DeploymentStatus() : d.getStatus();
        DeploymentStatus status = new DeploymentStatusBuilder().withObservedGeneration(d.getMetadata().getGeneration())
                .withReplicas(replicas).withUpdatedReplicas(updated).withReadyReplicas(ready).withAvailableReplicas(available)
                .withUnavailableReplicas(Math.max(0, replicas(d) - available)).withCollisionCount(old.getCollisionCount())
                .build();
        if (available >= replicas(d) - fenceposts(d)[1]) {
            DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.AVAILABLE, "True",
                    "MinimumReplicasAvailable", "Deployment has minimum availability.", now));
        } else {
            DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.AVAILABLE, "False",
                    "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", now));
        }
        Duration recheck = progress(d, newRs, old, status, conditions, now);
        status.setConditions(conditions);
        if (!status.equals(d.getStatus())) {
            client.apps().deployments().inNamespace(d.getMetadata().getNamespace())
                    .resource(new DeploymentBuilder(d).withStatus(status).build()).updateStatus();
        }
        return Optional.ofNullable(recheck);
    }

    private static Duration progress(Deployment d, ReplicaSet newRs, DeploymentStatus old, DeploymentStatus status,
            List<DeploymentCondition> conditions, Instant now) {
        Integer deadline = d.getSpec().getProgressDeadlineSeconds() == null ? Integer.valueOf(600) : d.getSpec().getProgressDeadlineSeconds();
        if (deadline == Integer.MAX_VALUE || Boolean.TRUE.equals(d.getSpec().getPaused())) {
            return null;
        }
        String rsName = newRs == null ? null : newRs.getMetadata().getName();
        DeploymentCondition current = DeploymentConditions.get(conditions, DeploymentConditions.PROGRESSING);
        boolean complete = status.getReplicas().equals(status.getUpdatedReplicas()) && current != null
                && DeploymentConditions.NEW_RS_AVAILABLE.equals(current.getReason());
        if (complete) {
            return null;
        }
        int want = replicas(d);
        if (status.getUpdatedReplicas() == want && status.getReplicas() == want && status.getAvailableReplicas() == want) {
            String msg = rsName == null ? "Deployment \"" + d.getMetadata().getName() + "\" has successfully progressed."
                    : "ReplicaSet \"" + rsName + "\" has successfully progressed.";
            DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.PROGRESSING, "True",
                    DeploymentConditions.NEW_RS_AVAILABLE, msg, now));
            return null;
        }
        int oldOld = nz(old.getReplicas()) - nz(old.getUpdatedReplicas());
        int newOld = status.getReplicas() - status.getUpdatedReplicas();
        boolean progressing = status.getUpdatedReplicas() > nz(old.getUpdatedReplicas()) || newOld < oldOld
                || status.getReadyReplicas() > nz(old.getReadyReplicas()) || status.getAvailableReplicas() > nz(old.getAvailableReplicas());
        if (progressing) {
            String msg = rsName == null ? "Deployment \"" + d.getMetadata().getName() + "\" is progressing."
                    : "ReplicaSet \"" + rsName + "\" is progressing.";
            var c = DeploymentConditions.of(DeploymentConditions.PROGRESSING, "True", DeploymentConditions.RS_UPDATED, msg, now);
            if (current != null && "True".equals(current.getStatus())) {
                c.setLastTransitionTime(current.getLastTransitionTime());
            }
            conditions.removeIf(x -> DeploymentConditions.PROGRESSING.equals(x.getType()));
            conditions.add(c);
            return Duration.ofSeconds(deadline).plusSeconds(1);
        }
        if (current != null && !DeploymentConditions.TIMED_OUT.equals(current.getReason()) && current.getLastUpdateTime() != null) {
            Instant due = Instant.parse(current.getLastUpdateTime()).plusSeconds(deadline);
            if (!now.isBefore(due)) {
                DeploymentConditions.set(conditions, DeploymentConditions.of(DeploymentConditions.PROGRESSING, "False",
                        DeploymentConditions.TIMED_OUT, "ReplicaSet \"" + rsName + "\" has timed out progressing.", now));
                return null;
            }
            return Duration.between(now, due).plusSeconds(1);
        }
        return null;
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }
}
