package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes an Advanced StatefulSet's ControllerRevisions: creates (or renumbers) the update revision that
 * {@link StatefulSetRevisions} resolved, and deletes those beyond revisionHistoryLimit that nothing uses.
 */
final class StatefulSetRevisionWriter {
    private static final Logger LOG = LoggerFactory.getLogger(StatefulSetRevisionWriter.class);
    /** Hash collisions are rare; a run of them this long means something else keeps taking the names. */
    private static final int MAX_REVISION_ATTEMPTS = 10;
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
    Future<StatefulSetRevisions.Resolution> write(StatefulSet set, StatefulSetRevisions.Resolution revs) {
        if (revs.renumber() != null) {
            ControllerRevision r = revs.renumber();
            return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), r, ObjectEdits.Part.OBJECT,
                    live -> new ControllerRevisionBuilder(live).withRevision(revs.nextNumber()).build()))
                    .map(v -> revs);
        }
        if (revs.toCreate() == null) {
            return Future.succeededFuture(revs);
        }
        return ctx.kube().write(() -> {
            StatefulSetRevisions.Resolution current = revs;
            for (int attempt = 1; ; attempt++) {
                ControllerRevision r = current.toCreate();
                try {
                    ctx.client().apps().controllerRevisions().inNamespace(r.getMetadata().getNamespace())
                            .resource(r).create();
                    return current;
                } catch (KubernetesClientException e) {
                    if (!ApiErrors.isConflict(e) || attempt >= MAX_REVISION_ATTEMPTS) {
                        throw e;
                    }
                }
                ControllerRevision existing = ctx.client().apps().controllerRevisions()
                        .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).get();
                current = StatefulSetRevisions.afterConflict(set, current, existing);
                if (current.toCreate() == null) {
                    return current;
                }
                LOG.info("StatefulSet {}/{}: ControllerRevision {} exists with other data, collision count now {}",
                        set.getMetadata().getNamespace(), set.getMetadata().getName(), r.getMetadata().getName(),
                        current.collisionCount());
            }
        });
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
