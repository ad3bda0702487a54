package dev.kruisevertx.sidecarterminator;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestFailurePolicy;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
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
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.vertx.core.Future;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;


/**
 * OpenKruise's sidecarterminator controller (gate SidecarTerminator, alpha, off by default; needs KruiseDaemon): lets
 * a Job-style pod finish when its main containers have ended but its sidecars would run forever
 * ({@link SidecarTerminatorDecision}). Sidecars are stopped through a ContainerRecreateRequest (forceRecreate,
 * failurePolicy Ignore) that the node agent carries out, or, on a virtual-kubelet node, by swapping their image in
 * place.
 */
public final class SidecarTerminatorController extends NamedControllerDefinition {
    public static final String NAME = "sidecarterminator";
    private final Clock clock;

    public SidecarTerminatorController() {
        this(Clock.systemUTC());
    }

    public SidecarTerminatorController(Clock clock) {
        super(NAME, Pod.class);
        this.clock = clock;
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.SidecarTerminator);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(Pod.class, Node.class, ContainerRecreateRequest.class);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        EventRecorder events = new EventRecorder(ctx.client(), ctx.kube(), clock, "sidecarterminator-controller",
                "v1", "Pod");
        EventMapper<Pod> interesting = (event, queue) -> {
            Pod pod = event.newObject();
            if (pod != null && SidecarTerminatorDecision.interesting(pod)) {
                queue.add(Request.of(pod));
            }
        };
        return new Controller(request -> {
            Pod pod = pods.get(request.namespace(), request.name());
            if (pod == null) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            boolean virtual = nodeName != null && SidecarTerminatorDecision.onVirtualKubelet(nodes.get(null, nodeName));
            SidecarTerminatorPlan plan = SidecarTerminatorDecision.decide(pod, virtual);
            if (plan.nothing()) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            ctx.plans().record(NAME, request, plan.debugSummary());
            return swap(ctx, events, pod, plan).compose(v -> mark(ctx, pod, plan)).compose(v -> stop(ctx, events, pod, plan))
                    .map(v -> Result.done());
        }, List.of(WatchSpec.of(Pod.class, interesting)));
    }

    private static Future<Void> swap(ControllerContext ctx, EventRecorder events, Pod pod, SidecarTerminatorPlan plan) {
        if (plan.swapImages().isEmpty()) {
            return Future.succeededFuture();
        }
        return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), pod, ObjectEdits.Part.OBJECT, live -> {
            for (Container c : live.getSpec().getContainers()) {
                String image = plan.swapImages().get(c.getName());
                if (image != null) {
                    c.setImage(image);
                }
            }
            return live;
        })).onSuccess(v -> events.emit(pod, EventRecorder.NORMAL, "SidecarTerminator", "Kruise SidecarTerminator is "
                + "trying to terminate sidecar " + plan.swapImages().keySet() + " using in-place update")).mapEmpty();
    }

    private Future<Void> mark(ControllerContext ctx, Pod pod, SidecarTerminatorPlan plan) {
        if (plan.markPhase() == null) {
            return Future.succeededFuture();
        }
        String now = dev.kruisevertx.podutil.Pods.formatTime(clock.instant());
        return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), pod, ObjectEdits.Part.STATUS, live -> {
            String phase = live.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                return live; // terminal phases never change
            }
            live.getStatus().setPhase(plan.markPhase());
            List<PodCondition> conditions = new ArrayList<>(live.getStatus().getConditions() == null ? List.of()
                    : live.getStatus().getConditions());
            conditions.removeIf(c -> SidecarTerminatorDecision.CONDITION.equals(c.getType()));
            conditions.add(new PodConditionBuilder().withType(SidecarTerminatorDecision.CONDITION).withStatus("True")
                    .withLastTransitionTime(now).withMessage("Terminated by Sidecar Terminator").build());
            live.getStatus().setConditions(conditions);
            return live;
        })).mapEmpty();
    }

    private static Future<Void> stop(ControllerContext ctx, EventRecorder events, Pod pod, SidecarTerminatorPlan plan) {
        if (plan.stop().isEmpty()) {
            return Future.succeededFuture();
        }
        ContainerRecreateRequest crr = crrFor(pod, plan.stop());
        return ctx.kube().write(() -> ApiErrors.ignoringAlreadyExists(() -> ctx.client().resource(crr).create()))
                .onSuccess(created -> {
                    if (created != null) {
                        events.emit(pod, EventRecorder.NORMAL, "SidecarTerminator", "Kruise SidecarTerminator is "
                                + "trying to terminate sidecar " + plan.stop() + " using crr");
                    }
                }).mapEmpty();
    }

    /** The CRR OpenKruise creates: owned by the pod, forceRecreate, failurePolicy Ignore. */
    static ContainerRecreateRequest crrFor(Pod pod, List<String> sidecars) {
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withNamespace(pod.getMetadata().getNamespace())
                .withName(SidecarTerminatorDecision.crrName(pod))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod")
                        .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid()).withController(true)
                        .withBlockOwnerDeletion(true).build()).build());
        ContainerRecreateRequestSpec spec = new ContainerRecreateRequestSpec();
        spec.setPodName(pod.getMetadata().getName());
        List<ContainerRecreateRequestContainer> containers = new ArrayList<>();
        for (String name : sidecars) {
            ContainerRecreateRequestContainer c = new ContainerRecreateRequestContainer();
            c.setName(name);
            containers.add(c);
        }
        spec.setContainers(containers);
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setForceRecreate(true);
        strategy.setFailurePolicy(ContainerRecreateRequestFailurePolicy.IGNORE.value());
        spec.setStrategy(strategy);
        crr.setSpec(spec);
        return crr;
    }

}
