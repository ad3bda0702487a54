package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.kube.StatusWrites;
import dev.kruisevertx.api.apps.v1beta1.ReferenceObject;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    private final String daemonNamespace;
    private static final Logger LOG = LoggerFactory.getLogger(ImagePullJobActuator.class);

    ImagePullJobActuator(ControllerContext ctx, Clock clock, int defaultTtlForAlways) {
        this(ctx, clock, defaultTtlForAlways, PullSecretSync.namespace());
    }

    ImagePullJobActuator(ControllerContext ctx, Clock clock, int defaultTtlForAlways, String daemonNamespace) {
        this.daemonNamespace = daemonNamespace;
        this.ctx = ctx;
        this.clock = clock;
        this.defaultTtlForAlways = defaultTtlForAlways;
    }

    /**
     * Carries out the pull secret plan before anything else (OpenKruise syncs secrets before pulling and before the
     * finalizer goes) and answers the references the job's NodeImage images list.
     */
    Future<List<ReferenceObject>> applySecrets(ImagePullJob job, PullSecretSync.Plan plan) {
        if (plan.empty()) {
            return Future.succeededFuture(plan.inPlace());
        }
        return ctx.kube().write(() -> {
            String jobKey = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
            for (PullSecretSync.Release release : plan.releases()) {
                release(release.copy(), jobKey);
            }
            List<ReferenceObject> refs = new ArrayList<>(plan.inPlace());
            for (PullSecretSync.Claim claim : plan.claims()) {
                Secret copy = claim.copy() == null ? createCopy(claim) : updateCopy(claim);
                if (copy != null) {
                    refs.add(PullSecretSync.referenceTo(copy));
                }
            }
            if (!plan.missingSources().isEmpty()) {
                LOG.warn("ImagePullJob {} names {} pull secret(s) that do not exist: {}", jobKey,
                        plan.missingSources().size(), plan.missingSources());
            }
            return refs;
        });
    }

    private Secret createCopy(PullSecretSync.Claim claim) throws Exception {
        Secret source = claim.source();
        // The cache may not have seen a copy another job created a moment ago; a second copy of the same source would
        // split the jobs between two copies for good (each keeps the one naming it). Asked live: one small namespace.
        String sourceKey = source.getMetadata().getNamespace() + "/" + source.getMetadata().getName();
        Secret existing = ctx.client().secrets().inNamespace(daemonNamespace).list().getItems().stream()
                .filter(s -> s.getMetadata().getDeletionTimestamp() == null
                        && sourceKey.equals(PullSecretSync.annotation(s, PullSecretSync.SOURCE_KEY)))
                .min(java.util.Comparator.comparing(s -> s.getMetadata().getName())).orElse(null);
        if (existing != null) {
            return updateCopy(new PullSecretSync.Claim(source, existing, claim.references()));
        }
        Map<String, String> annotations = source.getMetadata().getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(source.getMetadata().getAnnotations());
        annotations.put(PullSecretSync.REFERENCES, claim.references());
        annotations.put(PullSecretSync.SOURCE_KEY, source.getMetadata().getNamespace() + "/"
                + source.getMetadata().getName());
        annotations.put(PullSecretSync.MODE, ReferenceObject.MODE_BATCH);
        Secret copy = new SecretBuilder().withNewMetadata()
                .withNamespace(daemonNamespace)
                .withName(source.getMetadata().getName() + "-" + randomSuffix())
                .withLabels(source.getMetadata().getLabels())
                .withAnnotations(annotations).endMetadata()
                .withType(source.getType()).withData(source.getData()).withStringData(source.getStringData())
                .withImmutable(source.getImmutable()).build();
        return ctx.client().resource(copy).create();
    }

    private Secret updateCopy(PullSecretSync.Claim claim) {
        if (!PullSecretSync.copyOutdated(claim)) {
            return claim.copy();
        }
        Secret written = ObjectEdits.edit(ctx.client(), claim.copy(), ObjectEdits.Part.OBJECT, live -> {
            // Re-read references from the live copy: another job may have claimed it since the cache saw it.
            java.util.TreeSet<String> refs = PullSecretSync.references(live);
            refs.addAll(java.util.Arrays.asList(claim.references().split(",")));
            Map<String, String> annotations = live.getMetadata().getAnnotations() == null ? new HashMap<>()
                    : new HashMap<>(live.getMetadata().getAnnotations());
            annotations.put(PullSecretSync.REFERENCES, String.join(",", refs));
            live.getMetadata().setAnnotations(annotations);
            live.setData(claim.source().getData());
            live.setStringData(claim.source().getStringData());
            return live;
        });
        return written;
    }

    /** Takes the job off a copy's references; a copy nobody references is deleted, unless changed meanwhile. */
    private void release(Secret cached, String jobKey) {
        Secret written = ObjectEdits.edit(ctx.client(), cached, ObjectEdits.Part.OBJECT, live -> {
            java.util.TreeSet<String> refs = PullSecretSync.references(live);
            if (!refs.remove(jobKey) && !refs.isEmpty()) {
                return null;
            }
            Map<String, String> annotations = new HashMap<>(live.getMetadata().getAnnotations() == null
                    ? Map.of() : live.getMetadata().getAnnotations());
            annotations.put(PullSecretSync.REFERENCES, String.join(",", refs));
            live.getMetadata().setAnnotations(annotations);
            return live;
        });
        if (written != null && PullSecretSync.references(written).isEmpty()) {
            // Locked on the version just written: a job that claimed the copy since then keeps it.
            try {
                ctx.client().resources(Secret.class).inNamespace(written.getMetadata().getNamespace())
                        .withName(written.getMetadata().getName())
                        .lockResourceVersion(written.getMetadata().getResourceVersion()).delete();
            } catch (KubernetesClientException e) {
                if (!ApiErrors.isNotFound(e) && !ApiErrors.isConflict(e)) {
                    throw e;
                }
            }
        }
    }

    private static String randomSuffix() {
        return String.format(Locale.ROOT, "%06x", ThreadLocalRandom.current().nextInt(1 << 24));
    }

    Future<Void> apply(ImagePullJob job, ImagePullJobPlan plan) {
        return apply(job, plan, List.of());
    }

    Future<Void> apply(ImagePullJob job, ImagePullJobPlan plan, List<ReferenceObject> secrets) {
        return ctx.kube().write(() -> {
            String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
            if (plan.addFinalizer()) {
                ObjectEdits.edit(ctx.client(), job, ObjectEdits.Part.OBJECT, live -> {
                    List<String> finalizers = live.getMetadata().getFinalizers() == null ? new ArrayList<>()
                            : new ArrayList<>(live.getMetadata().getFinalizers());
                    if (finalizers.contains(ImagePullJobDecision.FINALIZER)
                            || live.getMetadata().getDeletionTimestamp() != null) {
                        return null;
                    }
                    finalizers.add(ImagePullJobDecision.FINALIZER);
                    live.getMetadata().setFinalizers(finalizers);
                    return live;
                });
            }
            for (String node : plan.injectInto()) {
                ObjectEdits.edit(ctx.client(), NodeImage.class, null, null, node, ObjectEdits.Part.OBJECT, live -> {
                    // null: the tag is already there, nothing to write.
                    return NodeImageTags.inject(live, job, secrets, now, defaultTtlForAlways,
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
