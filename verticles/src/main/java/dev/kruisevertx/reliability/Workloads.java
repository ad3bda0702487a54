package dev.kruisevertx.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.sim.invariants.ClusterView;
import dev.kruisevertx.sim.invariants.WorkloadKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;

import java.util.List;

/**
 * The workloads the scenarios roll out: CloneSet and Advanced StatefulSet, recreate or in place; Advanced DaemonSet
 * Standard (with or without surge) or in place.
 */
final class Workloads {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * The lifecycle hook a workload carries, which a {@link HookHandler} (the user's controller) releases: none, an
     * {@code inPlaceUpdate} hook by label (on an in-place variant) or a {@code preDelete} hook by finalizer (on a
     * recreate variant).
     */
    enum Hook {
        NONE(""),
        IN_PLACE_UPDATE_LABEL(", inPlaceUpdate hook"),
        PRE_DELETE_FINALIZER(", preDelete hook");

        private final String label;

        Hook(String label) {
            this.label = label;
        }
    }

    /** The label of the inPlaceUpdate hook: on every pod from the template, removed to let an update start. */
    static final String HOLD_UPDATE_LABEL = "reliability.kruise.io/hold-update";
    /** The finalizer of the preDelete hook: on every pod from the template, removed to let a deletion go ahead. */
    static final String PROTECT_FINALIZER = "reliability.kruise.io/protect";

    /** A workload shape: its kind, its update policy, minReadySeconds and lifecycle hook. */
    record Variant(WorkloadKind kind, boolean inPlace, int minReadySeconds, Hook hook, boolean surge) {
        Variant(WorkloadKind kind, boolean inPlace, int minReadySeconds, Hook hook) {
            this(kind, inPlace, minReadySeconds, hook, false);
        }

        Variant(WorkloadKind kind, boolean inPlace, int minReadySeconds) {
            this(kind, inPlace, minReadySeconds, Hook.NONE);
        }

        String label() {
            return (kind == WorkloadKind.CLONESET ? "CloneSet" : kind == WorkloadKind.ADVANCED_DAEMONSET
                    ? "Advanced DaemonSet" : "Advanced StatefulSet")
                    + (inPlace ? " in-place" : " recreate") + (surge ? " surge" : "")
                    + (minReadySeconds > 0 ? " minReady=" + minReadySeconds : "") + hook.label;
        }
    }

    /**
     * Hooked variants first: the fault-class rollouts take variants in this order, so a short (CI) run rolls out a
     * hooked CloneSet and a hooked Advanced StatefulSet, each under a fault, before the others.
     */
    static final List<Variant> VARIANTS = List.of(
            new Variant(WorkloadKind.CLONESET, true, 2, Hook.IN_PLACE_UPDATE_LABEL),
            new Variant(WorkloadKind.ADVANCED_STATEFULSET, false, 2, Hook.PRE_DELETE_FINALIZER),
            new Variant(WorkloadKind.CLONESET, false, 0, Hook.PRE_DELETE_FINALIZER),
            new Variant(WorkloadKind.ADVANCED_STATEFULSET, true, 0, Hook.IN_PLACE_UPDATE_LABEL),
            new Variant(WorkloadKind.CLONESET, false, 0),
            new Variant(WorkloadKind.CLONESET, true, 2),
            new Variant(WorkloadKind.ADVANCED_STATEFULSET, false, 2),
            new Variant(WorkloadKind.ADVANCED_STATEFULSET, true, 0));

    /**
     * Advanced DaemonSet rollouts over the cluster's nodes (one pod per node; the run's replicas do not apply):
     * Standard with a surge pod first on each node, Standard within maxUnavailable, InPlaceIfPossible. They follow
     * the replicated workloads in the rotation, so a short (CI) run's first scenarios stay as they were.
     */
    static final List<Variant> DAEMONSET_VARIANTS = List.of(
            new Variant(WorkloadKind.ADVANCED_DAEMONSET, false, 2, Hook.NONE, true),
            new Variant(WorkloadKind.ADVANCED_DAEMONSET, true, 2),
            new Variant(WorkloadKind.ADVANCED_DAEMONSET, false, 0));

    private Workloads() {
    }

    /** An Advanced DaemonSet on every node of the cluster. */
    static String daemonSetYaml(Variant v, String namespace, String name, String image) {
        String budget = v.surge() ? "maxSurge: 1, maxUnavailable: 0" : "maxUnavailable: 1";
        return """
                apiVersion: %s
                kind: DaemonSet
                metadata: {name: %s, namespace: %s}
                spec:
                  minReadySeconds: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers: [{name: main, image: "%s"}]
                  updateStrategy: {type: RollingUpdate, rollingUpdate: {rollingUpdateType: %s, %s}}
                """.formatted(v.kind().apiVersion(), name, namespace, v.minReadySeconds(), name, name, image,
                v.inPlace() ? "InPlaceIfPossible" : "Standard", budget);
    }

    static String yaml(Variant v, String namespace, String name, int replicas, String image) {
        if (v.kind().perNode()) {
            return daemonSetYaml(v, namespace, name, image);
        }
        String podUpdatePolicy = v.inPlace() ? "InPlaceIfPossible" : "ReCreate";
        boolean cloneSet = v.kind() == WorkloadKind.CLONESET;
        // Advanced StatefulSet keeps minReadySeconds in its rolling update strategy (it has no spec.minReadySeconds).
        String type = "apiVersion: " + v.kind().apiVersion() + "\nkind: " + v.kind().kind();
        String specField = cloneSet ? "minReadySeconds: " + v.minReadySeconds() : "serviceName: " + name;
        String readinessGates = cloneSet ? "" : "readinessGates: [{conditionType: InPlaceUpdateReady}]\n      ";
        String podMeta = switch (v.hook()) {
            case NONE -> "{labels: {app: " + name + "}}";
            case IN_PLACE_UPDATE_LABEL -> "{labels: {app: " + name + ", " + HOLD_UPDATE_LABEL + ": \"true\"}}";
            case PRE_DELETE_FINALIZER -> "{labels: {app: " + name + "}, finalizers: [" + PROTECT_FINALIZER + "]}";
        };
        String lifecycle = switch (v.hook()) {
            case NONE -> "";
            case IN_PLACE_UPDATE_LABEL -> "\n  lifecycle: {inPlaceUpdate: {labelsHandler: {" + HOLD_UPDATE_LABEL
                    + ": \"true\"}}}";
            case PRE_DELETE_FINALIZER -> "\n  lifecycle: {preDelete: {finalizersHandler: [" + PROTECT_FINALIZER + "]}}";
        };
        String updateStrategy = cloneSet ? "{type: " + podUpdatePolicy + ", maxUnavailable: 1}"
                : "{type: RollingUpdate, rollingUpdate: {podUpdatePolicy: " + podUpdatePolicy
                + ", maxUnavailable: 1, minReadySeconds: " + v.minReadySeconds() + "}}";
        return """
                %s
                metadata: {name: %s, namespace: %s}
                spec:
                  replicas: %d
                  %s
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: %s
                    spec:
                      %scontainers: [{name: main, image: "%s"}]
                  updateStrategy: %s%s
                """.formatted(type, name, namespace, replicas, specField, name, podMeta, readinessGates, image,
                updateStrategy, lifecycle);
    }

    static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
    resources(KubernetesClient client, WorkloadKind kind) {
        return client.genericKubernetesResources(kind.apiVersion(), kind.kind());
    }

    static JsonNode get(KubernetesClient client, WorkloadKind kind, String namespace, String name) {
        GenericKubernetesResource r = resources(client, kind).inNamespace(namespace).withName(name).get();
        return r == null ? null : MAPPER.valueToTree(r);
    }

    /**
     * Null when the rollout is complete and the pods are exactly right (replicas active pods, all at the update
     * revision and Ready), else what is still missing.
     */
    static String pending(KubernetesClient client, WorkloadKind kind, String namespace, String name) {
        JsonNode w = get(client, kind, namespace, name);
        if (w == null) {
            return "workload missing";
        }
        int replicas = kind.replicas(w);
        JsonNode st = w.path("status");
        if (st.path("observedGeneration").asLong(-1) != w.at("/metadata/generation").asLong()) {
            return "status not observed yet";
        }
        String update = st.path("updateRevision").asText("");
        List<JsonNode> pods = ownedActivePods(client, w);
        long updatedReady = pods.stream().filter(p -> update.equals(ClusterView.revision(p)))
                .filter(p -> ClusterView.available(p, 0, System.currentTimeMillis())).count();
        if (pods.size() != replicas || updatedReady != replicas) {
            return pods.size() + " active pods, " + updatedReady + " updated and ready, for " + replicas + " replicas";
        }
        if (kind.perNode()) {
            // numberAvailable also waits out minReadySeconds and in-place updates the kubelet has not shown yet.
            if (replicas == 0 || st.path("updatedNumberScheduled").asInt() != replicas
                    || st.path("numberReady").asInt() != replicas || st.path("numberAvailable").asInt() != replicas) {
                return "status says desired " + replicas + ", updated " + st.path("updatedNumberScheduled").asInt()
                        + ", ready " + st.path("numberReady").asInt() + ", available " + st.path("numberAvailable").asInt();
            }
            return null;
        }
        if (st.path("updatedReplicas").asInt() != replicas || st.path("readyReplicas").asInt() != replicas) {
            return "status says updated " + st.path("updatedReplicas").asInt() + ", ready "
                    + st.path("readyReplicas").asInt();
        }
        return null;
    }

    /** Null when every active pod of the workload is in lifecycle state Normal, else the first one that is not. */
    static String notNormal(KubernetesClient client, WorkloadKind kind, String namespace, String name) {
        JsonNode w = get(client, kind, namespace, name);
        if (w == null) {
            return "workload missing";
        }
        for (JsonNode p : ownedActivePods(client, w)) {
            String state = p.at("/metadata/labels").path(dev.kruisevertx.api.common.WellKnown.LIFECYCLE_STATE_LABEL)
                    .asText("");
            if (!"Normal".equals(state)) {
                return "pod " + p.at("/metadata/name").asText() + " in lifecycle state '" + state + "'";
            }
        }
        return null;
    }

    static List<JsonNode> ownedActivePods(KubernetesClient client, JsonNode w) {
        String uid = ClusterView.uid(w);
        List<Pod> pods = client.pods().inNamespace(w.at("/metadata/namespace").asText()).list().getItems();
        return pods.stream().map(p -> (JsonNode) MAPPER.valueToTree(p))
                .filter(p -> uid.equals(ClusterView.controllerUid(p))).filter(ClusterView::active).toList();
    }
}
