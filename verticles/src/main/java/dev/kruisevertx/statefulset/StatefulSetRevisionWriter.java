package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.RevisionWrites;
import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.controller.ControllerContext;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes an Advanced StatefulSet's ControllerRevisions: creates (or renumbers) the update revision that
 * {@link StatefulSetRevisions} resolved, and deletes those beyond revisionHistoryLimit that nothing uses.
 */
final class StatefulSetRevisionWriter {
    /** Kubernetes' default revisionHistoryLimit. */
    private static final int DEFAULT_HISTORY_LIMIT = 10;

    private final ControllerContext ctx;

    StatefulSetRevisionWriter(ControllerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Creates (or renumbers) the update revision. A name taken by a revision our cache has not shown yet is checked
     * against the API: the same data means it is ours, other data a hash collision, which bumps the collision count
     * and tries the next name, as Kubernetes' controller history does.
     */
    Future<TemplateRevisions.Resolution> write(StatefulSet set, TemplateRevisions.Resolution revs) {
        if (revs.renumber() == null && revs.toCreate() == null) {
            return Future.succeededFuture(revs);
        }
        String owner = "StatefulSet " + set.getMetadata().getNamespace() + "/" + set.getMetadata().getName();
        return ctx.kube().write(() -> RevisionWrites.write(ctx.client(), revs, owner,
                (refused, existing) -> StatefulSetRevisions.afterConflict(set, refused, existing)));
    }

    /** Deletes the revisions beyond revisionHistoryLimit that no pod and neither status revision uses. */
    Future<Void> prune(StatefulSet set, List<ControllerRevision> history, Set<String> live) {
        Integer limit = set.getSpec().getRevisionHistoryLimit();
        List<ControllerRevision> prune = StatefulSetRevisions.toPrune(history, live,
                limit == null ? DEFAULT_HISTORY_LIMIT : limit);
        List<Future<Void>> out = new ArrayList<>();
        for (ControllerRevision r : prune) {
            out.add(ctx.kube().write(() -> ctx.client().apps().controllerRevisions()
                    .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).delete())
                    .mapEmpty());
        }
        return Future.join(out).mapEmpty();
    }
}
