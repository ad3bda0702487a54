package dev.kruisevertx.imagelistpulljob;

import dev.kruisevertx.api.apps.v1beta1.ImageListPullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.kube.StatusWrites;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.vertx.core.Future;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OpenKruise's imagelistpulljob controller (gates KruiseDaemon and ImagePullJobGate): an ImageListPullJob pulls each
 * of its images through an ImagePullJob it owns ({@code <name>-xxxxx}, labelled with the template's hash), replaced
 * when the template changes, deleted when its image leaves the list; the status sums them up
 * ({@link ImageListPullJobDecision}).
 */
public final class ImageListPullJobController extends NamedControllerDefinition {
    public static final String NAME = "imagelistpulljob";

    private final Clock clock;

    public ImageListPullJobController() {
        this(Clock.systemUTC());
    }

    public ImageListPullJobController(Clock clock) {
        super(NAME, ImageListPullJob.class);
        this.clock = clock;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(ImageListPullJob.class, ImagePullJob.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.KruiseDaemon) && gates.enabled(Feature.ImagePullJobGate);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<ImageListPullJob> lists = ctx.cache().resource(ImageListPullJob.class);
        CachedResource<ImagePullJob> jobs = ctx.cache().resource(ImagePullJob.class);
        // Created ImagePullJobs have generated names: the image is the expectation, as OpenKruise keys it, so a
        // reconcile before the cache saw a creation does not create that image's job twice.
        ScaleExpectations expectations = new ScaleExpectations(ctx.settings().expectationTimeout(), clock,
                ctx.registry(), "kruise_imagelistpulljob_expectation_leaks_total");
        // An ImagePullJob's progress is its owner's.
        EventMapper<ImagePullJob> onJob = (event, queue) -> {
            ImagePullJob j = event.newObject() != null ? event.newObject() : event.oldObject();
            for (OwnerReference ref : j.getMetadata().getOwnerReferences()) {
                if (ImageListPullJob.KIND.equals(ref.getKind()) && Boolean.TRUE.equals(ref.getController())) {
                    String key = j.getMetadata().getNamespace() + "/" + ref.getName();
                    if (event.oldObject() == null && j.getSpec() != null) {
                        expectations.observeCreate(key, j.getSpec().getImage());
                    }
                    queue.add(new Request(j.getMetadata().getNamespace(), ref.getName()));
                }
            }
        };
        return new Controller(request -> {
            ImageListPullJob job = lists.get(request.namespace(), request.name());
            String key = request.namespace() + "/" + request.name();
            if (job == null) {
                expectations.delete(key);
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            ScaleExpectations.Satisfied satisfied = expectations.satisfied(key);
            if (!satisfied.satisfied() && !satisfied.leaked()) {
                return Future.succeededFuture(Result.requeueAfter(java.time.Duration.ofSeconds(5)));
            }
            List<ImagePullJob> owned = jobs.controlledBy(job.getMetadata().getUid()).stream()
                    .filter(j -> j.getMetadata().getDeletionTimestamp() == null).toList();
            ImageListPullJobPlan plan = ImageListPullJobDecision.decide(job, owned, clock.instant());
            ctx.plans().record(NAME, request, plan.debugSummary());
            return ctx.kube().write(() -> {
                act(ctx, job, plan, image -> expectations.expectCreate(key, image),
                        image -> expectations.observeCreate(key, image));
                return null;
            }).map(v -> plan.requeueAfter() == null ? Result.done() : Result.requeueAfter(plan.requeueAfter()));
        }, List.of(WatchSpec.of(ImageListPullJob.class, EventMapper.self()),
                WatchSpec.of(ImagePullJob.class, onJob)));
    }

    private static void act(ControllerContext ctx, ImageListPullJob job, ImageListPullJobPlan plan,
                            java.util.function.Consumer<String> expectCreate,
                            java.util.function.Consumer<String> createFailed) throws Exception {
        String ns = job.getMetadata().getNamespace();
        if (plan.relabel()) {
            ObjectEdits.edit(ctx.client(), job, ObjectEdits.Part.OBJECT, live -> {
                Map<String, String> labels = live.getMetadata().getLabels() == null ? new HashMap<>()
                        : new HashMap<>(live.getMetadata().getLabels());
                if (plan.templateHash().equals(labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL,
                        plan.templateHash()))) {
                    return null;
                }
                live.getMetadata().setLabels(labels);
                return live;
            });
        }
        for (String image : plan.create()) {
            expectCreate.accept(image);
            try {
                ctx.client().resource(newImagePullJob(job, image, plan.templateHash())).create();
            } catch (RuntimeException e) {
                createFailed.accept(image);
                throw e;
            }
        }
        for (String name : plan.delete()) {
            ApiErrors.ignoreNotFound(() -> ctx.client().resources(ImagePullJob.class).inNamespace(ns).withName(name)
                    .delete());
        }
        if (plan.status() != null && !Objects.equals(ApiJson.toJson(job.getStatus()), ApiJson.toJson(plan.status()))) {
            StatusWrites.writeOverSameVersion(ctx.client(), ImageListPullJob.class, job,
                    live -> live.setStatus(plan.status()));
        }
        if (plan.deleteSelf()) {
            ApiErrors.ignoreNotFound(() -> ctx.client().resources(ImageListPullJob.class).inNamespace(ns)
                    .withName(job.getMetadata().getName()).delete());
        }
    }

    /** OpenKruise's newImagePullJobs: the list job's template and one image, {@code <name>-} generated names. */
    static ImagePullJob newImagePullJob(ImageListPullJob list, String image, String hash) {
        com.fasterxml.jackson.databind.node.ObjectNode spec = ApiJson.serialization().convertValue(list.getSpec(),
                com.fasterxml.jackson.databind.node.ObjectNode.class);
        spec.remove("images");
        spec.put("image", image);
        ImagePullJob job = new ImagePullJob();
        job.setMetadata(new ObjectMetaBuilder().withNamespace(list.getMetadata().getNamespace())
                .withGenerateName(list.getMetadata().getName() + "-")
                .withLabels(Map.of(WellKnown.CONTROLLER_REVISION_HASH_LABEL, hash))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(ImageListPullJob.API_VERSION)
                        .withKind(ImageListPullJob.KIND).withName(list.getMetadata().getName())
                        .withUid(list.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
                        .build())
                .build());
        job.setSpec(ApiJson.serialization().convertValue(spec, ImagePullJobSpec.class));
        return job;
    }
}
