package dev.kruisevertx.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.vertx.core.Future;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * OpenKruise's resourcedistribution controller (gate ResourceDistributionGate): copies a distribution's Secret or
 * ConfigMap into every target namespace, restores copies edited or deleted by hand, removes copies from namespaces
 * that stop matching, reports same-named objects it does not own ({@code ConflictOccurred}) and missing namespaces,
 * and keeps the status. Decisions are pure ({@link NamespaceTargeting}, {@link CopyDecision},
 * {@link DistributionStatus}); {@link CopyWriter} applies them.
 */
public final class ResourceDistributionController extends NamedControllerDefinition {
    public static final String NAME = "resourcedistribution";
    private final Clock clock;

    public ResourceDistributionController() {
        this(Clock.systemUTC());
    }

    public ResourceDistributionController(Clock clock) {
        super(NAME, ResourceDistribution.class);
        this.clock = clock;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(ResourceDistribution.class, Namespace.class, Secret.class, ConfigMap.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.ResourceDistributionGate);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<ResourceDistribution> rds = ctx.cache().resource(ResourceDistribution.class);
        CachedResource<Namespace> namespaces = ctx.cache().resource(Namespace.class);
        CachedResource<Secret> secrets = ctx.cache().resource(Secret.class);
        CachedResource<ConfigMap> configMaps = ctx.cache().resource(ConfigMap.class);
        CopyWriter writer = new CopyWriter(ctx);
        // Only spec changes (a new generation), creations and deletions: our own status writes are not work.
        EventMapper<ResourceDistribution> self = (event, queue) -> {
            if (event.type() == CacheEvent.Type.UPDATED && Objects.equals(event.oldObject().getMetadata()
                    .getGeneration(), event.newObject().getMetadata().getGeneration())) {
                return;
            }
            EventMapper.<ResourceDistribution>self().map(event, queue);
        };
        // A namespace concerns the distributions it matched before or matches now: O(distributions).
        EventMapper<Namespace> namespaceToDistributions = (event, queue) -> {
            for (ResourceDistribution rd : rds.list()) {
                var targets = rd.spec().targets();
                if ((event.newObject() != null && NamespaceTargeting.matches(targets, event.newObject()))
                        || (event.oldObject() != null && NamespaceTargeting.matches(targets, event.oldObject()))) {
                    queue.add(Request.of(rd));
                }
            }
        };
        return new Controller(request -> {
            ResourceDistribution rd = rds.get(null, request.name());
            if (rd == null) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            DistributedResource resource;
            try {
                resource = DistributedResource.parse(rd.spec().getResource());
            } catch (IllegalArgumentException e) {
                // As OpenKruise: nothing to distribute until the spec changes; no retry.
                ctx.plans().record(NAME, request, PlanSummary.of("invalid spec.resource: " + e.getMessage()));
                return Future.succeededFuture(Result.done());
            }
            CachedResource<? extends HasMetadata> copies = "Secret".equals(resource.kind()) ? secrets : configMaps;
            // Walks every namespace: on a worker.
            return ctx.vertx().executeBlocking(() -> plan(rd, resource, namespaces, copies), false)
                    .compose(plan -> {
                        ctx.plans().record(NAME, request, plan.debugSummary());
                        return writer.apply(rd, plan).compose(failures -> writeStatus(ctx, rd, plan, failures));
                    }, e -> {
                        if (e instanceof IllegalArgumentException) {
                            ctx.plans().record(NAME, request, PlanSummary.of("invalid spec.targets: " + e.getMessage()));
                            return Future.succeededFuture(Result.done());
                        }
                        return Future.failedFuture(e);
                    });
        }, List.of(WatchSpec.of(ResourceDistribution.class, self),
                WatchSpec.of(Namespace.class, namespaceToDistributions),
                WatchSpec.of(Secret.class, copyToDistribution(rds, "Secret")),
                WatchSpec.of(ConfigMap.class, copyToDistribution(rds, "ConfigMap"))));
    }

