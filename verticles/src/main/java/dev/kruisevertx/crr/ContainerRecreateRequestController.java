package dev.kruisevertx.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.podutil.KruisePodReadiness;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenKruise's containerrecreaterequest controller (gate KruiseDaemon): the manager's half of container
 * recreation, deciding with {@link CrrDecision} and writing the steps in order. The node agent does the recreation.
 */
public final class ContainerRecreateRequestController extends NamedControllerDefinition {
    public static final String NAME = "containerrecreaterequest";
    /** Cache index of requests by {@code namespace/podName}, so pod events reach their requests. */
    public static final String POD_INDEX = "crr-pod";
    /** The user agent of the not-ready reason this controller puts on pods. */
    public static final String READINESS_USER_AGENT = "ContainerRecreateRequest";

    public ContainerRecreateRequestController() {
        super(NAME, ContainerRecreateRequest.class);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(ContainerRecreateRequest.class, Pod.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.KruiseDaemon);
    }

    @Override
    public void registerIndexes(WatchCache cache) {
        cache.addIndex(ContainerRecreateRequest.class, POD_INDEX,
                crr -> List.of(crr.getMetadata().getNamespace() + "/" + crr.spec().getPodName()));
    }

    /** The not-ready reason of one request, {@code {"userAgent":"ContainerRecreateRequest","key":"ns/name"}}. */
    public static KruisePodReadiness.Message readinessMessage(ContainerRecreateRequest crr) {
        return new KruisePodReadiness.Message(READINESS_USER_AGENT,
                crr.getMetadata().getNamespace() + "/" + crr.getMetadata().getName());
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<ContainerRecreateRequest> crrs = ctx.cache().resource(ContainerRecreateRequest.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        EventMapper<Pod> podToRequests = (event, queue) -> {
            Pod pod = event.object();
            if (pod == null) {
                return;
            }
            for (ContainerRecreateRequest crr : crrs.byIndex(POD_INDEX,
                    pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName())) {
                queue.add(Request.of(crr));
            }
        };
        Writer writer = new Writer(ctx.client());
        return new Controller(request -> {
            ContainerRecreateRequest crr = crrs.get(request.namespace(), request.name());
            if (crr == null) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            Pod pod = pods.get(request.namespace(), crr.spec().getPodName());
            CrrPlan plan = CrrDecision.decide(crr, pod, Instant.now());
            ctx.plans().record(NAME, request, plan.debugSummary());
            Future<Void> written = plan.isEmpty() ? Future.succeededFuture()
                    : ctx.kube().write(() -> {
                        writer.apply(crr, pod, plan);
                        return null;
                    });
            return written.map(v -> plan.requeueAfter() == null ? Result.done() : Result.requeueAfter(plan.requeueAfter()));
        }, List.of(WatchSpec.of(ContainerRecreateRequest.class, EventMapper.self()),
                WatchSpec.of(Pod.class, podToRequests)));
    }

    /** Carries out a plan's steps with blocking API calls (run on the API worker pool). */
    static final class Writer {
        private final KubernetesClient client;

        Writer(KubernetesClient client) {
            this.client = client;
        }

        void apply(ContainerRecreateRequest crr, Pod pod, CrrPlan plan) {
            for (CrrPlan.Step step : plan.steps()) {
                switch (step.kind()) {
                    case RELEASE_UNREADY -> releaseUnready(crr, pod);
                    case DROP_ACTIVE_LABEL -> mergePatch(crr, Map.of("metadata",
                            Map.of("labels", nullValue(WellKnown.CRR_ACTIVE_LABEL))), false);
                    case DELETE -> request(crr).delete();
                    case COMPLETE -> {
                        Map<String, Object> status = new LinkedHashMap<>();
                        status.put("phase", ContainerRecreateRequestPhase.COMPLETED.value());
                        status.put("completionTime", Pods.formatTime(Instant.now()));
                        status.put("message", step.message());
                        mergePatch(crr, Map.of("status", status), true);
                    }
                    case SYNC_STATUSES -> mergePatch(crr, Map.of("metadata", Map.of("annotations",
                            Map.of(WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION, step.syncStatuses()))), false);
                    case ACQUIRE_UNREADY -> acquireUnready(crr, pod);
                    default -> throw new IllegalStateException("unknown step " + step.kind());
                }
            }
        }

        private static Map<String, Object> nullValue(String key) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(key, null);
            return m;
        }

        private Resource<ContainerRecreateRequest> request(ContainerRecreateRequest crr) {
            return client.resources(ContainerRecreateRequest.class).inNamespace(crr.getMetadata().getNamespace())
                    .withName(crr.getMetadata().getName());
        }

        private void mergePatch(ContainerRecreateRequest crr, Map<String, Object> body, boolean status) {
            String json = ApiJson.toJson(body);
            ApiErrors.ignoreNotFound(() -> {
                if (status) {
                    request(crr).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), json);
                } else {
                    request(crr).patch(PatchContext.of(PatchType.JSON_MERGE), json);
                }
            });
        }

        // Order as OpenKruise: finalizer first (so the readiness is always given back), then the pod, then the
        // annotation the node agent waits for.
        private void acquireUnready(ContainerRecreateRequest crr, Pod pod) {
            if (KruisePodReadiness.hasGate(pod)) {
                if (!CrrDecision.hasFinalizer(crr)) {
                    request(crr).edit(live -> {
                        List<String> finalizers = new ArrayList<>(live.getMetadata().getFinalizers() == null
                                ? List.of() : live.getMetadata().getFinalizers());
                        if (!finalizers.contains(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER)) {
                            finalizers.add(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
                        }
                        live.getMetadata().setFinalizers(finalizers);
                        return live;
                    });
                }
                client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                        .editStatus(live -> KruisePodReadiness.addNotReadyKey(live, readinessMessage(crr), Instant.now()));
            }
            mergePatch(crr, Map.of("metadata", Map.of("annotations",
                    Map.of(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER, Pods.formatTime(Instant.now())))), false);
        }

        private void releaseUnready(ContainerRecreateRequest crr, Pod pod) {
            if (pod != null && pod.getMetadata().getDeletionTimestamp() == null && KruisePodReadiness.hasGate(pod)) {
                ObjectEdits.edit(client, pod, ObjectEdits.Part.STATUS,
                        live -> KruisePodReadiness.removeNotReadyKey(live, readinessMessage(crr), Instant.now()));
            }
            ObjectEdits.edit(client, crr, ObjectEdits.Part.OBJECT, live -> withFinalizer(live, false));
        }

        private static ContainerRecreateRequest withFinalizer(ContainerRecreateRequest crr, boolean present) {
            List<String> finalizers = new ArrayList<>(crr.getMetadata().getFinalizers() == null
                    ? List.of() : crr.getMetadata().getFinalizers());
            if (present && !finalizers.contains(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER)) {
                finalizers.add(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
            } else if (!present) {
                finalizers.remove(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
            }
            crr.getMetadata().setFinalizers(finalizers);
            return crr;
        }
    }
}
