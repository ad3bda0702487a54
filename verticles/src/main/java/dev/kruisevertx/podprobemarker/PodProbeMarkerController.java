package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
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
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * OpenKruise's podprobemarker controller (gate PodProbeMarkerGate): keeps the finalizer
 * {@value PodProbeMarker#FINALIZER} on each marker, writes its probes into the NodePodProbe of every node running one
 * of its pods (creating the NodePodProbe if the nodepodprobe controller has not yet), marks serverless pods, keeps
 * {@code status.matchedPods}, and on deletion takes its probes out of every NodePodProbe before the finalizer goes.
 */
public final class PodProbeMarkerController extends NamedControllerDefinition {
    public static final String NAME = "podprobemarker";

    public PodProbeMarkerController() {
        super(NAME, PodProbeMarker.class);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(PodProbeMarker.class, Pod.class, Node.class, NodePodProbe.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.PodProbeMarkerGate);
    }

    /** A pod event matters to markers when the pod appears, goes, or changes what the decision reads. */
    static boolean relevant(Pod oldPod, Pod newPod) {
        if (oldPod == null || newPod == null) {
            return true;
        }
        return !Objects.equals(Pods.labels(oldPod), Pods.labels(newPod))
                || Pods.isActive(oldPod) != Pods.isActive(newPod)
                || Pods.conditionTrue(oldPod, "Initialized") != Pods.conditionTrue(newPod, "Initialized")
                || !Objects.equals(oldPod.getSpec().getNodeName(), newPod.getSpec().getNodeName())
                || !Objects.equals(oldPod.getStatus() == null ? null : oldPod.getStatus().getPodIP(),
                newPod.getStatus() == null ? null : newPod.getStatus().getPodIP())
                || !Objects.equals(oldPod.getStatus() == null ? null : oldPod.getStatus().getConditions(),
                newPod.getStatus() == null ? null : newPod.getStatus().getConditions());
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<PodProbeMarker> ppms = ctx.cache().resource(PodProbeMarker.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        CachedResource<NodePodProbe> npps = ctx.cache().resource(NodePodProbe.class);
        boolean serverless = ctx.gates().enabled(Feature.EnablePodProbeMarkerOnServerless);
        EventMapper<Pod> podToMarkers = (event, queue) -> {
            Pod pod = event.object();
            if (pod == null || !relevant(event.oldObject(), event.newObject())) {
                return;
            }
            // Markers of a namespace are few; each is matched by its selector.
            for (PodProbeMarker ppm : ppms.list(pod.getMetadata().getNamespace())) {
                if (ppm.spec().getSelector() != null
                        && LabelSelectors.matches(ppm.spec().getSelector(), Pods.labels(pod))) {
                    queue.add(Request.of(ppm));
                }
            }
        };
        KubernetesClient client = ctx.client();
        return new Controller(request -> {
            PodProbeMarker ppm = ppms.get(request.namespace(), request.name());
            if (ppm == null) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            // The walk over the namespace's pods and every NodePodProbe grows with the cluster: a worker thread.
            return ctx.vertx().<Decided>executeBlocking(() -> {
                List<Pod> namespacePods = pods.list(request.namespace());
                PodProbeMarkerPlan plan = PodProbeMarkerDecision.decide(ppm, namespacePods,
                        n -> nodes.get(null, n), npps.list(), serverless);
                return new Decided(plan, namespacePods);
            }, false).compose(decided -> {
                PodProbeMarkerPlan plan = decided.plan();
                ctx.plans().record(NAME, request, plan.debugSummary());
                if (plan.isEmpty()) {
                    return Future.succeededFuture(Result.done());
                }
                return ctx.kube().write(() -> {
                    apply(client, ppm, plan, decided.pods(), npps);
                    return Result.done();
                });
            });
        }, List.of(WatchSpec.of(PodProbeMarker.class, EventMapper.self()), WatchSpec.of(Pod.class, podToMarkers),
                WatchSpec.of(NodePodProbe.class, nodePodProbeToMarkers())));
    }

    /**
     * Another writer changing a NodePodProbe's spec (say, dropping a pod's probes) brings the markers it named back
     * to correct it; OpenKruise waits for the next pod or marker event. Bounded by the pods of one node; status-only
     * updates (the prober's results) cost one comparison.
     */
    static EventMapper<NodePodProbe> nodePodProbeToMarkers() {
        return (event, queue) -> {
            NodePodProbe old = event.oldObject();
            NodePodProbe now = event.newObject();
            if (old == null || now == null || java.util.Objects.equals(old.getSpec(), now.getSpec())) {
                return;
            }
            java.util.Set<Request> markers = new java.util.HashSet<>();
            for (NodePodProbe npp : List.of(old, now)) {
                for (var podProbe : npp.podProbes()) {
                    for (var probe : podProbe.getProbes() == null ? List.<dev.kruisevertx.api.apps.v1alpha1.ContainerProbe>of()
                            : podProbe.getProbes()) {
                        int hash = probe.getName() == null ? -1 : probe.getName().indexOf('#');
                        if (hash > 0) {
                            markers.add(new Request(podProbe.getNamespace(), probe.getName().substring(0, hash)));
                        }
                    }
                }
            }
            markers.forEach(queue::add);
        };
    }

    private record Decided(PodProbeMarkerPlan plan, List<Pod> pods) {
    }

    /** Carries out a plan with blocking API calls (on the API worker pool). */
    static void apply(KubernetesClient client, PodProbeMarker ppm, PodProbeMarkerPlan plan, List<Pod> namespacePods,
                      CachedResource<NodePodProbe> npps) {
        String ns = ppm.getMetadata().getNamespace();
        String name = ppm.getMetadata().getName();
        if (plan.addFinalizer()) {
            ObjectEdits.edit(client, ppm, ObjectEdits.Part.OBJECT, live -> withFinalizer(live, true));
        }
        for (PodProbeMarkerPlan.NodeWrite write : plan.nodeWrites()) {
            if (write.create()) {
                NodePodProbe npp = new NodePodProbe();
                npp.setMetadata(new ObjectMetaBuilder().withName(write.node()).build());
                npp.setSpec(write.spec());
                // Created meanwhile by the nodepodprobe controller: the 409 requeues, the next pass updates it.
                client.resources(NodePodProbe.class).resource(npp).create();
                continue;
            }
            UnaryOperator<NodePodProbeSpec> recompute = plan.removeFinalizer()
                    ? spec -> NodePodProbeSpecs.withoutMarker(spec, ns, name)
                    : spec -> NodePodProbeSpecs.withMarker(spec, ppm, podsOn(namespacePods, write.node(), ppm));
            ObjectEdits.edit(client, NodePodProbe.class, npps.get(null, write.node()), null, write.node(),
                    ObjectEdits.Part.OBJECT, live -> {
                        live.setSpec(recompute.apply(live.getSpec()));
                        return live;
                    }, ObjectEdits.DEFAULT_ATTEMPTS);
        }
        for (PodProbeMarkerPlan.PodMarks marks : plan.serverlessMarks()) {
            Map<String, Object> metadata = new LinkedHashMap<>();
            if (!marks.labels().isEmpty()) {
                metadata.put("labels", marks.labels());
            }
            if (!marks.annotations().isEmpty()) {
                metadata.put("annotations", marks.annotations());
            }
            ApiErrors.ignoreNotFound(() -> client.pods().inNamespace(marks.namespace()).withName(marks.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), ApiJson.toJson(Map.of("metadata", metadata))));
        }
        if (plan.status() != null) {
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("observedGeneration", plan.status().observedGeneration());
            status.put("matchedPods", plan.status().matchedPods());
            ApiErrors.ignoreNotFound(() -> client.resources(PodProbeMarker.class).inNamespace(ns).withName(name)
                    .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                            ApiJson.toJson(Map.of("status", status))));
        }
        if (plan.removeFinalizer()) {
            ObjectEdits.edit(client, ppm, ObjectEdits.Part.OBJECT, live -> withFinalizer(live, false));
        }
    }

    /** The marker's pods on one node, as the decision picked them (matching, active, Initialized). */
    static List<Pod> podsOn(List<Pod> namespacePods, String node, PodProbeMarker ppm) {
        List<Pod> out = new ArrayList<>();
        for (Pod pod : namespacePods) {
            if (node.equals(pod.getSpec().getNodeName()) && Pods.isActive(pod)
                    && Pods.conditionTrue(pod, "Initialized") && ppm.spec().getSelector() != null
                    && LabelSelectors.matches(ppm.spec().getSelector(), Pods.labels(pod))) {
                out.add(pod);
            }
        }
        return out;
    }

    static PodProbeMarker withFinalizer(PodProbeMarker ppm, boolean present) {
        List<String> finalizers = new ArrayList<>(ppm.getMetadata().getFinalizers() == null ? List.of()
                : ppm.getMetadata().getFinalizers());
        if (present && !finalizers.contains(PodProbeMarker.FINALIZER)) {
            finalizers.add(PodProbeMarker.FINALIZER);
        } else if (!present) {
            finalizers.remove(PodProbeMarker.FINALIZER);
        }
        ppm.getMetadata().setFinalizers(finalizers);
        return ppm;
    }
}
