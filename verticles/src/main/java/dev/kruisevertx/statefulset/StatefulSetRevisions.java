package dev.kruisevertx.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHistory;
import dev.kruisevertx.revision.TemplateRevisions;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.List;
import java.util.Set;

/**
 * ControllerRevisions of an Advanced StatefulSet, as Kubernetes' StatefulSet history keeps them ({@link
 * TemplateRevisions}), labelled and annotated as OpenKruise v1.9's {@code newRevision} does: the template's labels plus
 * {@code controller.kubernetes.io/hash: <hash>}, the set's annotations copied. Pure.
 */
final class StatefulSetRevisions {

    private StatefulSetRevisions() {
    }

    static TemplateRevisions.Resolution resolve(StatefulSet set, List<ControllerRevision> history) {
        return TemplateRevisions.resolve(dataOf(set.getSpec().getTemplate()), history,
                set.getStatus() == null ? null : set.getStatus().getCollisionCount(), builder(set));
    }

    /**
     * The resolution after the API refused {@code toCreate} because its name exists: the existing revision when its
     * data is the same (our cache had not seen it yet), else the next free name with the collision count bumped.
     */
    static TemplateRevisions.Resolution afterConflict(StatefulSet set, TemplateRevisions.Resolution refused,
                                                      ControllerRevision existing) {
        return TemplateRevisions.afterConflict(dataOf(set.getSpec().getTemplate()), refused, existing, builder(set));
    }

    private static TemplateRevisions.Builder builder(StatefulSet set) {
        return (data, collisions, number) -> {
            String hash = hash(data, collisions);
            PodTemplateSpec template = set.getSpec().getTemplate();
            return TemplateRevisions.historyRevision(set.getMetadata().getName(), set.getMetadata().getNamespace(),
                    template == null || template.getMetadata() == null ? null : template.getMetadata().getLabels(),
                    set.getMetadata().getAnnotations(), ownerReference(set), data, hash, number);
        };
    }

    static JsonNode dataOf(PodTemplateSpec template) {
        return TemplateRevisions.dataOf(template);
    }

    static String hash(JsonNode data, Integer collisionCount) {
        return TemplateRevisions.hash(data, collisionCount);
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
