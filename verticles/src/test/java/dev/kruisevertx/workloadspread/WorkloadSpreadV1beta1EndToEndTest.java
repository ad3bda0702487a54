package dev.kruisevertx.workloadspread;

import dev.kruisevertx.sim.testing.ConflictRetry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * v1beta1 WorkloadSpreads through the embedded API server's real admission and conversion paths: validated as
 * v1beta1, stored as v1alpha1 (which the unchanged controller and the pod webhook's WorkloadSpread step read from the
 * cache), spreading a CloneSet's pods over three zones, its status read back through v1beta1 and through kubectl's
 * {@code workloadspreads.v1beta1.apps.kruise.io}, edited through v1beta1 across a manager restart, and deleted
 * through v1beta1; hostile v1beta1 specs refused with the field.
 */
class WorkloadSpreadV1beta1EndToEndTest {
    static final String ALPHA = "apps.kruise.io/v1alpha1";
    static final String BETA = "apps.kruise.io/v1beta1";
    static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    @TempDir
    static Path dir;

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return product.client().genericKubernetesResources(object.getApiVersion(), object.getKind())
                .inNamespace(product.namespace()).resource(object).create();
    }

    static GenericKubernetesResource get(String apiVersion, String name) {
        return product.client().genericKubernetesResources(apiVersion, "WorkloadSpread")
                .inNamespace(product.namespace()).withName(name).get();
    }

    static JsonNode tree(GenericKubernetesResource r) {
        return r == null ? null : new ObjectMapper().valueToTree(r);
    }

    /** Edits through v1beta1, retrying when the controller's status write got in between (409). */
    static void editBeta(String name, Consumer<JsonNode> change) {
        Await.waitFor("the v1beta1 edit of " + name, WAIT, () -> {
            try {
                product.client().genericKubernetesResources(BETA, "WorkloadSpread").inNamespace(product.namespace())
                        .withName(name).edit(r -> {
                            JsonNode t = tree(r);
                            change.accept(t);
                            return Serialization.jsonMapper().convertValue(t, GenericKubernetesResource.class);
                        });
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                return false;
            }
        });
    }

    static void awaitCached(String name) {
        Await.waitFor("the manager's cache holds WorkloadSpread " + name, WAIT, () -> product.app().cache()
                .resource(dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread.class).get(product.namespace(), name) != null);
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    /** Subset name to the zones its pods run in, counted, once {@code count} pods are scheduled. */
    static Map<String, Map<String, Long>> placementOf(String app, int count) {
        List<Pod> pods = Await.waitFor(count + " scheduled pods of " + app, WAIT, () -> pods(app),
                ps -> ps.size() == count && ps.stream().allMatch(p -> p.getSpec().getNodeName() != null));
        Map<String, String> zones = new java.util.HashMap<>();
        product.client().nodes().list().getItems().forEach(n -> zones.put(n.getMetadata().getName(),
                n.getMetadata().getLabels().get("topology.kubernetes.io/zone")));
        Map<String, Map<String, Long>> out = new java.util.TreeMap<>();
        for (Pod p : pods) {
            MatchedWorkloadSpread matched = MatchedWorkloadSpread.of(p).orElseThrow(() -> new AssertionError(
                    "pod " + p.getMetadata().getName() + " has no matched-workloadspread annotation"));
            out.computeIfAbsent(matched.subset(), k -> new java.util.TreeMap<>())
                    .merge(zones.get(p.getSpec().getNodeName()), 1L, Long::sum);
        }
        return out;
    }

    static JsonNode subsetStatus(JsonNode ws, String subset) {
        for (JsonNode s : ws.path("status").path("subsetStatuses")) {
            if (subset.equals(s.path("name").asText())) {
                return s;
            }
        }
        return null;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aV1beta1WorkloadSpreadIsStoredAsV1alpha1AndSpreadsACloneSetAcrossARestart() throws Exception {
        create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"WorkloadSpread","metadata":{"name":"spread"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"},
                   "subsets":[
                     {"name":"subset-a","maxReplicas":2,"patch":{"metadata":{"labels":{"spread-subset":"a"}}},
                      "requiredNodeSelector":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                        "operator":"In","values":["zone-a"]}]}},
                     {"name":"subset-b","maxReplicas":2,
                      "requiredNodeSelector":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                        "operator":"In","values":["zone-b"]}]}},
                     {"name":"subset-c",
                      "requiredNodeSelector":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                        "operator":"In","values":["zone-c"]}]}}]}}
                """);
        // Stored (and cached for the pod webhook) in the v1alpha1 spelling.
        JsonNode alpha = tree(get(ALPHA, "spread"));
        assertEquals("zone-a", alpha.at("/spec/subsets/0/requiredNodeSelectorTerm/matchExpressions/0/values/0").asText());
        assertFalse(alpha.at("/spec/subsets/0").has("requiredNodeSelector"));
        awaitCached("spread");

        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: web, namespace: %s}
                spec:
                  replicas: 5
                  minReadySeconds: 1
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: main, image: nginx:1.25}]
                """.formatted(product.namespace()));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 2L),
                "subset-c", Map.of("zone-c", 1L)), placementOf("web", 5));
        assertTrue(pods("web").stream().filter(p -> "a".equals(p.getMetadata().getLabels()
                .get("spread-subset"))).count() == 2, "subset-a's patch applied");

        // The controller's status, read through v1beta1.
        JsonNode beta = Await.waitFor("subset counts seen through v1beta1", WAIT, () -> tree(get(BETA, "spread")),
                ws -> subsetStatus(ws, "subset-a") != null && subsetStatus(ws, "subset-a").path("replicas").asInt() == 2
                        && subsetStatus(ws, "subset-b").path("replicas").asInt() == 2
                        && subsetStatus(ws, "subset-c").path("replicas").asInt() == 1);
        assertEquals(BETA, beta.path("apiVersion").asText());
        assertEquals(0, subsetStatus(beta, "subset-a").path("missingReplicas").asInt());
        assertEquals(-1, subsetStatus(beta, "subset-c").path("missingReplicas").asInt());
        assertTrue(beta.at("/spec/subsets/1").has("requiredNodeSelector"));
        List<GenericKubernetesResource> listed = product.client().genericKubernetesResources(BETA, "WorkloadSpread")
                .inNamespace(product.namespace()).list().getItems();
        assertEquals(List.of(BETA), listed.stream().map(GenericKubernetesResource::getApiVersion).toList());

        kubectlSeesV1beta1("spread");

        // subset-b takes one more through v1beta1; the manager restarts; the CloneSet grows by one.
        editBeta("spread", ws -> ((com.fasterxml.jackson.databind.node.ObjectNode) ws.at("/spec/subsets/1"))
                .put("maxReplicas", 3));
        assertEquals(3, tree(get(ALPHA, "spread")).at("/spec/subsets/1/maxReplicas").asInt());
        Await.waitFor("the cached spread has the new maxReplicas", WAIT, () -> product.app().cache()
                .resource(dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread.class).get(product.namespace(), "spread"),
                ws -> ws.spec().getSubsets().get(1).getMaxReplicas().getIntVal() == 3);
        product.restartManager();
        awaitCached("spread");
        Await.waitFor("the restarted manager's cache has maxReplicas 3", WAIT, () -> product.app().cache()
                .resource(dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread.class).get(product.namespace(), "spread"),
                ws -> ws.spec().getSubsets().get(1).getMaxReplicas().getIntVal() == 3);
        ConflictRetry.run(() -> product.client().genericKubernetesResources(ALPHA, "CloneSet")
                .inNamespace(product.namespace()).withName("web").edit(r -> {
                    ((Map<String, Object>) r.getAdditionalProperties().get("spec")).put("replicas", 6);
                    return r;
                }));
        assertEquals(Map.of("subset-a", Map.of("zone-a", 2L), "subset-b", Map.of("zone-b", 3L),
                "subset-c", Map.of("zone-c", 1L)), placementOf("web", 6));
        Await.waitFor("subset-b full, seen through v1beta1", WAIT, () -> tree(get(BETA, "spread")),
                ws -> subsetStatus(ws, "subset-b") != null && subsetStatus(ws, "subset-b").path("replicas").asInt() == 3
                        && subsetStatus(ws, "subset-b").path("missingReplicas").asInt() == 0);

        // Deleted through v1beta1.
        product.client().genericKubernetesResources(BETA, "WorkloadSpread").inNamespace(product.namespace())
                .withName("spread").delete();
        Await.waitFor("the WorkloadSpread gone", WAIT, () -> get(ALPHA, "spread") == null);
    }

    /** kubectl lists the object under {@code workloadspreads.v1beta1.apps.kruise.io} (skipped without kubectl). */
    static void kubectlSeesV1beta1(String name) throws Exception {
        if (!kubectlAvailable()) {
            return;
        }
        Path kubeconfig = dir.resolve("kubeconfig");
        product.cluster().writeKubeconfig(kubeconfig);
        String table = kubectl(kubeconfig, "get", "workloadspreads.v1beta1.apps.kruise.io", "-n", product.namespace());
        assertTrue(table.lines().anyMatch(l -> l.startsWith(name) && l.contains("web") && l.contains("CloneSet")),
                table);
        JsonNode json = new ObjectMapper().readTree(kubectl(kubeconfig, "get",
                "workloadspreads.v1beta1.apps.kruise.io", name, "-n", product.namespace(), "-o", "json"));
        assertEquals(BETA, json.path("apiVersion").asText());
        assertTrue(json.at("/spec/subsets/0").has("requiredNodeSelector"), json.toString());
        JsonNode alpha = new ObjectMapper().readTree(kubectl(kubeconfig, "get",
                "workloadspreads.v1alpha1.apps.kruise.io", name, "-n", product.namespace(), "-o", "json"));
        assertTrue(alpha.at("/spec/subsets/0").has("requiredNodeSelectorTerm"), alpha.toString());
    }

    static boolean kubectlAvailable() {
        try {
            return new ProcessBuilder("kubectl", "version", "--client").redirectErrorStream(true).start()
                    .waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static String kubectl(Path kubeconfig, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "--cache-dir",
                dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void hostileV1beta1SpecsAreRefusedWithTheFieldAndNothingIsStored() {
        String head = """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"WorkloadSpread","metadata":{"name":"%s"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"x"},""";
        String zone = "\"requiredNodeSelector\":{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\","
                + "\"values\":[\"a\"]}]}";
        Map<String, String> cases = Map.of(
                "negative", "\"subsets\":[{\"name\":\"a\",\"maxReplicas\":-3," + zone + "}]}}",
                "huge", "\"subsets\":[{\"name\":\"a\",\"maxReplicas\":\"99999999999999999999%\"," + zone + "}]}}",
                "wrongtype", "\"subsets\":\"many\"}}",
                "operator", "\"subsets\":[{\"name\":\"a\",\"requiredNodeSelector\":{\"matchExpressions\":"
                        + "[{\"key\":\"zone\",\"operator\":\"Near\"}]}}]}}",
                "reschedule", "\"subsets\":[{\"name\":\"a\"," + zone + "}],\"scheduleStrategy\":{\"type\":\"Adaptive\","
                        + "\"adaptive\":{\"rescheduleCriticalSeconds\":-1}}}}");
        Map<String, String> expected = Map.of(
                "negative", "spec.subsets[0].maxReplicas",
                "huge", "spec.subsets[0].maxReplicas",
                "wrongtype", "spec.subsets",
                "operator", "spec.subsets[0].requiredNodeSelector.matchExpressions[0].operator",
                "reschedule", "rescheduleCriticalSeconds");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> create(head.formatted(c.getKey()) + c.getValue()), c.getKey());
            assertTrue(e.getCode() == 422 || e.getCode() == 400, c.getKey() + ": " + e.getCode() + " " + e.getMessage());
            assertTrue(e.getMessage().contains(expected.get(c.getKey())), c.getKey() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("dev.kruisevertx"), e.getMessage());
            assertNull(get(ALPHA, c.getKey()), c.getKey() + " was stored");
        }
    }
}
