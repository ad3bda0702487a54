package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHistory;
import dev.kruisevertx.revision.TemplateRevisions;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.List;
import java.util.Set;

/**
 * ControllerRevisions of an Advanced DaemonSet, as Kubernetes' DaemonSet history keeps them ({@link
 * TemplateRevisions}), labelled {@code controller-revision-hash: <hash>} (the bare hash, which is also the pods'
 * label). Pure.
 */
final class DaemonSetRevisions {
    private DaemonSetRevisions() {
    }

    static TemplateRevisions.Resolution resolve(DaemonSet set, List<ControllerRevision> history) {
        return TemplateRevisions.resolve(TemplateRevisions.dataOf(set.getSpec().getTemplate()), history,
                set.getStatus() == null ? null : set.getStatus().getCollisionCount(), builder(set));
    }

    /** After a 409 on create: the existing revision when it holds the same data, else the next name. */
    static TemplateRevisions.Resolution afterConflict(DaemonSet set, TemplateRevisions.Resolution refused,
                                                      ControllerRevision existing) {
        return TemplateRevisions.afterConflict(TemplateRevisions.dataOf(set.getSpec().getTemplate()), refused,
                existing, builder(set));
    }

    private static TemplateRevisions.Builder builder(DaemonSet set) {
        return (data, collisions, number) -> {
            String hash = TemplateRevisions.hash(data, collisions);
            return TemplateRevisions.build(set.getMetadata().getName(), set.getMetadata().getNamespace(),
                    set.getSpec().getSelector(), ownerReference(set), data, hash, hash, number);
        };
    }

    /** The revision's hash: its label, else what follows the set's name in its name. */
    static String hashOf(ControllerRevision r) {
        return TemplateRevisions.hashOf(r);
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
