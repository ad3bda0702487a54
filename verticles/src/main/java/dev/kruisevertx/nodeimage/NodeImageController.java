package dev.kruisevertx.nodeimage;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
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
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * OpenKruise's nodeimage controller ({@link NodeImageDecision}): one NodeImage per Ready node, named after it, created
 * {@code --nodeimage-creation-delay} after the node turned Ready and deleted with the node; it carries the node's
 * labels and drops expired tags. Runs while the KruiseDaemon gate is on. Keys are node names.
 */
public final class NodeImageController extends NamedControllerDefinition {
    public static final String NAME = "nodeimage";
    /** The manager flag {@code --nodeimage-creation-delay} (default 30s), in milliseconds in the settings. */
    public static final String CREATION_DELAY_FLAG = "nodeimage-creation-delay";
    static final Duration DEFAULT_CREATION_DELAY = Duration.ofSeconds(30);

    private final Clock clock;

    public NodeImageController() {
        this(Clock.systemUTC());
    }

    public NodeImageController(Clock clock) {
        super(NAME, NodeImage.class);
        this.clock = clock;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(NodeImage.class, Node.class, ImagePullJob.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.KruiseDaemon);
    }

    /** NodeImages by the uids of their tags' owners. */
    public static final String TAG_OWNER_INDEX = "nodeimage-tag-owner-uid";

    /** One function object for the index, so every controller watching NodeImages can register it (a no-op twice). */
    public static final java.util.function.Function<NodeImage, List<String>> TAG_OWNERS = ni -> ni.getSpec() == null
            ? List.of() : ni.getSpec().images().values().stream().filter(Objects::nonNull)
            .flatMap(i -> i.tags().stream()).flatMap(t -> t.ownerReferences().stream())
            .map(ObjectReference::getUid).filter(Objects::nonNull).distinct().toList();

    @Override
    public void registerIndexes(dev.kruisevertx.cache.WatchCache cache) {
        cache.addIndex(NodeImage.class, TAG_OWNER_INDEX, TAG_OWNERS);
    }

    static Duration creationDelay(ControllerContext ctx) {
        String millis = ctx.settings().extra().get(CREATION_DELAY_FLAG);
        return millis == null ? DEFAULT_CREATION_DELAY : Duration.ofMillis(Long.parseLong(millis));
    }

    /** Node updates that matter here: labels, readiness, deletion (not heartbeats). */
    static boolean relevant(Node old, Node now) {
        if (old == null || now == null) {
            return true;
        }
        if (!Objects.equals(old.getMetadata().getLabels(), now.getMetadata().getLabels())
                || !Objects.equals(old.getMetadata().getDeletionTimestamp(), now.getMetadata().getDeletionTimestamp())) {
            return true;
        }
        var before = NodeImageDecision.readyCondition(old);
        var after = NodeImageDecision.readyCondition(now);
        return before == null || after == null ? before != after
                : !Objects.equals(before.getStatus(), after.getStatus())
                || !Objects.equals(before.getLastTransitionTime(), after.getLastTransitionTime());
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        CachedResource<NodeImage> nodeImages = ctx.cache().resource(NodeImage.class);
        CachedResource<ImagePullJob> jobs = ctx.cache().resource(ImagePullJob.class);
        Duration delay = creationDelay(ctx);
        NodeImageDecision.Owners owners = ref -> {
            ImagePullJob job = jobs.get(ref.getNamespace(), ref.getName());
            return job != null && Objects.equals(job.getMetadata().getUid(), ref.getUid());
        };
        EventMapper<Node> onNode = (event, queue) -> {
            if (relevant(event.oldObject(), event.newObject())) {
                HasMetadata n = event.newObject() != null ? event.newObject() : event.oldObject();
                queue.add(new Request("", n.getMetadata().getName()));
            }
        };
        // A job gone may leave tags without owners: look at the NodeImages that name it.
        EventMapper<ImagePullJob> onJobDeleted = (event, queue) -> {
            if (event.newObject() != null) {
                return;
            }
            for (NodeImage ni : nodeImages.byIndex(TAG_OWNER_INDEX, event.oldObject().getMetadata().getUid())) {
                queue.add(Request.of(ni));
            }
        };
        return new Controller(request -> {
            Node node = nodes.get(null, request.name());
            NodeImage nodeImage = nodeImages.get(null, request.name());
            NodeImagePlan plan = NodeImageDecision.decide(node, nodeImage, owners, clock.instant(), delay);
            if (node == null && nodeImage == null) {
                ctx.plans().forget(NAME, request);
            } else {
                ctx.plans().record(NAME, request, plan.debugSummary());
            }
            Result done = plan.requeueAfter() == null ? Result.done() : Result.requeueAfter(plan.requeueAfter());
            return switch (plan.action()) {
                case NONE -> Future.succeededFuture(done);
                case CREATE -> ctx.kube().write(() -> ApiErrors.ignoringAlreadyExists(() -> {
                    NodeImage created = new NodeImage();
                    created.setMetadata(new ObjectMetaBuilder().withName(request.name())
                            .withLabels(plan.labels()).build());
                    created.setSpec(new NodeImageSpec());
                    return ctx.client().resources(NodeImage.class).resource(created).create();
                })).map(done);
                case DELETE -> ctx.kube().write(() -> {
                    ApiErrors.ignoreNotFound(() -> ctx.client().resources(NodeImage.class)
                            .withName(request.name()).delete());
                    return null;
                }).map(done);
                case UPDATE -> ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), NodeImage.class, nodeImage, null,
                        request.name(), ObjectEdits.Part.OBJECT, live -> {
                            // Decided again on the live object: a job may have added a tag since the cache saw it.
                            NodeImagePlan again = NodeImageDecision.decide(nodes.get(null, request.name()), live,
                                    owners, clock.instant(), delay);
                            if (again.action() != NodeImagePlan.Action.UPDATE) {
                                return null;
                            }
                            live.getMetadata().setLabels(again.labels());
                            live.getSpec().setImages(again.images());
                            return live;
                        }, ObjectEdits.DEFAULT_ATTEMPTS)).map(done);
            };
        }, List.of(WatchSpec.of(NodeImage.class, EventMapper.self()),
                WatchSpec.of(Node.class, onNode),
                WatchSpec.of(ImagePullJob.class, onJobDeleted)));
    }
}
