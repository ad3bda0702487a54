package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateStatus;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
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
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.workloadspread.CustomWorkloadWatches;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.vertx.core.Future;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * OpenKruise's persistentpodstate controller: records in each PersistentPodState's status the node topology and
 * chosen annotations of the target StatefulSet's (apps/v1 or Advanced) ready pods ({@link PodStateRecording}), drops
 * the states of scaled-away pods ({@code WhenScaled}) or all of them once the workload goes, and creates, updates and
 * deletes the PersistentPodStates the workloads' annotations ask for ({@link AutoGeneration}; requests named
 * {@code generate#apiVersion#kind#name}, as OpenKruise names them).
 */
public final class PersistentPodStateController extends NamedControllerDefinition {
    public static final String NAME = "persistentpodstate";

    private final String kruiseNamespace;

    public PersistentPodStateController() {
        this(kruiseNamespaceFromEnv());
    }

    /** @param kruiseNamespace where ConfigMap {@code kruise-configuration} (custom workload whitelist) is read */
    public PersistentPodStateController(String kruiseNamespace) {
        super(NAME, PersistentPodState.class);
        this.kruiseNamespace = kruiseNamespace;
    }

    static String kruiseNamespaceFromEnv() {
        String ns = System.getenv("POD_NAMESPACE");
        return ns == null || ns.isEmpty() ? "kruise-system" : ns;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(PersistentPodState.class, Pod.class, Node.class, StatefulSet.class,
                dev.kruisevertx.api.apps.v1beta1.StatefulSet.class);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<PersistentPodState> ppss = ctx.cache().resource(PersistentPodState.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        CachedResource<StatefulSet> stses = ctx.cache().resource(StatefulSet.class);
        CachedResource<dev.kruisevertx.api.apps.v1beta1.StatefulSet> asts =
                ctx.cache().resource(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class);
        // Whitelisted custom kinds (PPS_Watch_Custom_Workload_WhiteList): the ConfigMap is watched by name and each
        // kind gets the shared cache's informer for it, as WorkloadSpread's whitelist is followed.
        CustomWorkloadWatches custom = new CustomWorkloadWatches(ctx.client(), ctx.cache(), ctx.vertx(),
                kruiseNamespace, WellKnown.PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY, "PersistentPodState",
                (group, kind) -> !PpsWorkloads.supported(group.isEmpty() ? "v1" : group + "/v1", kind, null),
                w -> workloadEvents(ppss, apiVersion(w), w.kind()),
                (kind, queue) -> enqueueCustomTargets(ppss, kind, queue));
        Targets targets = new Targets(stses, asts, custom);
        return new Controller(request -> {
            TargetReference generate = AutoGeneration.parseRequestName(request.name());
            if (generate != null) {
                return ctx.vertx().executeBlocking(() -> targets.find(request.namespace(), generate), false)
                        .compose(w -> generate(ctx, ppss, w, generate, request), t -> {
                            // A custom kind's whitelist or informer not ready: its events enqueue the request again.
                            ctx.plans().record(NAME, request, PlanSummary.of("skipped: " + t.getMessage()));
                            return Future.succeededFuture(Result.done());
                        });
            }
            PersistentPodState pps = ppss.get(request.namespace(), request.name());
            if (pps == null) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            // Walks the workload's pods: on a worker.
            return ctx.vertx().executeBlocking(() -> {
                try {
                    return record(pps, targets, pods, nodes);
                } catch (IllegalArgumentException e) {
                    // Waiting for the whitelist or a custom kind's informer, or a malformed entry: keep the states.
                    return null;
                }
            }, false).compose(plan -> {
                if (plan == null) {
                    ctx.plans().record(NAME, request, PlanSummary.of("skipped: custom workload not readable yet"));
                    return Future.succeededFuture(Result.done());
                }
                ctx.plans().record(NAME, request, PlanSummary.builder(plan.reason()).build());
                return writeStatus(ctx, pps, plan.status());
            });
        }, List.of(WatchSpec.of(PersistentPodState.class, EventMapper.self()),
                WatchSpec.of(Pod.class, podToState(ppss, custom::current)),
                WatchSpec.of(StatefulSet.class, workloadEvents(ppss, "apps/v1", "StatefulSet")),
                WatchSpec.of(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class,
                        workloadEvents(ppss, "apps.kruise.io/v1beta1", "StatefulSet"))), custom);
    }

    private static String apiVersion(CustomWorkloadWhiteList.Workload w) {
        return w.group().isEmpty() ? w.version() : w.group() + "/" + w.version();
    }

    /** Enqueues the PersistentPodStates whose target is a custom kind ({@code kind}, or any when null). */
    static void enqueueCustomTargets(CachedResource<PersistentPodState> ppss, String kind,
                                     dev.kruisevertx.controller.Enqueuer queue) {
        for (PersistentPodState pps : ppss.list()) {
            TargetReference ref = pps.spec().targetRef();
            if (ref != null && !PpsWorkloads.supported(ref.getApiVersion(), ref.getKind(), null)
                    && (kind == null || Objects.equals(kind, ref.getKind()))) {
                queue.add(Request.of(pps));
            }
        }
    }

    /** The target workloads: StatefulSets from their typed informers, whitelisted kinds from their generic ones. */
    record Targets(CachedResource<StatefulSet> stses,
                   CachedResource<dev.kruisevertx.api.apps.v1beta1.StatefulSet> asts, CustomWorkloadWatches custom) {
        /**
         * Null when gone or neither a StatefulSet nor whitelisted.
         *
         * @throws IllegalArgumentException while the whitelist or the kind's informer is not ready, or the entry is
         *                                  malformed
         */
        HasMetadata find(String namespace, TargetReference ref) {
            HasMetadata sts = workload(stses, asts, namespace, ref);
            if (sts != null || ref.getName() == null
                    || PpsWorkloads.supported(ref.getApiVersion(), ref.getKind(), null)) {
                return sts;
            }
            Optional<String> group = PpsWorkloads.group(ref.getApiVersion());
            if (group.isEmpty() || !custom.get().permits(group.get(), ref.getKind() == null ? "" : ref.getKind())) {
                return null;
            }
            return custom.get(namespace, ref.getApiVersion(), ref.getKind(), ref.getName());
        }
    }

    /** The snapshot and the pure decision for one PersistentPodState. */
    static PodStateRecording.Plan record(PersistentPodState pps, Targets targets, CachedResource<Pod> pods,
                                         CachedResource<Node> nodes) {
        TargetReference ref = pps.spec().targetRef();
        String ns = pps.getMetadata().getNamespace();
        HasMetadata target = targets.find(ns, ref);
        PodStateRecording.Workload workload = null;
        Map<String, Pod> owned = new LinkedHashMap<>();
        if (target != null) {
            workload = target instanceof GenericKubernetesResource g ? PpsWorkloads.customWorkload(g)
                    : new PodStateRecording.Workload(inReplicas(target),
                    target.getMetadata().getDeletionTimestamp() != null);
            for (Pod p : pods.controlledBy(target.getMetadata().getUid())) {
                owned.put(p.getMetadata().getName(), p);
            }
        }
        return PodStateRecording.decide(pps, workload, owned, name -> {
            Node node = nodes.get(null, name);
            return node == null ? null : Pods.labels(node);
        });
    }

    /**
     * The target workload from the cache: an apps/v1 or apps.kruise.io StatefulSet (any version of the group), null
     * when it does not exist or is of another kind (whitelisted custom kinds: {@link Targets}).
     */
    static HasMetadata workload(CachedResource<StatefulSet> stses,
                                CachedResource<dev.kruisevertx.api.apps.v1beta1.StatefulSet> asts, String namespace,
                                TargetReference ref) {
        if (!"StatefulSet".equals(ref.getKind()) || ref.getName() == null) {
            return null;
        }
        Optional<String> group = PpsWorkloads.group(ref.getApiVersion());
        if (group.isEmpty()) {
            return null;
        }
        return switch (group.get()) {
            case "apps" -> stses.get(namespace, ref.getName());
            case "apps.kruise.io" -> asts.get(namespace, ref.getName());
            default -> null;
        };
    }

    /**
     * The ordinals a workload keeps at its size: replicas from ordinals.start, reserved ordinals skipped (Advanced
     * StatefulSet). OpenKruise counts from 0 whatever ordinals.start says; a pod above start+replicas would lose its
     * state there on deletion.
     */
    static java.util.function.IntPredicate inReplicas(HasMetadata target) {
        if (target instanceof dev.kruisevertx.api.apps.v1beta1.StatefulSet a) {
            var spec = a.getSpec();
            int replicas = spec == null || spec.getReplicas() == null ? 1 : spec.getReplicas();
            int start = spec == null || spec.getOrdinals() == null ? 0 : spec.getOrdinals().getStart();
            try {
                DesiredOrdinals ordinals = DesiredOrdinals.of(replicas, start,
                        spec == null ? null : spec.getReserveOrdinals());
                return ordinals::contains;
            } catch (IllegalArgumentException e) {
                // Reserved ordinals the StatefulSet controller refuses too: keep every state rather than guess.
                return i -> true;
            }
        }
        StatefulSet s = (StatefulSet) target;
        int replicas = s.getSpec() == null || s.getSpec().getReplicas() == null ? 1 : s.getSpec().getReplicas();
        int start = s.getSpec() == null || s.getSpec().getOrdinals() == null
                || s.getSpec().getOrdinals().getStart() == null ? 0 : s.getSpec().getOrdinals().getStart();
        return i -> i >= start && (long) i < (long) start + replicas;
    }

    /**
     * A pod that became ready, started terminating, or is gone: the PersistentPodState it was injected from, else
     * the one of its controller (OpenKruise's enqueueRequestForPod). O(PersistentPodStates of the namespace).
     */
    static EventMapper<Pod> podToState(CachedResource<PersistentPodState> ppss,
                                       java.util.function.Supplier<CustomWorkloadWhiteList> whiteList) {
        return (event, queue) -> {
            Pod pod = event.type() == CacheEvent.Type.DELETED ? event.oldObject() : event.newObject();
            if (pod == null || event.type() == CacheEvent.Type.ADDED) {
                return;
            }
            if (event.type() == CacheEvent.Type.UPDATED) {
                Pod old = event.oldObject();
                boolean nowReady = !Pods.isReady(old) && Pods.isReady(pod);
                boolean nowDeleting = old.getMetadata().getDeletionTimestamp() == null
                        && pod.getMetadata().getDeletionTimestamp() != null;
                if (!nowReady && !nowDeleting) {
                    return;
                }
            }
            Optional<OwnerReference> owner = Pods.controllerOf(pod);
            if (owner.isEmpty() || !PpsWorkloads.supported(owner.get().getApiVersion(), owner.get().getKind(),
                    whiteList.get())) {
                return;
            }
            String ns = pod.getMetadata().getNamespace();
            String injected = Pods.annotations(pod).get(PersistentPodState.INJECTED_ANNOTATION);
            if (injected != null && ppss.get(ns, injected) != null) {
                queue.add(new Request(ns, injected));
                return;
            }
            PpsWorkloads.select(ppss.list(ns), new TargetReference(owner.get().getApiVersion(), owner.get().getKind(),
                    owner.get().getName())).ifPresent(p -> queue.add(Request.of(p)));
        };
    }

    /**
     * A workload created with (or changed to or from) the generation annotations: its generation request; one
     * starting to be deleted or gone: its PersistentPodState, whose states are then dropped.
     */
    static <T extends HasMetadata> EventMapper<T> workloadEvents(CachedResource<PersistentPodState> ppss,
                                                                  String apiVersion, String kind) {
        return (event, queue) -> {
            T now = event.newObject();
            T before = event.oldObject();
            switch (event.type()) {
                case ADDED -> {
                    if (AutoGeneration.wanted(now)) {
                        queue.add(new Request(now.getMetadata().getNamespace(),
                                AutoGeneration.requestName(apiVersion, kind, now.getMetadata().getName())));
                    }
                }
                case UPDATED -> {
                    if (AutoGeneration.annotationsChanged(before, now)) {
                        queue.add(new Request(now.getMetadata().getNamespace(),
                                AutoGeneration.requestName(apiVersion, kind, now.getMetadata().getName())));
                    }
                    if (before.getMetadata().getDeletionTimestamp() == null
                            && now.getMetadata().getDeletionTimestamp() != null) {
                        enqueueStateOf(ppss, now, apiVersion, kind, queue);
                    }
                }
                case DELETED -> enqueueStateOf(ppss, before, apiVersion, kind, queue);
            }
        };
    }

    private static void enqueueStateOf(CachedResource<PersistentPodState> ppss, HasMetadata workload,
                                       String apiVersion, String kind, dev.kruisevertx.controller.Enqueuer queue) {
        PpsWorkloads.select(ppss.list(workload.getMetadata().getNamespace()), new TargetReference(apiVersion, kind,
                workload.getMetadata().getName())).ifPresent(p -> queue.add(Request.of(p)));
    }

    private Future<Result> generate(ControllerContext ctx, CachedResource<PersistentPodState> ppss,
                                    HasMetadata workload, TargetReference ref, Request request) {
        String ns = request.namespace();
        PersistentPodState existing = ppss.get(ns, ref.getName());
        AutoGeneration.Decision d = AutoGeneration.decide(workload, ref.getApiVersion(), ref.getKind(), existing);
        ctx.plans().record(NAME, request, PlanSummary.of(d.action() + ": " + d.reason()));
        return switch (d.action()) {
            case NONE -> Future.succeededFuture(Result.done());
            case CREATE -> ctx.kube().write(() -> {
                ApiErrors.ignoringAlreadyExists(() -> ctx.client().resource(d.desired()).create());
                return Result.done();
            });
            case UPDATE -> ctx.kube().write(() -> {
                PersistentPodState copy = ApiJson.serialization().clone(existing);
                copy.setSpec(d.desired().getSpec());
                ctx.client().resource(copy).update();
                return Result.done();
            });
            case DELETE -> ctx.kube().write(() -> {
                ApiErrors.ignoringNotFound(() -> ctx.client().resource(existing).delete());
                return Result.done();
            });
        };
    }

    private static Future<Result> writeStatus(ControllerContext ctx, PersistentPodState pps,
                                              PersistentPodStateStatus status) {
        if (Objects.equals(ApiJson.toJson(pps.getStatus()), ApiJson.toJson(status))) {
            return Future.succeededFuture(Result.done());
        }
        return ctx.kube().write(() -> {
            PersistentPodState copy = ApiJson.serialization().clone(pps);
            copy.setStatus(status);
            ctx.client().resource(copy).updateStatus();
            return Result.done();
        });
    }
}
