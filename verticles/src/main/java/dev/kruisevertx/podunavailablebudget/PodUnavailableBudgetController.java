package dev.kruisevertx.podunavailablebudget;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.api.common.WellKnown;
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
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.StatusWrites;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import dev.kruisevertx.pub.PubStatusCalculator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * OpenKruise's podunavailablebudget controller: keeps each budget's status (desired, current, allowed, total) in
 * step with its pods and expires the records the pod webhook leaves ({@link PubStatusCalculator}). Runs while either
 * PUB feature gate is on.
 */
public final class PodUnavailableBudgetController extends NamedControllerDefinition {
    public static final String NAME = "podunavailablebudget";
    /** Where {@code kruise-configuration} lives: the manager's namespace, as OpenKruise's webhookutil.GetNamespace(). */
    static final String NAMESPACE_ENV = "POD_NAMESPACE";
    static final String DEFAULT_NAMESPACE = "kruise-system";
    private final Clock clock;
    private final String kruiseNamespace;

    public PodUnavailableBudgetController() {
        this(Clock.systemUTC());
    }

    public PodUnavailableBudgetController(Clock clock) {
        this(clock, kruiseNamespaceFromEnv());
    }

    /** @param kruiseNamespace where ConfigMap {@code kruise-configuration} (custom workload whitelist) is read */
    public PodUnavailableBudgetController(Clock clock, String kruiseNamespace) {
        super(NAME, PodUnavailableBudget.class);
        this.clock = clock;
        this.kruiseNamespace = kruiseNamespace;
    }

