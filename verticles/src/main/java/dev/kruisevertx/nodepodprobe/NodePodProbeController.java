package dev.kruisevertx.nodepodprobe;

import dev.kruisevertx.api.apps.v1alpha1.NodePodProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbe;
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
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * OpenKruise's nodepodprobe controller (gates PodProbeMarkerGate and KruiseDaemon): one NodePodProbe per node
 * (created with the node, deleted with it), entries of gone pods dropped, and the node agent's results written to the
 * pods ({@link NodePodProbeDecision}). Conditions go through the status subresource and labels/annotations through a
 * merge patch of the pod (OpenKruise writes both with one status update, which drops the metadata change on a real
 * API server: its issue 1597).
 */
public final class NodePodProbeController extends NamedControllerDefinition {
    public static final String NAME = "nodepodprobe";

    public NodePodProbeController() {
        super(NAME, NodePodProbe.class);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(NodePodProbe.class, Node.class, Pod.class, PodProbeMarker.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.PodProbeMarkerGate) && gates.enabled(Feature.KruiseDaemon);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<NodePodProbe> npps = ctx.cache().resource(NodePodProbe.class);
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        CachedResource<PodProbeMarker> markers = ctx.cache().resource(PodProbeMarker.class);
        EventMapper<Node> nodeToProbe = (event, queue) -> {
            Node node = event.object();
            if (node != null && (event.oldObject() == null || event.newObject() == null
                    || event.newObject().getMetadata().getDeletionTimestamp() != null)) {
                queue.add(new Request("", node.getMetadata().getName()));
            }
        };
        EventMapper<Pod> podToProbe = (event, queue) -> {
            Pod pod = event.object();
            if (pod == null || !Pods.isAssigned(pod)) {
                return;
            }
            boolean gone = event.newObject() == null || (event.oldObject() != null
                    && Pods.isActive(event.oldObject()) != Pods.isActive(event.newObject()));
            NodePodProbe npp = npps.get(null, pod.getSpec().getNodeName());
            if (gone && npp != null && !npp.podProbes().isEmpty()) {
                queue.add(new Request("", pod.getSpec().getNodeName()));
            }
        };
        KubernetesClient client = ctx.client();
        return new Controller(request -> {
            String name = request.name();
            NodePodProbe npp = npps.get(null, name);
            NodePodProbePlan plan = NodePodProbeDecision.decide(name, npp, nodes.get(null, name), pods::get,
                    markers::get);
            ctx.plans().record(NAME, request, plan.debugSummary());
            if (plan.isEmpty()) {
                if (npp == null) {
                    ctx.plans().forget(NAME, request);
                }
                return Future.succeededFuture(Result.done());
            }
            return ctx.kube().write(() -> {
                apply(client, name, npp, plan, pods);
                return Result.done();
            });
        }, List.of(WatchSpec.of(NodePodProbe.class, EventMapper.self()), WatchSpec.of(Node.class, nodeToProbe),
                WatchSpec.of(Pod.class, podToProbe)));
    }

    /** Carries out a plan with blocking API calls (on the API worker pool). */
    static void apply(KubernetesClient client, String name, NodePodProbe cached, NodePodProbePlan plan,
                      CachedResource<Pod> pods) throws Exception {
        var resource = client.resources(NodePodProbe.class).withName(name);
        if (plan.create()) {
            NodePodProbe npp = new NodePodProbe();
            npp.setMetadata(new ObjectMetaBuilder().withName(name).build());
            ApiErrors.ignoringAlreadyExists(() -> client.resources(NodePodProbe.class).resource(npp).create());
            return;
        }
        if (plan.delete()) {
            ApiErrors.ignoreNotFound(resource::delete);
            return;
        }
        if (plan.spec() != null) {
            Set<String> keptUids = new HashSet<>();
            for (PodProbe p : plan.spec().getPodProbes() == null ? List.<PodProbe>of() : plan.spec().getPodProbes()) {
                keptUids.add(p.getUid());
            }
            Set<String> dropped = new HashSet<>();
            for (PodProbe p : cached.podProbes()) {
                if (!keptUids.contains(p.getUid())) {
                    dropped.add(p.getUid());
                }
            }
            // Entries added meanwhile (by the podprobemarker controller) are kept: only the gone pods are dropped.
            ObjectEdits.edit(client, NodePodProbe.class, cached, null, name, ObjectEdits.Part.OBJECT, live -> {
                List<PodProbe> left = new ArrayList<>();
                for (PodProbe p : live.podProbes()) {
                    if (!dropped.contains(p.getUid())) {
                        left.add(p);
                    }
                }
                live.getSpec().setPodProbes(left.isEmpty() ? null : left);
                return live;
            }, ObjectEdits.DEFAULT_ATTEMPTS);
        }
        for (NodePodProbePlan.PodUpdate update : plan.podUpdates()) {
            Pod pod = pods.get(update.namespace(), update.name());
            if (pod == null || !Objects.equals(pod.getMetadata().getUid(), update.uid())) {
                continue;
            }
            if (!update.conditions().isEmpty()) {
                ObjectEdits.edit(client, pod, ObjectEdits.Part.STATUS, live -> {
                    if (!Objects.equals(live.getMetadata().getUid(), update.uid())) {
                        return null;
                    }
                    update.conditions().forEach(c -> setConditionIfMessageChanged(live, c));
                    return live;
                });
            }
            if (update.metadataChanges()) {
                Map<String, Object> metadata = new LinkedHashMap<>();
                // The uid makes the patch fail (409) instead of marking a new pod of the same name.
                metadata.put("uid", update.uid());
                if (!update.labels().isEmpty()) {
                    metadata.put("labels", update.labels());
                }
                if (!update.annotations().isEmpty()) {
                    metadata.put("annotations", update.annotations());
                }
                ApiErrors.ignoreNotFound(() -> client.pods().inNamespace(update.namespace()).withName(update.name())
                        .patch(PatchContext.of(PatchType.JSON_MERGE), ApiJson.toJson(Map.of("metadata", metadata))));
            }
        }
    }

    /** OpenKruise's SetPodConditionIfMsgChanged: a condition of the type is replaced if its status or message differ. */
    static void setConditionIfMessageChanged(Pod pod, PodCondition condition) {
        List<PodCondition> conditions = new ArrayList<>(pod.getStatus().getConditions() == null ? List.of()
                : pod.getStatus().getConditions());
        for (int i = 0; i < conditions.size(); i++) {
            PodCondition c = conditions.get(i);
            if (Objects.equals(c.getType(), condition.getType())) {
                if (!Objects.equals(c.getStatus(), condition.getStatus())
                        || !Objects.equals(c.getMessage(), condition.getMessage())) {
                    conditions.set(i, condition);
                }
                pod.getStatus().setConditions(conditions);
                return;
            }
        }
        conditions.add(condition);
        pod.getStatus().setConditions(conditions);
    }
}
