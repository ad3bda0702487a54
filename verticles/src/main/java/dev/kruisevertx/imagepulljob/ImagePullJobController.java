package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.vertx.core.Future;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OpenKruise's imagepulljob controller: an ImagePullJob's image is pulled on its target nodes by adding a tag, owned
 * by the job, to their NodeImages (at most {@code parallelism} pulling at a time); the node agents report each pull in
 * the NodeImage status, from which the job's status is computed ({@link ImagePullJobDecision}, carried out by
 * {@link ImagePullJobActuator}). Runs while KruiseDaemon and ImagePullJobGate are on.
 */
public final class ImagePullJobController extends NamedControllerDefinition {
    public static final String NAME = "imagepulljob";
    /** The manager flag {@code --default-ttlseconds-for-always-nodeimage} (default 300). */
    public static final String DEFAULT_TTL_FOR_ALWAYS_FLAG = "default-ttlseconds-for-always-nodeimage";
    static final int DEFAULT_TTL_FOR_ALWAYS = 300;

    private final Clock clock;

    public ImagePullJobController() {
        this(Clock.systemUTC());
    }

    public ImagePullJobController(Clock clock) {
        super(NAME, ImagePullJob.class);
        this.clock = clock;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(ImagePullJob.class, NodeImage.class, Pod.class, Secret.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.KruiseDaemon) && gates.enabled(Feature.ImagePullJobGate);
    }

    /** The nodeimage controller's index; whichever of the two starts the NodeImage informer first has it in place. */
    @Override
    public void registerIndexes(dev.kruisevertx.cache.WatchCache cache) {
        cache.addIndex(NodeImage.class, dev.kruisevertx.nodeimage.NodeImageController.TAG_OWNER_INDEX,
                dev.kruisevertx.nodeimage.NodeImageController.TAG_OWNERS);
    }

    static int defaultTtlForAlways(ControllerContext ctx) {
        String v = ctx.settings().extra().get(DEFAULT_TTL_FOR_ALWAYS_FLAG);
        return v == null ? DEFAULT_TTL_FOR_ALWAYS : Integer.parseInt(v);
    }

    static boolean unfinished(ImagePullJob job) {
        return job.getStatus() == null || job.getStatus().getCompletionTime() == null;
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<ImagePullJob> jobs = ctx.cache().resource(ImagePullJob.class);
        CachedResource<NodeImage> nodeImages = ctx.cache().resource(NodeImage.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        ImagePullJobActuator actuator = new ImagePullJobActuator(ctx, clock, defaultTtlForAlways(ctx));
        // A NodeImage's tag owners learn of its progress; a new NodeImage or new labels may make it a target.
        EventMapper<NodeImage> onNodeImage = (event, queue) -> {
            NodeImage now = event.newObject();
            NodeImage old = event.oldObject();
            for (NodeImage ni : new NodeImage[]{old, now}) {
                if (ni == null || ni.getSpec() == null) {
                    continue;
                }
                ni.getSpec().images().values().stream().filter(Objects::nonNull).flatMap(i -> i.tags().stream())
                        .flatMap(t -> t.ownerReferences().stream())
                        .filter(r -> ImagePullJob.KIND.equals(r.getKind()) && r.getName() != null)
                        .forEach(r -> queue.add(new Request(r.getNamespace(), r.getName())));
            }
            boolean targetsMayChange = old == null || now == null
                    || !Objects.equals(old.getMetadata().getLabels(), now.getMetadata().getLabels());
            if (targetsMayChange) {
                for (ImagePullJob job : jobs.list()) {
                    if (unfinished(job)) {
                        queue.add(Request.of(job));
                    }
                }
            }
        };
        // Pods moving to a node change the targets of podSelector jobs in their namespace.
        EventMapper<Pod> onPod = (event, queue) -> {
            Pod old = event.oldObject();
            Pod now = event.newObject();
            String before = old == null || old.getSpec() == null ? null : old.getSpec().getNodeName();
            String after = now == null || now.getSpec() == null ? null : now.getSpec().getNodeName();
            if (Objects.equals(before, after) && old != null && now != null
                    && Objects.equals(old.getMetadata().getLabels(), now.getMetadata().getLabels())) {
                return;
            }
            Pod p = now != null ? now : old;
            for (ImagePullJob job : jobs.list(p.getMetadata().getNamespace())) {
                if (job.getSpec() != null && job.getSpec().getPodSelector() != null && unfinished(job)) {
                    queue.add(Request.of(job));
                }
            }
        };
        CachedResource<Secret> secrets = ctx.cache().resource(Secret.class);
        String daemonNamespace = PullSecretSync.namespace();
        // A source secret's change is copied to the jobs naming it; a copy's change wakes the jobs it lists.
        EventMapper<Secret> onSecret = (event, queue) -> {
            Secret s = event.newObject() != null ? event.newObject() : event.oldObject();
            String ns = s.getMetadata().getNamespace();
            if (daemonNamespace.equals(ns)) {
                PullSecretSync.references(s).forEach(key -> {
                    int slash = key.indexOf('/');
                    queue.add(new Request(key.substring(0, slash), key.substring(slash + 1)));
                });
            }
            for (ImagePullJob job : jobs.list(ns)) {
                if (job.getSpec() != null && job.getSpec().getPullSecrets() != null
                        && job.getSpec().getPullSecrets().contains(s.getMetadata().getName())) {
                    queue.add(Request.of(job));
                }
            }
        };
        return new Controller(request -> {
            ImagePullJob job = jobs.get(request.namespace(), request.name());
            if (job == null) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            // Copies in the daemon config namespace, before anything else (OpenKruise's syncJobPullSecrets).
            PullSecretSync.Plan secretPlan = PullSecretSync.decide(job, daemonNamespace,
                    secrets.list(daemonNamespace), name -> secrets.get(request.namespace(), name));
            return actuator.applySecrets(job, secretPlan).compose(secretRefs ->
                    // Targets walk every NodeImage (and pods for a podSelector): on a worker, off the event loop.
                    ctx.vertx().executeBlocking(() -> {
                        Map<String, NodeImage> byName = new HashMap<>();
                        for (NodeImage ni : nodeImages.list()) {
                            byName.put(ni.getMetadata().getName(), ni);
                        }
                        List<Pod> candidates = job.getSpec() != null && job.getSpec().getPodSelector() != null
                                ? pods.list(request.namespace()) : List.of();
                        List<NodeImage> targets = job.getSpec() == null ? List.of()
                                : ImagePullJobTargets.of(job.getSpec(), request.namespace(), byName, candidates);
                        return ImagePullJobDecision.decide(job, targets, secretRefs, clock.instant());
                    }, false).compose(plan -> {
                        ctx.plans().record(NAME, request, plan.debugSummary());
                        return actuator.apply(job, plan, secretRefs).map(v -> plan.requeueAfter() == null
                                ? Result.done() : Result.requeueAfter(plan.requeueAfter()));
                    }));
        }, List.of(WatchSpec.of(ImagePullJob.class, EventMapper.self()),
                WatchSpec.of(NodeImage.class, onNodeImage),
                WatchSpec.of(Pod.class, onPod),
                WatchSpec.of(Secret.class, onSecret)));
    }

    static boolean sameStatus(Object a, Object b) {
        return Objects.equals(ApiJson.toJson(a), ApiJson.toJson(b));
    }

}
