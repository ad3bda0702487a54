package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.kube.ApiErrors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHash;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * kube's (apps/v1) StatefulSet controller: pods {@code <set>-<ordinal>} with the {@code statefulset.kubernetes.io/pod-name},
 * {@code apps.kubernetes.io/pod-index} and {@code controller-revision-hash} labels, a hostname and the set's
 * service as subdomain, and a PVC per volumeClaimTemplate ({@code <template>-<set>-<ordinal>}); OrderedReady
 * creates in ordinal order, each after its predecessors are running and ready, and removes from the highest
 * ordinal, Parallel does both at once; each template is a ControllerRevision {@code <set>-<hash>}; RollingUpdate
 * replaces pods from the highest ordinal down to {@code partition}, one at a time, OnDelete only gives recreated pods
 * the new revision; the status carries the replica counts and the current and update revisions.
 */
final class StatefulSetController extends WorkloadController<StatefulSet> {
    static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    static final String REVISION_LABEL = "controller-revision-hash";

    StatefulSetController(KubernetesClient client, Caches caches, Expectations expectations) {
        super(caches.statefulSets(), client, caches, expectations);
    }

    /** kube's revision data: the template, to be applied as a replacing patch. */
    static JsonNode revisionData(StatefulSet set) {
        ObjectNode template = RevisionData.SORTED.valueToTree(set.getSpec().getTemplate());
        template.put("$patch", "replace");
        ObjectNode data = RevisionData.SORTED.createObjectNode();
        data.putObject("spec").set("template", template);
        return RevisionData.sortKeys(RevisionData.prune(data));
    }

    static PodTemplateSpec templateOf(ControllerRevision revision) {
        JsonNode data = RevisionData.SORTED.valueToTree(revision.getData());
        ObjectNode template = ((ObjectNode) data.path("spec").path("template")).deepCopy();
        template.remove("$patch");
        return RevisionData.SORTED.convertValue(template, PodTemplateSpec.class);
    }

