package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.Await;
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
}
