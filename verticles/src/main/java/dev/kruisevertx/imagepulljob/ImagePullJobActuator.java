package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.kube.StatusWrites;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Carries out an {@link ImagePullJobPlan}: tags into NodeImages (each edited from its live state, so a concurrent
 * writer's tags survive), then the status over the resourceVersion it was computed from, the finalizer, the TTL
 * deletion. 404s are outcomes; conflicts are left to the runtime (a prompt requeue).
 */
final class ImagePullJobActuator {
    private final ControllerContext ctx;
    private final Clock clock;
    private final int defaultTtlForAlways;

    ImagePullJobActuator(ControllerContext ctx, Clock clock, int defaultTtlForAlways) {
        this.ctx = ctx;
        this.clock = clock;
        this.defaultTtlForAlways = defaultTtlForAlways;
    }

    Future<Void> apply(ImagePullJob job, ImagePullJobPlan plan) {
        return ctx.kube().write(() -> {
            String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
            for (String node : plan.injectInto()) {
                ObjectEdits.edit(ctx.client(), NodeImage.class, null, null, node, ObjectEdits.Part.OBJECT, live -> {
                    // null: the tag is already there, nothing to write.
                    return NodeImageTags.inject(live, job, now, defaultTtlForAlways,
                            ThreadLocalRandom.current().nextDouble()) ? live : null;
                }, ObjectEdits.DEFAULT_ATTEMPTS);
            }
            if (plan.status() != null && !ImagePullJobController.sameStatus(job.getStatus(), plan.status())) {
                StatusWrites.writeOverSameVersion(ctx.client(), ImagePullJob.class, job,
                        live -> live.setStatus(plan.status()));
            }
            if (plan.removeFinalizer()) {
                ObjectEdits.edit(ctx.client(), job, ObjectEdits.Part.OBJECT, live -> {
                    List<String> finalizers = live.getMetadata().getFinalizers() == null ? new ArrayList<>()
                            : new ArrayList<>(live.getMetadata().getFinalizers());
                    if (!finalizers.remove(ImagePullJobDecision.FINALIZER)) {
                        return null;
                    }
                    live.getMetadata().setFinalizers(finalizers);
                    return live;
                });
            }
            if (plan.deleteJob()) {
                ApiErrors.ignoreNotFound(() -> ctx.client().resources(ImagePullJob.class)
                        .inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName()).delete());
            }
            return null;
        });
    }
}