    static int ordinal(String setName, String podName) {
        if (!podName.startsWith(setName + "-")) {
            return -1;
        }
        String rest = podName.substring(setName.length() + 1);
        if (rest.isEmpty() || rest.length() > 9 || !rest.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(rest);
    }

    static boolean healthy(Pod p) {
        return p != null && !Pods.isTerminating(p) && Pods.isRunningAndReady(p);
    }

    static String revisionOf(Pod p) {
        return Pods.label(p, REVISION_LABEL);
    }

    @Override
    Optional<Duration> sync(StatefulSet set, String owner) {
        if (set.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        List<ControllerRevision> revisions = RevisionData.sorted(
                Children.claim(client, caches.revisions(), set, set.getSpec().getSelector(), ControllerRevision.class));
        Optional<ControllerRevision> update = updateRevision(set, revisions);
        if (update.isEmpty()) {
            return Optional.of(Duration.ofMillis(100));
        }
        ControllerRevision updateRev = update.get();
        if (revisions.stream().noneMatch(r -> r.getMetadata().getName().equals(updateRev.getMetadata().getName()))) {
            revisions = new ArrayList<>(revisions);
            revisions.add(updateRev);
        }
        String currentName = set.getStatus() == null ? null : set.getStatus().getCurrentRevision();
        ControllerRevision currentRev = revisions.stream().filter(r -> r.getMetadata().getName().equals(currentName))
                .findFirst().orElse(updateRev);
        TreeMap<Integer, Pod> pods = new TreeMap<>();
        for (Pod p : Children.claim(client, caches.pods(), set, set.getSpec().getSelector(), Pod.class)) {
            int ord = ordinal(set.getMetadata().getName(), p.getMetadata().getName());
            if (ord >= 0) {
                pods.put(ord, p);
            }
        }
        if (expectations.satisfied(owner, (ns, n) -> Caches.get(caches.pods(), ns, n))) {
            act(set, pods, currentRev, updateRev, owner);
        }
        Instant now = Instant.now();
        int minReady = set.getSpec().getMinReadySeconds() == null ? 0 : set.getSpec().getMinReadySeconds();
        writeStatus(set, status(set, pods, currentRev, updateRev, minReady, now));
        truncateHistory(set, revisions, pods, currentRev, updateRev);
        Duration next = Pods.nextAvailableIn(pods.values(), minReady, now);
        return next.isZero() ? Optional.empty() : Optional.of(next);
    }

    private Optional<ControllerRevision> updateRevision(StatefulSet set, List<ControllerRevision> revisions) {
        JsonNode data = revisionData(set);
        ControllerRevision equal = null;
        for (ControllerRevision r : revisions) {
            if (RevisionData.sameData(r, data)) {
                equal = r;
            }
        }
        long max = revisions.stream().mapToLong(r -> r.getRevision() == null ? 0 : r.getRevision()).max().orElse(0);
        if (equal != null) {
            if (equal.getRevision() != null && equal.getRevision() < max) {
                // A rollback to an earlier template: kube gives that revision the next number.
                equal = client.apps().controllerRevisions().inNamespace(set.getMetadata().getNamespace())
                        .resource(new ControllerRevisionBuilder(equal).withRevision(max + 1).build()).update();
            }
            return Optional.of(equal);
        }
        Integer collisions = set.getStatus() == null ? null : set.getStatus().getCollisionCount();
        String revName = set.getMetadata().getName() + "-" + RevisionHash.of(RevisionData.bytes(data), collisions);
        ControllerRevision rev = new ControllerRevisionBuilder().withNewMetadata().withName(revName)
                .withNamespace(set.getMetadata().getNamespace())
                .withLabels(set.getSpec().getTemplate().getMetadata() == null ? null : set.getSpec().getTemplate().getMetadata().getLabels())
                .withOwnerReferences(Children.controllerRef(set)).endMetadata()
                .withData(RevisionData.SORTED.convertValue(data, Object.class)).withRevision(max + 1).build();
        return createHashNamed(rev, existing -> RevisionData.sameData(existing, data), () -> {
            StatefulSetStatus status = new StatefulSetStatusBuilder(set.getStatus() == null ? new StatefulSetStatus() : set.getStatus())
                    .withCollisionCount(collisions == null ? 1 : collisions + 1).build();
            client.apps().statefulSets().inNamespace(set.getMetadata().getNamespace())
                    .resource(new StatefulSetBuilder(set).withStatus(status).build()).updateStatus();
        }).map(HashNamed::child);
    }

    /** One pass of kube's {@code updateStatefulSet}: create, replace failed, remove condemned, then roll. */
    private void act(StatefulSet set, TreeMap<Integer, Pod> pods, ControllerRevision currentRev, ControllerRevision updateRev, String owner) {
        boolean ordered = !"Parallel".equals(set.getSpec().getPodManagementPolicy());
        int start = set.getSpec().getOrdinals() == null || set.getSpec().getOrdinals().getStart() == null ? 0 : set.getSpec().getOrdinals().getStart();
        int replicas = set.getSpec().getReplicas() == null ? 1 : set.getSpec().getReplicas();
        int end = start + replicas;
        for (int ord = start; ord < end; ord++) {
            Pod p = pods.get(ord);
            if (p != null && !Pods.isTerminating(p)
                    && (Pods.PHASE_FAILED.equals(Pods.phase(p)) || Pods.PHASE_SUCCEEDED.equals(Pods.phase(p)))) {
                deletePod(p, owner);
                if (ordered) {
                    return;
                }
                continue;
            }
            if (p == null) {
                create(set, ord, chooseRevision(set, ord, start, currentRev, updateRev), owner);
                if (ordered) {
                    return;
                }
                continue;
            }
            if (ordered && !healthy(p)) {
                return;
            }
        }
        List<Integer> condemned = new ArrayList<>(pods.headMap(start).keySet());
        condemned.addAll(pods.tailMap(end).keySet());
        condemned.sort(java.util.Comparator.reverseOrder());
        for (int ord : condemned) {
            Pod p = pods.get(ord);
            if (Pods.isTerminating(p)) {
                if (ordered) {
                    return;
                }
                continue;
            }
            if (ordered && pods.subMap(start, end).values().stream().anyMatch(x -> !healthy(x))) {
                return;
            }
            deletePod(p, owner);
            if (ordered) {
                return;
            }
        }
        if (set.getSpec().getUpdateStrategy() != null && "OnDelete".equals(set.getSpec().getUpdateStrategy().getType())) {
            return;
        }
        int partition = partition(set);
        for (int ord = end - 1; ord >= Math.max(start, start + partition); ord--) {
            Pod p = pods.get(ord);
            if (p == null) {
                return;
            }
            if (!updateRev.getMetadata().getName().equals(revisionOf(p)) && !Pods.isTerminating(p)) {
                deletePod(p, owner);
                return;
            }
            if (!healthy(p)) {
                return;
            }
        }
    }

    private static int partition(StatefulSet set) {
        var su = set.getSpec().getUpdateStrategy();
        if (su == null || su.getRollingUpdate() == null || su.getRollingUpdate().getPartition() == null) {
            return 0;
        }
        return su.getRollingUpdate().getPartition();
    }

    /** kube's {@code newVersionedStatefulSetPod}: pods below the partition are made at the current revision. */
    private static ControllerRevision chooseRevision(StatefulSet set, int ord, int start, ControllerRevision currentRev,
            ControllerRevision updateRev) {
        boolean rolling = set.getSpec().getUpdateStrategy() == null || !"OnDelete".equals(set.getSpec().getUpdateStrategy().getType());
        if (rolling && partition(set) > 0 && ord - start < partition(set)) {
            return currentRev;
        }
        return updateRev;
    }

    private void create(StatefulSet set, int ord, ControllerRevision revision, String owner) {
        String ns = set.getMetadata().getNamespace();
        String podName = set.getMetadata().getName() + "-" + ord;
        Pod pod = Children.podFromTemplate(templateOf(revision), set, null);
        pod.getMetadata().setGenerateName(null);
        pod.getMetadata().setName(podName);
        Map<String, String> labels = pod.getMetadata().getLabels();
        labels.put(POD_NAME_LABEL, podName);
        labels.put(POD_INDEX_LABEL, String.valueOf(ord));
        labels.put(REVISION_LABEL, revision.getMetadata().getName());
        pod.getSpec().setHostname(podName);
        pod.getSpec().setSubdomain(set.getSpec().getServiceName());
        if (set.getSpec().getVolumeClaimTemplates() != null) {
            List<Volume> volumes = new ArrayList<>(pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes());
            for (PersistentVolumeClaim template : set.getSpec().getVolumeClaimTemplates()) {
                String claim = template.getMetadata().getName() + "-" + podName;
                createClaim(set, template, claim);
                volumes.removeIf(v -> v.getName().equals(template.getMetadata().getName()));
                volumes.add(new VolumeBuilder().withName(template.getMetadata().getName()).withNewPersistentVolumeClaim()
                        .withClaimName(claim).endPersistentVolumeClaim().build());
            }
            pod.getSpec().setVolumes(volumes);
        }
        try {
            client.pods().inNamespace(ns).resource(pod).create();
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isConflict(e)) {
                throw e;
            }
        }
        expectations.expectCreate(owner, ns, podName);
    }

    private void createClaim(StatefulSet set, PersistentVolumeClaim template, String claim) {
        String ns = set.getMetadata().getNamespace();
        if (Caches.get(caches.claims(), ns, claim) != null) {
            return;
        }
        Map<String, String> labels = new LinkedHashMap<>(template.getMetadata().getLabels() == null ? Map.of() : template.getMetadata().getLabels());
        if (set.getSpec().getSelector().getMatchLabels() != null) {
            labels.putAll(set.getSpec().getSelector().getMatchLabels());
        }
        PersistentVolumeClaimBuilder b = new PersistentVolumeClaimBuilder().withNewMetadata().withName(claim).withNamespace(ns)
                .withLabels(labels).withAnnotations(template.getMetadata().getAnnotations()).endMetadata()
                .withSpec(Serialization.clone(template.getSpec()));
        var retention = set.getSpec().getPersistentVolumeClaimRetentionPolicy();
        if (retention != null && "Delete".equals(retention.getWhenDeleted())) {
            // kube's retention policy: the set owns the claim, so the garbage collector removes it with the set.
            b.editMetadata().withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(set.getApiVersion()).withKind(set.getKind())
                    .withName(set.getMetadata().getName()).withUid(set.getMetadata().getUid()).withBlockOwnerDeletion(true)
                    .withController(true).build()).endMetadata();
        }
        try {
            client.persistentVolumeClaims().inNamespace(ns).resource(b.build()).create();
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isConflict(e)) {
                throw e;
            }
        }
    }

    static StatefulSetStatus status(StatefulSet set, TreeMap<Integer, Pod> pods, ControllerRevision currentRev,
            ControllerRevision updateRev, int minReadySeconds, Instant now) {
        int replicas = 0;
        int ready = 0;
        int available = 0;
        int current = 0;
        int updated = 0;
        for (Pod p : pods.values()) {
            replicas++;
            if (healthy(p)) {
                ready++;
                if (Pods.isAvailable(p, minReadySeconds, now)) {
                    available++;
                }
            }
            if (!Pods.isTerminating(p)) {
                if (currentRev.getMetadata().getName().equals(revisionOf(p))) {
                    current++;
                }
                if (updateRev.getMetadata().getName().equals(revisionOf(p))) {
                    updated++;
                }
            }
        }
        String currentName = currentRev.getMetadata().getName();
        boolean rolling = set.getSpec().getUpdateStrategy() == null || !"OnDelete".equals(set.getSpec().getUpdateStrategy().getType());
        if (rolling && updated == replicas && ready == replicas) {
            // kube's completeRollingUpdate: the update revision becomes the current one.
            current = updated;
            currentName = updateRev.getMetadata().getName();
        }
        StatefulSetStatus old = set.getStatus() == null ? new StatefulSetStatus() : set.getStatus();
        return new StatefulSetStatusBuilder().withObservedGeneration(set.getMetadata().getGeneration()).withReplicas(replicas)
                .withReadyReplicas(ready).withAvailableReplicas(available).withCurrentReplicas(current).withUpdatedReplicas(updated)
                .withCurrentRevision(currentName).withUpdateRevision(updateRev.getMetadata().getName())
                .withCollisionCount(old.getCollisionCount() == null ? 0 : old.getCollisionCount())
                .withConditions(old.getConditions()).build();
    }

    private void writeStatus(StatefulSet set, StatefulSetStatus status) {
        if (status.equals(set.getStatus())) {
            return;
        }
        client.apps().statefulSets().inNamespace(set.getMetadata().getNamespace())
                .resource(new StatefulSetBuilder(set).withStatus(status).build()).updateStatus();
    }

    /** kube's {@code truncateHistory}: revisions no pod uses, beyond revisionHistoryLimit, oldest first. */
    private void truncateHistory(StatefulSet set, List<ControllerRevision> revisions, TreeMap<Integer, Pod> pods,
            ControllerRevision currentRev, ControllerRevision updateRev) {
        int limit = set.getSpec().getRevisionHistoryLimit() == null ? 10 : set.getSpec().getRevisionHistoryLimit();
        java.util.Set<String> live = new java.util.HashSet<>();
        live.add(currentRev.getMetadata().getName());
        live.add(updateRev.getMetadata().getName());
        pods.values().forEach(p -> live.add(revisionOf(p)));
        List<ControllerRevision> history = revisions.stream().filter(r -> !live.contains(r.getMetadata().getName())).toList();
        for (int i = 0; i < history.size() - limit; i++) {
            ControllerRevision r = history.get(i);
            client.apps().controllerRevisions().inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).delete();
        }
    }
}
