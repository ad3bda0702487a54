package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WorkloadSpread through the embedded cluster's real admission path: the API server calls the manager's
 * {@code /mutate-pod}, whose WorkloadSpread step reads the WorkloadSpread from the shared cache, records the creation
 * in its status and gives the pod its subset's node terms; the simulated scheduler then places the pod in the zone
 * (three nodes, zones zone-a, zone-b, zone-c).
 */
class WorkloadSpreadEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    static final String ZONES = """
              subsets:
              - name: subset-a
                requiredNodeSelectorTerm:
                  matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                maxReplicas: 2
                patch: {metadata: {labels: {spread-subset: a}}}
              - name: subset-b
                requiredNodeSelectorTerm:
                  matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}]
                maxReplicas: 2
              - name: subset-c
                requiredNodeSelectorTerm:
                  matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-c]}]
            """;

    static void workloadSpread(String name, String apiVersion, String kind, String target, String subsets) {
        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: WorkloadSpread
                metadata: {name: %s, namespace: %s}
                spec:
                  targetRef: {apiVersion: %s, kind: %s, name: %s}
                %s""".formatted(name, product.namespace(), apiVersion, kind, target, subsets));
        awaitCached(name);
    }

    /** Pods admitted before the manager's cache holds the WorkloadSpread would pass unplaced, as in OpenKruise. */
    static void awaitCached(String name) {
        Await.waitFor("the manager's cache holds WorkloadSpread " + name, WAIT, () -> product.app().cache()
                .resource(WorkloadSpread.class).get(product.namespace(), name) != null);
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    static Map<String, String> zonesByNode() {
        return product.client().nodes().list().getItems().stream().collect(Collectors.toMap(
                n -> n.getMetadata().getName(), (Node n) -> n.getMetadata().getLabels().get("topology.kubernetes.io/zone")));
    }

    /** Subset name to the zones its pods run in, counted. */
    static Map<String, Map<String, Long>> placement(List<Pod> pods) {
        Map<String, String> zones = zonesByNode();
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (Pod p : pods) {
            MatchedWorkloadSpread matched = MatchedWorkloadSpread.of(p).orElseThrow(() -> new AssertionError(
                    "pod " + p.getMetadata().getName() + " has no matched-workloadspread annotation"));
            out.computeIfAbsent(matched.subset(), k -> new TreeMap<>())
                    .merge(zones.get(p.getSpec().getNodeName()), 1L, Long::sum);
        }
        return out;
    }

    static boolean allScheduled(List<Pod> pods, int n) {
        return pods.size() == n && pods.stream().allMatch(p -> p.getSpec().getNodeName() != null);
    }

    static WorkloadSpread read(String name) {
        return product.client().resources(WorkloadSpread.class).inNamespace(product.namespace()).withName(name).get();
    }

    static WorkloadSpreadSubsetStatus subsetStatus(WorkloadSpread ws, String version, String subset) {
        return ws.getStatus().getVersionedSubsetStatuses().get(version).stream()
                .filter(s -> s.getName().equals(subset)).findFirst().orElseThrow();
    }

    @Test
    void cloneSetOfSixSpreadsTwoTwoAndTheRestOverThreeZones() {
        workloadSpread("spread", "apps.kruise.io/v1alpha1", "CloneSet", "web", ZONES);
        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: web, namespace: %s}
                spec:
                  replicas: 6
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: main, image: nginx:1.25}]
                """.formatted(product.namespace()));
        List<Pod> pods = Await.waitFor("six scheduled pods", WAIT, () -> pods("web"), p -> allScheduled(p, 6));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 2L),
                "subset-c", Map.of("zone-c", 2L)), placement(pods));
        for (Pod p : pods) {
            boolean inA = "subset-a".equals(MatchedWorkloadSpread.of(p).orElseThrow().subset());
            assertEquals(inA ? "a" : null, p.getMetadata().getLabels().get("spread-subset"), "the subset patch");
        }
        WorkloadSpread ws = read("spread");
        WorkloadSpreadSubsetStatus a = subsetStatus(ws, WorkloadSpreads.VERSION_IGNORED, "subset-a");
        assertEquals(2, a.creatingPods().size() + a.getReplicas(), "subset-a's creations are recorded: " + a.creatingPods());
    }

    @Test
    void deploymentPodsNamedByTheApiServerAreSpreadThroughTheirReplicaSet() {
        workloadSpread("dep-spread", "apps/v1", "Deployment", "api", ZONES);
        ManifestApplier.apply(product.client(), """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: api, namespace: %s}
                spec:
                  replicas: 5
                  selector: {matchLabels: {app: api}}
                  template:
                    metadata: {labels: {app: api}}
                    spec:
                      containers: [{name: main, image: nginx:1.25}]
                """.formatted(product.namespace()));
        List<Pod> pods = Await.waitFor("five scheduled pods", WAIT, () -> pods("api"), p -> allScheduled(p, 5));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 2L),
                "subset-c", Map.of("zone-c", 1L)), placement(pods));
        String version = pods.get(0).getMetadata().getLabels().get("pod-template-hash");
        assertNotNull(version);
        WorkloadSpread ws = read("dep-spread");
        assertTrue(ws.getStatus().getVersionedSubsetStatuses().containsKey(version),
                "versioned status for the Deployment's template: " + ws.getStatus().getVersionedSubsetStatuses().keySet());
        WorkloadSpreadSubsetStatus b = subsetStatus(ws, version, "subset-b");
        assertEquals(0, b.getMissingReplicas(), "subset-b is full");
        // Recorded by the webhook until the controller counts the pod.
        assertEquals(2, b.getReplicas() + b.creatingPods().size(), b.toString());
    }

    @Test
    void podsTheTargetFilterDoesNotSelectPassUnplaced() {
        KubernetesClient client = product.client();
        // A WorkloadSpread whose targetFilter selects none of the pods: they pass untouched (nor does the
        // controller adopt them).
        workloadSpread("filtered", "apps.kruise.io/v1alpha1", "CloneSet", "other", """
                  targetFilter: {selector: {matchLabels: {tier: none}}, replicasPathList: [spec.replicas]}
                """ + ZONES);
        ManifestApplier.apply(client, """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: other, namespace: %s}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: other}}
                  template:
                    metadata: {labels: {app: other}}
                    spec:
                      containers: [{name: main, image: nginx:1.25}]
                """.formatted(product.namespace()));
        List<Pod> pods = Await.waitFor("two scheduled pods", WAIT, () -> pods("other"), p -> allScheduled(p, 2));
        for (Pod p : pods) {
            assertTrue(MatchedWorkloadSpread.of(p).isEmpty(), p.getMetadata().getAnnotations().toString());
        }
    }

    static String cost(Pod p) {
        return p.getMetadata().getAnnotations() == null ? null
                : p.getMetadata().getAnnotations().get("controller.kubernetes.io/pod-deletion-cost");
    }

    static void cloneSet(String name, int replicas) {
        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: %s, namespace: %s}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers: [{name: main, image: nginx:1.25}]
                """.formatted(name, product.namespace(), replicas, name, name));
    }

    static void scale(String name, int replicas) {
        retryingConflicts(() -> product.client().resources(dev.kruisevertx.api.apps.v1alpha1.CloneSet.class)
                .inNamespace(product.namespace()).withName(name).edit(cs -> {
                    cs.getSpec().setReplicas(replicas);
                    return cs;
                }));
    }

    /** A user's edit: the controllers write the object too, so a stale read is retried. */
    static void retryingConflicts(Runnable edit) {
        Await.waitFor("an edit without a conflict", WAIT, () -> {
            try {
                edit.run();
                return true;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() == 409) {
                    return false;
                }
                throw e;
            }
        });
    }

    static boolean ready(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static Map<String, Long> subsetCounts(List<Pod> pods) {
        return pods.stream().collect(Collectors.groupingBy(p -> MatchedWorkloadSpread.of(p).orElseThrow().subset(),
                TreeMap::new, Collectors.counting()));
    }

    @Test
    void scaleDownRemovesPodsFromTheLastSubsetFirstByDeletionCost() {
        workloadSpread("spread", "apps.kruise.io/v1alpha1", "CloneSet", "shop", ZONES);
        cloneSet("shop", 6);
        // Readiness ranks before deletion cost in the scale-down order: wait until every pod is ready.
        Await.waitFor("six ready pods with the controller's deletion costs", WAIT, () -> pods("shop"),
                ps -> ps.size() == 6 && ps.stream().allMatch(p -> cost(p) != null && ready(p)));
        List<Pod> pods = pods("shop");
        for (Pod p : pods) {
            String subset = MatchedWorkloadSpread.of(p).orElseThrow().subset();
            assertEquals(Map.of("subset-a", "300", "subset-b", "200", "subset-c", "100").get(subset), cost(p),
                    p.getMetadata().getName() + " in " + subset);
        }
        Await.waitFor("the controller's status counts every pod", WAIT, () -> read("spread"), ws ->
                ws.getStatus().getSubsetStatuses() != null && ws.getStatus().getSubsetStatuses().stream()
                        .mapToInt(WorkloadSpreadSubsetStatus::getReplicas).sum() == 6);
        scale("shop", 3);
        List<Pod> left = Await.waitFor("three pods left", WAIT, () -> pods("shop"), ps -> ps.size() == 3);
        assertEquals(Map.of("subset-a", 2L, "subset-b", 1L), subsetCounts(left));
        // Scaling up again refills the subsets the webhook now sees missing pods in.
        Await.waitFor("the status sees three pods", WAIT, () -> read("spread"), ws ->
                ws.getStatus().getSubsetStatuses().stream().mapToInt(WorkloadSpreadSubsetStatus::getReplicas).sum() == 3
                        && ws.getStatus().getSubsetStatuses().stream().allMatch(st -> st.deletingPods().isEmpty()));
        scale("shop", 6);
        List<Pod> refilled = Await.waitFor("six scheduled pods again", WAIT, () -> pods("shop"), p -> allScheduled(p, 6));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 2L),
                "subset-c", Map.of("zone-c", 2L)), placement(refilled));
    }

    @Test
    void workloadSpreadDeletedMidOperationLeavesLaterPodsUnplaced() {
        workloadSpread("gone", "apps.kruise.io/v1alpha1", "CloneSet", "late", ZONES);
        cloneSet("late", 2);
        Await.waitFor("two placed pods", WAIT, () -> pods("late"), ps -> ps.size() == 2);
        product.client().resources(WorkloadSpread.class).inNamespace(product.namespace()).withName("gone").delete();
        Await.waitFor("the manager's cache drops the WorkloadSpread", WAIT, () -> product.app().cache()
                .resource(WorkloadSpread.class).get(product.namespace(), "gone") == null);
        scale("late", 4);
        List<Pod> pods = Await.waitFor("four scheduled pods", WAIT, () -> pods("late"), p -> allScheduled(p, 4));
        assertEquals(2, pods.stream().filter(p -> MatchedWorkloadSpread.of(p).isPresent()).count(),
                "only the pods admitted while the WorkloadSpread existed are annotated");
    }

    @Test
    void aConflictingStatusWriterAndAManagerRestartKeepTheCount() throws Exception {
        workloadSpread("busy", "apps.kruise.io/v1alpha1", "CloneSet", "race", ZONES);
        // Another writer bumps the WorkloadSpread's resourceVersion while pods are admitted: the webhook's write
        // conflicts, re-reads and records every creation once.
        cloneSet("race", 5);
        for (int i = 0; i < 5; i++) {
            retryingConflicts(() -> product.client().resources(WorkloadSpread.class).inNamespace(product.namespace())
                    .withName("busy").edit(ws -> {
                        ws.getMetadata().setAnnotations(new java.util.HashMap<>(Map.of("bump", "v" + System.nanoTime())));
                        return ws;
                    }));
        }
        List<Pod> pods = Await.waitFor("five scheduled pods", WAIT, () -> pods("race"), p -> allScheduled(p, 5));
        assertEquals(Map.of("subset-a", 2L, "subset-b", 2L, "subset-c", 1L), subsetCounts(pods));
        product.restartManager();
        awaitCached("busy");
        scale("race", 7);
        List<Pod> more = Await.waitFor("seven scheduled pods", WAIT, () -> pods("race"), p -> allScheduled(p, 7));
        assertEquals(Map.of("subset-a", 2L, "subset-b", 2L, "subset-c", 3L), subsetCounts(more),
                "after the restart the status still holds the first five");
    }

    @Test
    void aDeletedPodIsRecordedAsDeletingSoItsReplacementReturnsToItsSubset() {
        workloadSpread("spread", "apps.kruise.io/v1alpha1", "CloneSet", "cart", ZONES);
        cloneSet("cart", 6);
        List<Pod> pods = Await.waitFor("six scheduled pods", WAIT, () -> pods("cart"), p -> allScheduled(p, 6));
        Await.waitFor("the controller counted the pods", WAIT, () -> read("spread"), ws ->
                ws.getStatus().getSubsetStatuses() != null && ws.getStatus().getSubsetStatuses().stream()
                        .mapToInt(WorkloadSpreadSubsetStatus::getReplicas).sum() == 6);
        Pod victim = pods.stream().filter(p -> "subset-a".equals(MatchedWorkloadSpread.of(p).orElseThrow().subset()))
                .findFirst().orElseThrow();
        product.client().pods().resource(victim).delete();
        // /validate-pod records the deletion (subset-a misses a pod at once), so the CloneSet's replacement goes
        // back to subset-a even before the controller recounts.
        List<Pod> after = Await.waitFor("six scheduled pods again", WAIT, () -> pods("cart"),
                p -> allScheduled(p, 6) && p.stream().noneMatch(x -> x.getMetadata().getName()
                        .equals(victim.getMetadata().getName())));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 2L),
                "subset-c", Map.of("zone-c", 2L)), placement(after), () -> "status " + read("spread").getStatus()
                + " pods " + after.stream().map(p -> p.getMetadata().getName() + "=" + p.getMetadata().getAnnotations())
                .toList() + " victim " + victim.getMetadata().getName());
    }

    static List<Pod> podsOwnedBy(String kind, String name) {
        return product.client().pods().inNamespace(product.namespace()).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getMetadata().getOwnerReferences()
                        .stream().anyMatch(o -> kind.equals(o.getKind()) && name.equals(o.getName())))
                .toList();
    }

    /** The controller's own status (the webhook writes only versioned records): subset name to replicas. */
    static Map<String, Integer> counted(WorkloadSpread ws) {
        if (ws == null || ws.getStatus() == null || ws.getStatus().getSubsetStatuses() == null) {
            return Map.of();
        }
        return ws.getStatus().getSubsetStatuses().stream().collect(Collectors.toMap(
                WorkloadSpreadSubsetStatus::getName, WorkloadSpreadSubsetStatus::getReplicas, (x, y) -> x, TreeMap::new));
    }

    static Map<String, Integer> awaitCounted(String ws, Map<String, Integer> expected) {
        return Await.waitFor("the controller counts " + expected + " for " + ws, WAIT, () -> counted(read(ws)),
                expected::equals);
    }

    static long events(String reason, String involved) {
        return product.client().v1().events().inNamespace(product.namespace()).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()) && involved.equals(e.getInvolvedObject().getName())).count();
    }

    static final String ORDINALS = """
              subsets:
              - name: subset-a
                requiredNodeSelectorTerm:
                  matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                maxReplicas: 1
              - name: subset-b
                requiredNodeSelectorTerm:
                  matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}]
                maxReplicas: 1
              - name: subset-c
                requiredNodeSelectorTerm:
                  matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-c]}]
            """;

    @Test
    void statefulSetPodsGoByOrdinalAndTheControllerCountsThem() {
        workloadSpread("sts-spread", "apps/v1", "StatefulSet", "db", ORDINALS);
        ManifestApplier.apply(product.client(), """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: %s}
                spec:
                  replicas: 3
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec:
                      containers: [{name: main, image: nginx:1.25}]
                """.formatted(product.namespace()));
        List<Pod> pods = Await.waitFor("three scheduled pods", WAIT, () -> pods("db"), p -> allScheduled(p, 3));
        Map<String, String> zones = zonesByNode();
        Map<String, String> zoneByPod = new TreeMap<>();
        pods.forEach(p -> zoneByPod.put(p.getMetadata().getName(), zones.get(p.getSpec().getNodeName())));
        assertEquals(Map.of("db-0", "zone-a", "db-1", "zone-b", "db-2", "zone-c"), zoneByPod);
        // Before, the controller skipped StatefulSet targets and wrote no subsetStatuses.
        awaitCounted("sts-spread", Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1));
        assertTrue(pods.stream().allMatch(p -> cost(p) == null), "no deletion cost for a StatefulSet's pods");
    }

    @Test
    void advancedStatefulSetWithMinReadySecondsIsCountedBeforeItsPodsAreAvailable() {
        workloadSpread("asts-spread", "apps.kruise.io/v1beta1", "StatefulSet", "cache", ORDINALS);
        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1beta1
                kind: StatefulSet
                metadata: {name: cache, namespace: %s}
                spec:
                  replicas: 2
                  serviceName: cache
                  minReadySeconds: 600
                  podManagementPolicy: Parallel
                  selector: {matchLabels: {app: cache}}
                  template:
                    metadata: {labels: {app: cache}}
                    spec:
                      containers: [{name: main, image: nginx:1.25}]
                """.formatted(product.namespace()));
        Await.waitFor("two scheduled pods", WAIT, () -> pods("cache"), p -> allScheduled(p, 2));
        // A WorkloadSpread counts active pods, available or not: minReadySeconds (10 minutes) changes nothing.
        awaitCounted("asts-spread", Map.of("subset-a", 1, "subset-b", 1, "subset-c", 0));
        // Counted within minReadySeconds of the pods turning ready: none of them can be available yet.
        java.time.Instant now = java.time.Instant.now();
        for (Pod p : pods("cache")) {
            p.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
                    .forEach(c -> assertTrue(java.time.Instant.parse(c.getLastTransitionTime()).plusSeconds(600)
                            .isAfter(now), p.getMetadata().getName() + " ready since " + c.getLastTransitionTime()));
        }
    }

    @Test
    void jobPodsAreSpreadAndCountedByParallelism() {
        workloadSpread("job-spread", "batch/v1", "Job", "batch", """
                  subsets:
                  - name: subset-a
                    requiredNodeSelectorTerm:
                      matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                    maxReplicas: 50%
                  - name: subset-b
                    requiredNodeSelectorTerm:
                      matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}]
                    maxReplicas: 50%
                """);
        ManifestApplier.apply(product.client(), """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: batch, namespace: %s}
                spec:
                  parallelism: 4
                  completions: 4
                  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: main, image: busybox:1.36}]
                """.formatted(product.namespace()));
        List<Pod> pods = Await.waitFor("four placed Job pods", WAIT, () -> podsOwnedBy("Job", "batch"),
                p -> p.size() == 4 && p.stream().allMatch(x -> x.getSpec().getNodeName() != null));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 2L)), placement(pods));
        // 50% of parallelism 4: each subset's limit is 2, whether its pods still run or completed (the status is
        // the controller's: before, a Job target was skipped and no subsetStatuses were written).
        Await.waitFor("the controller's subset statuses with limits of 2", WAIT, () -> read("job-spread"),
                w -> w.getStatus() != null && w.getStatus().getSubsetStatuses() != null
                        && w.getStatus().getSubsetStatuses().size() == 2
                        && w.getStatus().getSubsetStatuses().stream().allMatch(st -> st.creatingPods().isEmpty()
                        && st.deletingPods().isEmpty() && st.getReplicas() + st.getMissingReplicas() == 2));
    }

    @Test
    void aWhitelistedCustomWorkloadIsCountedWithItsReplicasPath() throws Exception {
        KubernetesClient client = product.client();
        ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: arenas.ws.example.com}
                spec:
                  group: ws.example.com
                  scope: Namespaced
                  names: {plural: arenas, singular: arena, kind: Arena, listKind: ArenaList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """);
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("kruise-system").endMetadata().build())
                .createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
        client.configMaps().inNamespace("kruise-system").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("kruise-configuration").endMetadata()
                .addToData("WorkloadSpread_Watch_Custom_Workload_WhiteList", "{\"workloads\":[{\"Group\":"
                        + "\"ws.example.com\",\"Version\":\"v1\",\"Kind\":\"Arena\",\"replicasPath\":\"spec.size\"}]}")
                .build()).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
        // Read at start-up by the webhook and the controller (and then followed: see the test after this one).
        product.restartManager();
        String ns = product.namespace();
        var arena = Await.waitFor("arenas served", WAIT, () -> {
            try {
                return client.genericKubernetesResources("ws.example.com/v1", "Arena").inNamespace(ns)
                        .resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                                .withApiVersion("ws.example.com/v1").withKind("Arena").withNewMetadata()
                                .withName("arena").withNamespace(ns).endMetadata()
                                .addToAdditionalProperties("spec", Map.of("size", 4)).build()).create();
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                return null;
            }
        }, java.util.Objects::nonNull);
        workloadSpread("arena-spread", "ws.example.com/v1", "Arena", "arena", """
                  subsets:
                  - name: subset-a
                    requiredNodeSelectorTerm:
                      matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                    maxReplicas: 25%
                  - name: subset-b
                    requiredNodeSelectorTerm:
                      matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}]
                """);
        for (int i = 0; i < 3; i++) {
            client.pods().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                    .withName("arena-" + i).addToLabels("app", "arena").addNewOwnerReference()
                    .withApiVersion("ws.example.com/v1").withKind("Arena").withName("arena")
                    .withUid(arena.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("arena:1").endContainer().endSpec()
                    .build()).create();
        }
        List<Pod> pods = Await.waitFor("three scheduled pods", WAIT, () -> pods("arena"), p -> allScheduled(p, 3));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 1L), "subset-b", Map.of("zone-b", 2L)), placement(pods));
        awaitCounted("arena-spread", Map.of("subset-a", 1, "subset-b", 2));
        // 25% of spec.size (the whitelist's replicasPath): a limit of 1, so subset-a misses none.
        assertEquals(0, read("arena-spread").getStatus().getSubsetStatuses().get(0).getMissingReplicas());
        client.genericKubernetesResources("ws.example.com/v1", "Arena").inNamespace(ns).withName("arena")
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"spec\":{\"size\":8}}");
        // Watched through the shared cache's informer for the kind, added when the whitelist named it.
        Await.waitFor("subset-a's limit follows spec.size 8 (25% = 2)", WAIT, () -> read("arena-spread"),
                w -> w.getStatus().getSubsetStatuses().get(0).getMissingReplicas() == 1);
    }

    /** How long a custom workload's change may take to reach the status: well under the 30 s the old poll took. */
    static final Duration PROMPT = Duration.ofSeconds(20);

    @Test
    void aCustomKindWhitelistedAfterStartIsWatchedWithoutARestart() {
        KubernetesClient client = product.client();
        String ns = product.namespace();
        ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: gadgets.ws.example.com}
                spec:
                  group: ws.example.com
                  scope: Namespaced
                  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """);
        var gadget = Await.waitFor("gadgets served", WAIT, () -> {
            try {
                return client.genericKubernetesResources("ws.example.com/v1", "Gadget").inNamespace(ns)
                        .resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                                .withApiVersion("ws.example.com/v1").withKind("Gadget").withNewMetadata()
                                .withName("gadget").withNamespace(ns).endMetadata()
                                .addToAdditionalProperties("spec", Map.of("replicas", 4)).build()).create();
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                return null;
            }
        }, java.util.Objects::nonNull);
        // The manager is running; only now does the whitelist name the kind. No restart follows.
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("kruise-system").endMetadata().build())
                .createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
        client.configMaps().inNamespace("kruise-system").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("kruise-configuration").endMetadata()
                .addToData("WorkloadSpread_Watch_Custom_Workload_WhiteList", "{\"workloads\":[{\"Group\":"
                        + "\"ws.example.com\",\"Version\":\"v1\",\"Kind\":\"Gadget\",\"replicasPath\":\"spec.replicas\"}]}")
                .build()).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
        // The validating webhook follows the whitelist too: until it has, the WorkloadSpread is refused.
        Await.waitFor("the WorkloadSpread for a Gadget is admitted", WAIT, () -> {
            try {
                workloadSpread("gadget-spread", "ws.example.com/v1", "Gadget", "gadget", """
                          subsets:
                          - name: subset-a
                            requiredNodeSelectorTerm:
                              matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                            maxReplicas: 50%
                          - name: subset-b
                            requiredNodeSelectorTerm:
                              matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}]
                        """);
                return true;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                return false;
            }
        }, ok -> ok);
        // 50% of 4: subset-a's limit of 2 is missing 2 once the controller counts the Gadget through its informer.
        Await.waitFor("subset-a misses 2 of a limit of 2", WAIT, () -> read("gadget-spread"),
                w -> w.getStatus() != null && w.getStatus().getSubsetStatuses() != null
                        && !w.getStatus().getSubsetStatuses().isEmpty()
                        && w.getStatus().getSubsetStatuses().get(0).getMissingReplicas() == 2);
        for (int i = 0; i < 3; i++) {
            client.pods().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                    .withName("gadget-" + i).addToLabels("app", "gadget").addNewOwnerReference()
                    .withApiVersion("ws.example.com/v1").withKind("Gadget").withName("gadget")
                    .withUid(gadget.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("gadget:1").endContainer().endSpec()
                    .build()).create();
        }
        List<Pod> pods = Await.waitFor("three scheduled pods", WAIT, () -> pods("gadget"), p -> allScheduled(p, 3));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 1L)), placement(pods),
                "the pod webhook placed the pods of the newly whitelisted kind");
        awaitCounted("gadget-spread", Map.of("subset-a", 2, "subset-b", 1));
        // The same informer is shared: asking the cache for the kind again gives the one the controller uses.
        var first = product.app().cache().generic("ws.example.com", "v1", "Gadget").orElseThrow();
        assertSame(first, product.app().cache().generic("ws.example.com", "v1", "Gadget").orElseThrow());
        assertNotNull(first.get(ns, "gadget"), "the shared informer holds the Gadget");
        // A scale of the Gadget reaches the status through the watch, not a periodic re-read.
        long patchedAt = System.nanoTime();
        client.genericKubernetesResources("ws.example.com/v1", "Gadget").inNamespace(ns).withName("gadget")
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":8}}");
        Await.waitFor("subset-a's limit follows replicas 8 (50% = 4): 2 missing", PROMPT, () -> read("gadget-spread"),
                w -> w.getStatus().getSubsetStatuses().get(0).getMissingReplicas() == 2
                        && w.getStatus().getSubsetStatuses().get(0).getReplicas() == 2
                        && w.getStatus().getSubsetStatuses().get(0).creatingPods().isEmpty());
        assertTrue(Duration.ofNanos(System.nanoTime() - patchedAt).compareTo(PROMPT) < 0);
        // The owner deleted mid-operation: its informer's deletion counts no pods, as for a built-in target.
        client.genericKubernetesResources("ws.example.com/v1", "Gadget").inNamespace(ns).withName("gadget").delete();
        Await.waitFor("no pods counted once the Gadget is gone", PROMPT, () -> counted(read("gadget-spread")),
                Map.of("subset-a", 0, "subset-b", 0)::equals);
    }

    @Test
    void adaptiveMovesPodsOffAnUnschedulableSubsetAndTheSubsetRecovers() throws Exception {
        String spare = "spread-e2e/spare-" + System.nanoTime() % 100000;
        workloadSpread("adaptive", "apps.kruise.io/v1alpha1", "CloneSet", "game", """
                  scheduleStrategy: {type: Adaptive, adaptive: {rescheduleCriticalSeconds: 2}}
                  subsets:
                  - name: subset-a
                    requiredNodeSelectorTerm:
                      matchExpressions: [{key: %s, operator: In, values: ["yes"]}]
                    maxReplicas: 2
                  - name: subset-b
                    requiredNodeSelectorTerm:
                      matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-b]}]
                """.formatted(spare));
        cloneSet("game", 2);
        // No node carries the label: subset-a's pods stay Pending, are deleted after 2 s, and subset-a is marked
        // Schedulable=False, so the CloneSet's replacements go to subset-b.
        List<Pod> pods = Await.waitFor("two pods scheduled in subset-b", WAIT, () -> pods("game"),
                p -> allScheduled(p, 2));
        assertEquals(Map.of("subset-b", Map.of("zone-b", 2L)), placement(pods));
        WorkloadSpread ws = Await.waitFor("subset-a marked unschedulable", WAIT, () -> read("adaptive"),
                w -> schedulable(w, "subset-a").equals("False"));
        assertEquals("True", schedulable(ws, "subset-b"));
        String url = "http://127.0.0.1:" + product.app().metricsPort();
        String why = Await.waitFor("why names the unschedulable subset", WAIT, () -> whyText(url, "ws/adaptive"),
                t -> t.contains("held by Unschedulable: subset subset-a is marked Schedulable=False"));
        assertTrue(why.contains("rescheduleCriticalSeconds 2"), why);
        assertTrue(why.contains("workload spread \"adaptive\": subset-a 0 pods (2 missing), subset-b 2 pods (no limit)")
                || why.contains("subset-a 0 pods"), why);

        // Capacity comes back; five minutes later (backdated here) the controller marks subset-a schedulable again.
        String node = product.client().nodes().list().getItems().stream().filter(n -> "zone-a".equals(
                n.getMetadata().getLabels().get("topology.kubernetes.io/zone"))).findFirst().orElseThrow()
                .getMetadata().getName();
        retryingConflicts(() -> product.client().nodes().withName(node).edit(n -> {
            n.getMetadata().getLabels().put(spare, "yes");
            return n;
        }));
        String longAgo = java.time.Instant.now().minus(java.time.Duration.ofMinutes(6)).toString();
        retryingConflicts(() -> product.client().resources(WorkloadSpread.class).inNamespace(product.namespace())
                .withName("adaptive").editStatus(w -> {
                    // The condition is kept per version too, and the pod webhook reads the versioned entries.
                    List<WorkloadSpreadSubsetStatus> all = new java.util.ArrayList<>(w.getStatus().getSubsetStatuses());
                    if (w.getStatus().getVersionedSubsetStatuses() != null) {
                        w.getStatus().getVersionedSubsetStatuses().values().forEach(all::addAll);
                    }
                    all.stream().filter(st -> st.getName().equals("subset-a"))
                            .flatMap(st -> st.conditions().stream()).forEach(c -> c.setLastTransitionTime(longAgo));
                    return w;
                }));
        Await.waitFor("subset-a recovered", WAIT, () -> read("adaptive"),
                w -> schedulable(w, "subset-a").equals("True"));
        Await.waitFor("a RecoverSchedulable Event", WAIT, () -> events("RecoverSchedulable", "adaptive"), n -> n >= 1);
        scale("game", 3);
        List<Pod> three = Await.waitFor("three scheduled pods", WAIT, () -> pods("game"), p -> allScheduled(p, 3));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 1L), "subset-b", Map.of("zone-b", 2L)), placement(three));
    }

    static String schedulable(WorkloadSpread ws, String subset) {
        if (ws == null || ws.getStatus() == null || ws.getStatus().getSubsetStatuses() == null) {
            return "";
        }
        return ws.getStatus().getSubsetStatuses().stream().filter(s -> s.getName().equals(subset))
                .flatMap(s -> s.conditions().stream()).filter(c -> "Schedulable".equals(c.getType()))
                .map(c -> c.getStatus()).findFirst().orElse("");
    }

    static String whyText(String managerUrl, String target) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = dev.kruisevertx.kubectl.KubectlKruise.run(new String[]{"-n", product.namespace(), "why", target,
                        "--manager-url", managerUrl},
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8),
                p -> dev.kruisevertx.kube.KubeClients.forTest(new io.fabric8.kubernetes.client.ConfigBuilder(
                        product.cluster().clientConfig()).withHttp2Disable(true).build()));
        return code == 0 ? out.toString(java.nio.charset.StandardCharsets.UTF_8)
                : "exit " + code + ": " + err.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void theTargetDeletedMidOperationLeavesNoPodsCounted() {
        workloadSpread("orphan", "apps.kruise.io/v1alpha1", "CloneSet", "doomed", ZONES);
        cloneSet("doomed", 4);
        awaitCounted("orphan", Map.of("subset-a", 2, "subset-b", 2, "subset-c", 0));
        product.client().resources(dev.kruisevertx.api.apps.v1alpha1.CloneSet.class).inNamespace(product.namespace())
                .withName("doomed").delete();
        // Before, a missing target was skipped and its last counts stayed; OpenKruise counts no pods.
        awaitCounted("orphan", Map.of("subset-a", 0, "subset-b", 0, "subset-c", 0));
        WorkloadSpread ws = read("orphan");
        assertEquals(List.of(2, 2, -1), ws.getStatus().getSubsetStatuses().stream()
                .map(WorkloadSpreadSubsetStatus::getMissingReplicas).toList());
        // A CloneSet of the same name created again is spread afresh.
        cloneSet("doomed", 2);
        awaitCounted("orphan", Map.of("subset-a", 2, "subset-b", 0, "subset-c", 0));
    }

    @Test
    void hostileSpecsAreRefusedOrBoundedAndTheManagerKeepsWorking() {
        String ns = product.namespace();
        String base = """
                apiVersion: apps.kruise.io/v1alpha1
                kind: WorkloadSpread
                metadata: {name: %s, namespace: %s}
                spec:
                  targetRef: {apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: tough}
                %s""";
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("negative", "  subsets: [{name: a, maxReplicas: -1}, {name: b}]");
        refused.put("over-100", "  subsets: [{name: a, maxReplicas: 150%}, {name: b}]");
        refused.put("mixed", "  subsets: [{name: a, maxReplicas: 50%}, {name: b, maxReplicas: 2}]");
        refused.put("word", "  subsets: [{name: a, maxReplicas: many}, {name: b}]");
        refused.put("bool", "  subsets: [{name: a, maxReplicas: true}, {name: b}]");
        refused.put("reschedule", "  scheduleStrategy: {type: Adaptive, adaptive: {rescheduleCriticalSeconds: -5}}\n"
                + "  subsets: [{name: a, maxReplicas: 1}, {name: b}]");
        refused.put("no-subsets", "  subsets: []");
        for (Map.Entry<String, String> e : refused.entrySet()) {
            io.fabric8.kubernetes.client.KubernetesClientException ex = org.junit.jupiter.api.Assertions.assertThrows(
                    io.fabric8.kubernetes.client.KubernetesClientException.class,
                    () -> ManifestApplier.apply(product.client(), base.formatted("h-" + e.getKey(), ns, e.getValue())),
                    e.getKey());
            assertTrue(ex.getCode() >= 400 && ex.getCode() < 500, e.getKey() + ": " + ex.getCode() + " " + ex.getMessage());
        }
        // Accepted but extreme: a limit far beyond any replica count, and replicas paths that lead nowhere, to a
        // wrong type or to a huge index; the controller counts them as 0 replicas and keeps going.
        workloadSpread("h-huge", "apps.kruise.io/v1alpha1", "CloneSet", "tough", """
                  targetFilter:
                    selector: {matchLabels: {app: tough}}
                    replicasPathList: [spec.nothing, metadata.name, spec.template.spec.containers.99999999999]
                  subsets:
                  - name: subset-a
                    requiredNodeSelectorTerm:
                      matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                    maxReplicas: 2147483647
                  - name: subset-b
                """);
        cloneSet("tough", 3);
        List<Pod> pods = Await.waitFor("three scheduled pods", WAIT, () -> pods("tough"), p -> allScheduled(p, 3));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 3L)), placement(pods));
        awaitCounted("h-huge", Map.of("subset-a", 3, "subset-b", 0));
        assertEquals(2147483647 - 3, read("h-huge").getStatus().getSubsetStatuses().get(0).getMissingReplicas());
        // A subset patch that would break the CloneSet's pods is refused once the CloneSet exists (OpenKruise applies
        // the patch to the workload's template and validates the result).
        io.fabric8.kubernetes.client.KubernetesClientException badPatch = org.junit.jupiter.api.Assertions.assertThrows(
                io.fabric8.kubernetes.client.KubernetesClientException.class, () -> ConflictRetry.run(() -> product.client()
                        .resources(WorkloadSpread.class).inNamespace(ns).withName("h-huge").edit(w -> {
                            w.getSpec().getSubsets().get(1).setPatch(dev.kruisevertx.api.common.ApiJson.serialization()
                                    .unmarshal("{\"spec\":{\"containers\":[{\"name\":\"Bad_Name\",\"image\":\"x:1\"}]}}",
                                            com.fasterxml.jackson.databind.JsonNode.class));
                            return w;
                        })));
        assertEquals(400, badPatch.getCode(), badPatch.getMessage());
        assertTrue(badPatch.getMessage().contains("spec.subsets[1].patch.containers[1].name"), badPatch.getMessage());
        // Out-of-range and negative pod fields in a patch are refused as Kubernetes' pod spec validation refuses them.
        io.fabric8.kubernetes.client.KubernetesClientException outOfRange = org.junit.jupiter.api.Assertions.assertThrows(
                io.fabric8.kubernetes.client.KubernetesClientException.class, () -> ConflictRetry.run(() -> product.client()
                        .resources(WorkloadSpread.class).inNamespace(ns).withName("h-huge").edit(w -> {
                            w.getSpec().getSubsets().get(1).setPatch(dev.kruisevertx.api.common.ApiJson.serialization()
                                    .unmarshal("{\"spec\":{\"activeDeadlineSeconds\":99999999999,"
                                                    + "\"terminationGracePeriodSeconds\":-1}}",
                                            com.fasterxml.jackson.databind.JsonNode.class));
                            return w;
                        })));
        assertEquals(400, outOfRange.getCode(), outOfRange.getMessage());
        assertTrue(outOfRange.getMessage().contains("spec.subsets[1].patch.activeDeadlineSeconds")
                && outOfRange.getMessage().contains("spec.subsets[1].patch.terminationGracePeriodSeconds"),
                outOfRange.getMessage());
    }
}
