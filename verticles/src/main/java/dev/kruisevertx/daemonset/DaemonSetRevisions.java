package dev.kruisevertx.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHash;
import dev.kruisevertx.revision.RevisionHistory;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ControllerRevisions of an Advanced DaemonSet, as Kubernetes' DaemonSet history keeps them: one per distinct pod
 * template, data {@code {"spec":{"template":{..., "$patch":"replace"}}}}, named {@code <set>-<hash>} and labelled
 * {@code controller-revision-hash: <hash>} (the bare hash, which is also the pods' label). Pure.
 */
final class DaemonSetRevisions {
    private DaemonSetRevisions() {
    }

    /**
     * @param update         the update revision (as it will exist once {@code toCreate} is created)
     * @param hash           its hash, the pods' {@code controller-revision-hash}
     * @param toCreate       a revision to create first, or null
     * @param renumber       an existing revision whose number must become {@code nextNumber} (a rollback), or null
     * @param nextNumber     the number after the newest revision
     * @param collisionCount the collision count to write to status
     */
    record Resolution(ControllerRevision update, String hash, ControllerRevision toCreate, ControllerRevision renumber,
                      long nextNumber, int collisionCount) {
    }

    static Resolution resolve(DaemonSet set, List<ControllerRevision> history) {
        JsonNode data = dataOf(set.getSpec().getTemplate());
        List<ControllerRevision> sorted = RevisionData.sorted(history);
        long next = sorted.isEmpty() || sorted.get(sorted.size() - 1).getRevision() == null ? 1
                : sorted.get(sorted.size() - 1).getRevision() + 1;
        int collisions = set.getStatus() == null || set.getStatus().getCollisionCount() == null ? 0
                : set.getStatus().getCollisionCount();
        ControllerRevision equal = null;
        for (ControllerRevision r : sorted) {
            if (RevisionData.sameData(r, data)) {
                equal = r;
            }
        }
        if (equal != null) {
            String hash = hashOf(equal);
            if (equal == sorted.get(sorted.size() - 1)) {
                return new Resolution(equal, hash, null, null, next, collisions);
            }
            ControllerRevision renumbered = new ControllerRevisionBuilder(equal).withRevision(next).build();
            return new Resolution(renumbered, hash, null, equal, next, collisions);
        }
        Set<String> taken = new HashSet<>();
        history.forEach(r -> taken.add(r.getMetadata().getName()));
        ControllerRevision candidate = build(set, data, collisions, next);
        while (taken.contains(candidate.getMetadata().getName())) {
            collisions++;
            candidate = build(set, data, collisions, next);
        }
        return new Resolution(candidate, hashOf(candidate), candidate, null, next, collisions);
    }

    /** After a 409 on create: the existing revision when it holds the same data, else the next name. */
    static Resolution afterConflict(DaemonSet set, Resolution refused, ControllerRevision existing) {
        JsonNode data = dataOf(set.getSpec().getTemplate());
        if (existing != null && RevisionData.sameData(existing, data)) {
            return new Resolution(existing, hashOf(existing), null, null, refused.nextNumber(), refused.collisionCount());
        }
        int collisions = refused.collisionCount() + 1;
        ControllerRevision candidate = build(set, data, collisions, refused.nextNumber());
        return new Resolution(candidate, hashOf(candidate), candidate, null, refused.nextNumber(), collisions);
    }

    /** The revision's hash: its label, else what follows the set's name in its name. */
    static String hashOf(ControllerRevision r) {
        Map<String, String> labels = r.getMetadata().getLabels();
        String label = labels == null ? null : labels.get(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
        if (label != null && !label.isEmpty()) {
            return label;
        }
        String name = r.getMetadata().getName();
        return name.substring(name.lastIndexOf('-') + 1);
    }

    private static ControllerRevision build(DaemonSet set, JsonNode data, int collisions, long number) {
        String hash = RevisionHash.of(data.toString().getBytes(StandardCharsets.UTF_8), collisions);
        Map<String, String> labels = new LinkedHashMap<>();
        if (set.getSpec().getSelector() != null && set.getSpec().getSelector().getMatchLabels() != null) {
            labels.putAll(set.getSpec().getSelector().getMatchLabels());
        }
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, hash);
        return new ControllerRevisionBuilder()
                .withNewMetadata().withName(set.getMetadata().getName() + "-" + hash)
                .withNamespace(set.getMetadata().getNamespace()).withLabels(labels)
                .withOwnerReferences(ownerReference(set)).endMetadata()
                .withData(ApiJson.serialization().convertValue(data, Object.class))
                .withRevision(number)
                .build();
    }

    static JsonNode dataOf(PodTemplateSpec template) {
        ObjectNode t = ApiJson.serialization().convertValue(template, ObjectNode.class);
        t.put(RevisionHistory.PATCH_DIRECTIVE, "replace");
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.putObject("spec").set("template", t);
        return data;
    }

    /**
     * Revisions beyond revisionHistoryLimit that no pod uses (by hash) and that are not the update revision,
     * oldest first (upstream's cleanupHistory).
     */
    static List<ControllerRevision> toPrune(List<ControllerRevision> history, Set<String> liveHashes, int limit) {
        return RevisionHistory.toPrune(RevisionData.sorted(history), r -> liveHashes.contains(hashOf(r)), limit);
    }

    static OwnerReference ownerReference(DaemonSet set) {
        return new OwnerReferenceBuilder().withApiVersion(DaemonSet.API_VERSION).withKind(DaemonSet.KIND)
                .withName(set.getMetadata().getName()).withUid(set.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }
}