    static String kruiseNamespaceFromEnv() {
        String ns = System.getenv(NAMESPACE_ENV);
        return ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(PodUnavailableBudget.class, Pod.class, CloneSet.class,
                dev.kruisevertx.api.apps.v1beta1.StatefulSet.class,
                io.fabric8.kubernetes.api.model.apps.StatefulSet.class, Deployment.class, ReplicaSet.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.PodUnavailableBudgetDeleteGate) || gates.enabled(Feature.PodUnavailableBudgetUpdateGate);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<PodUnavailableBudget> pubs = ctx.cache().resource(PodUnavailableBudget.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        PubTargets targets = new PubTargets(pods, ctx.cache().resource(CloneSet.class),
                ctx.cache().resource(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class),
                ctx.cache().resource(io.fabric8.kubernetes.api.model.apps.StatefulSet.class),
                ctx.cache().resource(Deployment.class), ctx.cache().resource(ReplicaSet.class));
        InPlaceUpdater inPlace = new InPlaceUpdater(RevisionLabels.plain());
        EventRecorder pubEvents = new EventRecorder(ctx.client(), ctx.kube(), clock, "podunavailablebudget-controller",
                PodUnavailableBudget.API_VERSION, PodUnavailableBudget.KIND);
        EventRecorder podEvents = new EventRecorder(ctx.client(), ctx.kube(), clock, "podunavailablebudget-controller",
                "v1", "Pod");
        // A pod event concerns the budgets of its namespace that may select it: O(budgets in the namespace).
        EventMapper<Pod> podToBudgets = (event, queue) -> {
            Pod pod = event.newObject() != null ? event.newObject() : event.oldObject();
            if (pod == null || pod.getMetadata() == null) {
                return;
            }
            for (PodUnavailableBudget pub : pubs.list(pod.getMetadata().getNamespace())) {
                if (PubTargets.mayProtect(pub, pod)
                        || (event.oldObject() != null && PubTargets.mayProtect(pub, event.oldObject()))) {
                    queue.add(Request.of(pub));
                }
            }
        };
        return new Controller(request -> {
            PodUnavailableBudget pub = pubs.get(request.namespace(), request.name());
            if (pub == null) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            // Walks the namespace's pods and may read custom workloads: on a worker, off the event loop.
            List<String> unannotated = new java.util.ArrayList<>();
            int[] podCount = {0};
            return ctx.vertx().executeBlocking(() -> {
                // A custom workload (whitelisted in kruise-configuration) is read from the API server, here.
                PubTargets.Snapshot snapshot = targets.snapshot(pub,
                        new WhitelistedWorkloads(ctx.client(), kruiseNamespace));
                podCount[0] = snapshot.pods().size();
                unannotated.addAll(missingRelatedPub(pub, snapshot.pods()));
                return PubStatusCalculator.calculate(pub, snapshot.pods(), snapshot.expected(),
                        pod -> inPlace.checkCompleted(pod).done(), clock.instant());
            }, false).compose(result -> annotate(ctx, pub, unannotated).map(result)).compose(result -> {
                ctx.plans().record(NAME, request, summary(result));
                PodUnavailableBudgetStatus status = toStatus(pub, result);
                Result next = result.recheckIn() == null ? Result.done()
                        : Result.requeueAfter(result.recheckIn().plus(Duration.ofMillis(100)));
                if (Objects.equals(ApiJson.toJson(pub.status()), ApiJson.toJson(status))) {
                    return Future.succeededFuture(next);
                }
                // Once per status change, not per reconcile: an Event is a write.
                if (podCount[0] == 0) {
                    pubEvents.emit(pub, EventRecorder.NORMAL, "NoPods", "No matching pods found");
                }
                for (String pod : result.expiredDisruptions()) {
                    Pod cached = pods.get(pub.getMetadata().getNamespace(), pod);
                    if (cached != null) {
                        podEvents.emit(cached, EventRecorder.WARNING, "NotDeleted", "Pod was expected by PUB "
                                + pub.getMetadata().getNamespace() + "/" + pub.getMetadata().getName()
                                + " to be deleted but it wasn't");
                    }
                }
                return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(),
                        PodUnavailableBudget.class, pub, live -> live.setStatus(status))).map(written -> next);
            }, e -> {
                if (e instanceof IllegalArgumentException) {
                    // A bad int-or-percent: the budget must change before it can be counted; no retry storm.
                    pubEvents.emit(pub, EventRecorder.WARNING, "CalculateExpectedPodCountFailed",
                            "Failed to calculate the number of expected pods: " + e.getMessage());
                    ctx.plans().record(NAME, request, PlanSummary.builder("invalid budget: " + e.getMessage()).build());
                    return Future.succeededFuture(Result.done());
                }
                return Future.failedFuture(new IllegalStateException("budget " + request.name()
                        + ": cannot calculate the pods it protects: " + e.getMessage()));
            });
        }, List.of(WatchSpec.of(PodUnavailableBudget.class, EventMapper.self()),
                WatchSpec.of(Pod.class, podToBudgets),
                WatchSpec.of(CloneSet.class, workloadToBudgets(pubs, CloneSet.KIND)),
                WatchSpec.of(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class, workloadToBudgets(pubs, "StatefulSet")),
                WatchSpec.of(io.fabric8.kubernetes.api.model.apps.StatefulSet.class, workloadToBudgets(pubs, "StatefulSet")),
                WatchSpec.of(Deployment.class, workloadToBudgets(pubs, "Deployment"))));
    }

    /**
     * The budget's pods that do not name it yet (created before it, or Deployment pods the pod webhook could not
     * place): {@code /validate-pod} only checks pods that carry the annotation.
     */
    static List<String> missingRelatedPub(PodUnavailableBudget pub, List<Pod> pods) {
        String name = pub.getMetadata().getName();
        List<String> out = new java.util.ArrayList<>();
        for (Pod pod : pods) {
            var annotations = Pods.annotations(pod);
            if (!name.equals(annotations.get(WellKnown.PUB_RELATED_ANNOTATION_OLD))
                    || !name.equals(annotations.get(WellKnown.PUB_RELATED_ANNOTATION))) {
                out.add(pod.getMetadata().getName());
            }
        }
        return out;
    }

    /** Writes both related-pub keys on each pod (merge patch: touches nothing else); a pod gone meanwhile is fine. */
    private static Future<Void> annotate(ControllerContext ctx, PodUnavailableBudget pub, List<String> pods) {
        if (pods.isEmpty()) {
            return Future.succeededFuture();
        }
        String ns = pub.getMetadata().getNamespace();
        String name = pub.getMetadata().getName();
        String patch = "{\"metadata\":{\"annotations\":{\"" + WellKnown.PUB_RELATED_ANNOTATION_OLD + "\":"
                + ApiJson.toJson(name) + ",\"" + WellKnown.PUB_RELATED_ANNOTATION + "\":" + ApiJson.toJson(name) + "}}}";
        List<Future<Object>> writes = new java.util.ArrayList<>();
        for (String pod : pods) {
            writes.add(ctx.kube().write(() -> {
                ApiErrors.ignoreNotFound(() -> ctx.client().pods().inNamespace(ns).withName(pod)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch));
                return null;
            }));
        }
        return Future.all(writes).mapEmpty();
    }

    /** A workload's replicas change the count of the budgets naming it (by kind and name). */
    static <T extends HasMetadata> EventMapper<T> workloadToBudgets(CachedResource<PodUnavailableBudget> pubs,
                                                                  String kind) {
        return (event, queue) -> {
            T w = event.newObject() != null ? event.newObject() : event.oldObject();
            if (w == null || w.getMetadata() == null) {
                return;
            }
            for (PodUnavailableBudget pub : pubs.list(w.getMetadata().getNamespace())) {
                var ref = pub.spec().getTargetRef();
                if (ref == null ? pub.spec().getSelector() != null
                        : Objects.equals(ref.getName(), w.getMetadata().getName())
                        && kind.equals(ref.getKind())) {
                    queue.add(Request.of(pub));
                }
            }
        };
    }

    static PodUnavailableBudgetStatus toStatus(PodUnavailableBudget pub, PubStatusCalculator.Result r) {
        PodUnavailableBudgetStatus s = new PodUnavailableBudgetStatus();
        pub.status().getAdditionalProperties().forEach(s::setAdditionalProperty);
        s.setObservedGeneration(pub.getMetadata().getGeneration() == null ? 0 : pub.getMetadata().getGeneration());
        s.setDesiredAvailable(r.desiredAvailable());
        s.setCurrentAvailable(r.currentAvailable());
        s.setUnavailableAllowed(r.unavailableAllowed());
        s.setTotalReplicas(r.totalReplicas());
        s.setDisruptedPods(r.disruptedPods().isEmpty() ? null : r.disruptedPods());
        s.setUnavailablePods(r.unavailablePods().isEmpty() ? null : r.unavailablePods());
        return s;
    }

    static PlanSummary summary(PubStatusCalculator.Result r) {
        return PlanSummary.builder("status")
                .count("desiredAvailable", r.desiredAvailable())
                .count("currentAvailable", r.currentAvailable())
                .count("unavailableAllowed", r.unavailableAllowed())
                .count("totalReplicas", r.totalReplicas())
                .count("disruptedPods", r.disruptedPods().size())
                .count("unavailablePods", r.unavailablePods().size())
                .build();
    }
}