    /** The snapshot and the pure decisions: which namespaces, and what to do in each. */
    static ResourceDistributionPlan plan(ResourceDistribution rd, DistributedResource resource,
                                        CachedResource<Namespace> namespaces,
                                        CachedResource<? extends HasMetadata> copies) {
        List<Namespace> all = namespaces.list();
        NamespaceTargeting.Targets targets = NamespaceTargeting.of(rd.spec().targets(), all);
        TreeSet<String> names = new TreeSet<>(targets.matched());
        names.addAll(targets.unmatched());
        List<CopyDecision.Step> steps = new ArrayList<>();
        for (String ns : names) {
            Namespace namespace = namespaces.get(null, ns);
            boolean usable = namespace != null && namespace.getMetadata().getDeletionTimestamp() == null;
            HasMetadata live = copies.get(ns, resource.name());
            JsonNode liveJson = live == null ? null : ApiJson.serialization().convertValue(live, JsonNode.class);
            steps.add(CopyDecision.decide(rd.getMetadata().getName(), resource, ns, targets.matched().contains(ns),
                    usable, liveJson));
        }
        return new ResourceDistributionPlan(resource, steps, targets.matched().size());
    }

    /**
     * A copy changed or went away: its distribution (by the controller reference). A same-named object nobody owns
     * going away may end a conflict: the distributions of that name are looked at again.
     */
    static <T extends HasMetadata> EventMapper<T> copyToDistribution(CachedResource<ResourceDistribution> rds,
                                                                      String kind) {
        return (event, queue) -> {
            T obj = event.newObject() != null ? event.newObject() : event.oldObject();
            if (obj == null || obj.getMetadata() == null) {
                return;
            }
            for (OwnerReference ref : obj.getMetadata().getOwnerReferences() == null ? List.<OwnerReference>of()
                    : obj.getMetadata().getOwnerReferences()) {
                if (Boolean.TRUE.equals(ref.getController()) && ResourceDistribution.KIND.equals(ref.getKind())
                        && ResourceDistribution.API_VERSION.equals(ref.getApiVersion())) {
                    if (event.type() != CacheEvent.Type.ADDED || !event.initialList()) {
                        queue.add(new Request("", ref.getName()));
                    }
                    return;
                }
            }
            if (event.type() == CacheEvent.Type.DELETED) {
                String name = obj.getMetadata().getName();
                for (ResourceDistribution rd : rds.list()) {
                    JsonNode r = rd.spec().getResource();
                    if (r != null && kind.equals(r.path("kind").asText()) && name.equals(r.path("metadata")
                            .path("name").asText())) {
                        queue.add(Request.of(rd));
                    }
                }
            }
        };
    }

    private Future<Result> writeStatus(ControllerContext ctx, ResourceDistribution rd, ResourceDistributionPlan plan,
                                       List<DistributionStatus.Failure> failures) {
        ResourceDistributionStatus status = DistributionStatus.compute(rd.getStatus(), plan.desired(), failures,
                rd.getMetadata().getGeneration(), clock.instant());
        // Failed writes are retried with backoff, as OpenKruise returns them as errors; a conflict or a missing
        // namespace is reported and waits for a change instead.
        boolean retry = failures.stream().anyMatch(f -> f.condition() != dev.kruisevertx.api.apps.v1alpha1
                .ResourceDistributionConditionType.CONFLICT_OCCURRED && f.condition() != dev.kruisevertx.api.apps
                .v1alpha1.ResourceDistributionConditionType.NAMESPACE_NOT_EXISTS);
        Result next = retry ? Result.requeueRateLimited() : Result.done();
        if (Objects.equals(ApiJson.toJson(rd.getStatus()), ApiJson.toJson(status))) {
            return Future.succeededFuture(next);
        }
        return ctx.kube().write(() -> {
            ResourceDistribution copy = ApiJson.serialization().clone(rd);
            copy.setStatus(status);
            ctx.client().resource(copy).updateStatus();
            return next;
        });
    }
}
