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
        // Pods admitted before the manager's cache holds the WorkloadSpread would pass unplaced, as in OpenKruise.
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
        assertEquals(pods.stream().filter(p -> "subset-b".equals(MatchedWorkloadSpread.of(p).orElseThrow().subset()))
                .map(p -> p.getMetadata().getName()).collect(Collectors.toSet()), b.creatingPods().keySet());
    }

    @Test
    void podsOfOtherWorkloadsAndUnreadableWorkloadSpreadsPassUnplaced() {
        KubernetesClient client = product.client();
        // A WorkloadSpread whose targetFilter selects nothing (nil selector): the pods pass untouched.
        workloadSpread("filtered", "apps.kruise.io/v1alpha1", "CloneSet", "other", """
                  targetFilter: {replicasPathList: [spec.replicas]}
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
}
