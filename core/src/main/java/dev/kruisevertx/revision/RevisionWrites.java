package dev.kruisevertx.revision;

import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.BiFunction;

/**
 * Writes a {@link TemplateRevisions.Resolution}: renumbers the reused revision, or creates the new one. A name taken
 * by a revision the cache has not shown yet is checked against the API: the same data means it is ours, other data a
 * hash collision, which bumps the collision count and tries the next name, as Kubernetes' controller history does.
 * Blocking: call it on a worker thread.
 */
public final class RevisionWrites {
    private static final Logger LOG = LoggerFactory.getLogger(RevisionWrites.class);
    /** Hash collisions are rare; a run of them this long means something else keeps taking the names. */
    public static final int MAX_ATTEMPTS = 10;

    private RevisionWrites() {
    }

    /**
     * @param kind          the owner's kind and name for the log line, e.g. {@code StatefulSet default/web}
     * @param afterConflict the kind's {@link TemplateRevisions#afterConflict} for the refused resolution and the
     *                      revision found under its name (null when gone)
     * @return the resolution as written
     */
    public static TemplateRevisions.Resolution write(KubernetesClient client, TemplateRevisions.Resolution revs,
            String kind, BiFunction<TemplateRevisions.Resolution, ControllerRevision,
            TemplateRevisions.Resolution> afterConflict) {
        if (revs.renumber() != null) {
            ObjectEdits.edit(client, revs.renumber(), ObjectEdits.Part.OBJECT,
                    live -> new ControllerRevisionBuilder(live).withRevision(revs.nextNumber()).build());
            return revs;
        }
        TemplateRevisions.Resolution current = revs;
        for (int attempt = 1; current.toCreate() != null; attempt++) {
            ControllerRevision r = current.toCreate();
            try {
                client.apps().controllerRevisions().inNamespace(r.getMetadata().getNamespace()).resource(r).create();
                return current;
            } catch (KubernetesClientException e) {
                if (!ApiErrors.isConflict(e) || attempt >= MAX_ATTEMPTS) {
                    throw e;
                }
            }
            ControllerRevision existing = client.apps().controllerRevisions()
                    .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).get();
            current = afterConflict.apply(current, existing);
            if (current.toCreate() != null) {
                LOG.info("{}: ControllerRevision {} exists with other data, collision count now {}", kind,
                        r.getMetadata().getName(), current.collisionCount());
            }
        }
        return current;
    }
}
