package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.RevisionHash;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHistory;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ControllerRevisions of an Advanced StatefulSet: one per distinct pod template, named {@code <set>-<hash>}, data
 * {@code {"spec":{"template":{..., "$patch":"replace"}}}} as Kubernetes' StatefulSet stores it, labelled with the
 * set's selector labels and {@code controller-revision-hash}.
 */
final class StatefulSetRevisions {

    private StatefulSetRevisions() {
    }

    /**
     * The revision the current template maps to, as Kubernetes' StatefulSet resolves it: an existing revision with
     * the same data is reused (and renumbered to be the newest when it is not, which is a rollback); otherwise a new
     * one is named from the hash of the data and the collision count, and a name already taken by a revision with
     * other data bumps the count until the name is free.
     *
     * @param update         the update revision (as it will exist once {@code toCreate} is created)
     * @param toCreate       a revision to create first, or null
     * @param renumber       an existing revision whose number must become {@code nextNumber}, or null
     * @param nextNumber     the number after the newest revision
     * @param collisionCount the collision count to write to status
     */
    record Resolution(ControllerRevision update, ControllerRevision toCreate, ControllerRevision renumber,
                      long nextNumber, int collisionCount) {
    }

    static Resolution resolve(StatefulSet set, List<ControllerRevision> history) {
        JsonNode data = dataOf(set.getSpec().getTemplate());
        List<ControllerRevision> sorted = RevisionData.sorted(history);
        long next = sorted.isEmpty() || sorted.get(sorted.size() - 1).getRevision() == null ? 1
                : sorted.get(sorted.size() - 1).getRevision() + 1;
        int collisions = set.getStatus() == null || set.getStatus().getCollisionCount() == null ? 0
                : set.getStatus().getCollisionCount();
        ControllerRevision equal = null;
        for (ControllerRevision r : sorted) {
            if (sameData(r, data)) {
                equal = r;
            }
        }
        if (equal != null) {
            if (equal == sorted.get(sorted.size() - 1)) {
                return new Resolution(equal, null, null, next, collisions);
            }
            ControllerRevision renumbered = new ControllerRevisionBuilder(equal).withRevision(next).build();
            return new Resolution(renumbered, null, equal, next, collisions);
        }
        Set<String> taken = new java.util.HashSet<>();
        history.forEach(r -> taken.add(r.getMetadata().getName()));
        ControllerRevision candidate = build(set, data, collisions, next);
        while (taken.contains(candidate.getMetadata().getName())) {
            collisions++;
            candidate = build(set, data, collisions, next);
        }
        return new Resolution(candidate, candidate, null, next, collisions);
    }

    /**
     * The resolution after the API refused {@code toCreate} because its name exists: the existing revision when its
     * data is the same (our cache had not seen it yet), else the next free name with the collision count bumped.
     */
    static Resolution afterConflict(StatefulSet set, Resolution refused, ControllerRevision existing) {
        JsonNode data = dataOf(set.getSpec().getTemplate());
        if (existing != null && sameData(existing, data)) {
            return new Resolution(existing, null, null, refused.nextNumber(), refused.collisionCount());
        }
        int collisions = refused.collisionCount() + 1;
        ControllerRevision candidate = build(set, data, collisions, refused.nextNumber());
        return new Resolution(candidate, candidate, null, refused.nextNumber(), collisions);
    }

    static boolean sameData(ControllerRevision revision, JsonNode data) {
        // One notion of "same revision data" for every workload (numbers and empty fields normalised).
        return RevisionData.sameData(revision, data);
    }

    private static ControllerRevision build(StatefulSet set, JsonNode data, int collisions, long number) {
        String name = set.getMetadata().getName() + "-" + hash(data, collisions);
        Map<String, String> labels = new java.util.LinkedHashMap<>();
        if (set.getSpec().getSelector() != null && set.getSpec().getSelector().getMatchLabels() != null) {
            labels.putAll(set.getSpec().getSelector().getMatchLabels());
        }
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, name);
        return new ControllerRevisionBuilder()
                .withNewMetadata().withName(name).withNamespace(set.getMetadata().getNamespace()).withLabels(labels)
                .withOwnerReferences(ownerReference(set)).endMetadata()
                .withData(ApiJson.serialization().convertValue(data, Object.class))
                .withRevision(number)
                .build();
    }

    static JsonNode dataOf(PodTemplateSpec template) {
        ObjectNode t = ApiJson.serialization().convertValue(template, ObjectNode.class);
        t.put("$patch", "replace");
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.putObject("spec").set("template", t);
        return data;
    }

    static String hash(JsonNode data, Integer collisionCount) {
        return RevisionHash.of(data.toString().getBytes(StandardCharsets.UTF_8), collisionCount);
    }

    /**
     * Revisions beyond revisionHistoryLimit that no pod and neither status revision uses, oldest first. OpenKruise's
     * Advanced StatefulSet rule: a revision is live when its name is one of {@code live} (the status revisions and
     * the pods' {@code controller-revision-hash} labels), exactly; unlike CloneSet, a revision's own hash label does
     * not count.
     */
    static List<ControllerRevision> toPrune(List<ControllerRevision> history, Set<String> live, int limit) {
        return RevisionHistory.toPrune(RevisionData.sorted(history), r -> live.contains(r.getMetadata().getName()),
                limit);
    }

    static OwnerReference ownerReference(StatefulSet set) {
        return new OwnerReferenceBuilder().withApiVersion(StatefulSet.API_VERSION).withKind(StatefulSet.KIND)
                .withName(set.getMetadata().getName()).withUid(set.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }
}
