package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1beta1.UnitedDeploymentConversion;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * v1beta1 UnitedDeployments through the embedded API server's real admission and conversion paths: defaulted and
 * validated as v1beta1, stored as v1alpha1 (which the unchanged controller reads), listed and read back through
 * {@code uniteddeployments.v1beta1.apps.kruise.io} with the status in v1beta1's shape, a v1beta1 CloneSet template
 * rolled out in place across a manager restart, and deleted through v1beta1 mid-rollout; hostile v1beta1 specs are
 * refused with the field.
 */
class UnitedDeploymentV1beta1EndToEndTest {
    static final String ALPHA = UnitedDeploymentConversion.ALPHA;
    static final String BETA = UnitedDeploymentConversion.BETA;
    static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .build();

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return product.client().genericKubernetesResources(object.getApiVersion(), object.getKind())
                .inNamespace(product.namespace()).resource(object).create();
    }

    static GenericKubernetesResource get(String apiVersion, String name) {
        return product.client().genericKubernetesResources(apiVersion, "UnitedDeployment")
                .inNamespace(product.namespace()).withName(name).get();
    }

    @SuppressWarnings("unchecked")
    static <T> T at(Object root, String... path) {
        Object node = root instanceof GenericKubernetesResource r ? r.getAdditionalProperties() : root;
        for (String p : path) {
            node = node instanceof Map<?, ?> m ? ((Map<String, Object>) m).get(p) : null;
        }
        return (T) node;
    }

    static int number(Object r, String... path) {
        Number n = at(r, path);
        return n == null ? -1 : n.intValue();
    }

    /** Subset name to target replicas as the v1beta1 status spells them. */
    static Map<String, Integer> betaSubsetReplicas(GenericKubernetesResource r) {
        List<Map<String, Object>> statuses = at(r, "status", "subsetStatuses");
        Map<String, Integer> out = new TreeMap<>();
        if (statuses != null) {
            statuses.forEach(s -> out.put((String) s.get("name"), number(s, "replicas") < 0 ? 0 : number(s, "replicas")));
        }
        return out;
    }

    static List<Pod> livePods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }

    static List<CloneSet> subsets(String uid) {
        return product.client().resources(CloneSet.class).inNamespace(product.namespace()).list().getItems().stream()
                .filter(c -> c.getMetadata().getOwnerReferences() != null && c.getMetadata().getOwnerReferences()
                        .stream().anyMatch(o -> o.getUid().equals(uid)))
                .toList();
    }

    /** Edits through v1beta1, retrying when the controller's status write got in between (409). */
    static void editBeta(String name, Consumer<GenericKubernetesResource> change) {
        Await.waitFor("the v1beta1 edit of " + name, WAIT, () -> {
            try {
                product.client().genericKubernetesResources(BETA, "UnitedDeployment").inNamespace(product.namespace())
                        .withName(name).edit(r -> {
                            change.accept(r);
                            return r;
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

    static String subsetsJson() {
        StringBuilder b = new StringBuilder();
        for (String zone : List.of("a", "b", "c")) {
            b.append(b.isEmpty() ? "" : ",").append("{\"name\":\"subset-").append(zone)
                    .append("\",\"nodeSelectorTerm\":{\"matchExpressions\":[{\"key\":\"topology.kubernetes.io/zone\","
                            + "\"operator\":\"In\",\"values\":[\"zone-").append(zone).append("\"]}]}}");
        }
        return b.toString();
    }

    static final String HOLD = "example.com/hold";

    static com.fasterxml.jackson.databind.JsonNode kubectlGetTable(String apiVersion, String plural) throws Exception {
        io.fabric8.kubernetes.client.http.HttpClient http = product.client().getHttpClient();
        String url = product.client().getMasterUrl().toString().replaceAll("/$", "") + "/apis/" + apiVersion
                + "/namespaces/" + product.namespace() + "/" + plural;
        io.fabric8.kubernetes.client.http.HttpResponse<String> response = http.sendAsync(http.newHttpRequestBuilder()
                .uri(url).header("Accept", "application/json;as=Table;g=meta.k8s.io;v=v1").build(), String.class)
                .get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(200, response.code(), response.body());
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body());
    }

    /**
     * The user's side of the inPlaceUpdate hook: releases a PreparingUpdate pod (removes the hold label) and holds an
     * Updated one again (puts it back), so the hooked rollout can go on.
     */
    static void playTheHookHandler(String app) {
        for (Pod p : livePods(app)) {
            String state = Pods.label(p, dev.kruisevertx.api.common.WellKnown.LIFECYCLE_STATE_LABEL);
            boolean held = "true".equals(Pods.label(p, HOLD));
            String patch = "PreparingUpdate".equals(state) && held ? "{\"metadata\":{\"labels\":{\"" + HOLD + "\":null}}}"
                    : "Updated".equals(state) && !held ? "{\"metadata\":{\"labels\":{\"" + HOLD + "\":\"true\"}}}"
                    : null;
            if (patch != null) {
                try {
                    product.client().pods().inNamespace(product.namespace()).withName(p.getMetadata().getName())
                            .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                    io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), patch);
                } catch (KubernetesClientException e) {
                    // gone or changed meanwhile: the next poll looks again
                }
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aV1beta1UnitedDeploymentIsStoredAsV1alpha1ActedOnAndRolledOutInPlaceAcrossARestart() throws Exception {
        create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"UnitedDeployment","metadata":{"name":"web"},
                 "spec":{"replicas":6,"selector":{"matchLabels":{"app":"web"}},
                   "template":{"cloneSetTemplate":{"metadata":{"labels":{"app":"web"}},
                     "spec":{"minReadySeconds":1,"selector":{"matchLabels":{"app":"web"}},
                       "template":{"metadata":{"labels":{"app":"web","example.com/hold":"true"}},
                         "spec":{"containers":[{"name":"main","image":"web:1"}]}},
                       "lifecycle":{"inPlaceUpdate":{"labelsHandler":{"example.com/hold":"true"}}},
                       "scaleStrategy":{"enablePVCReuse":true},
                       "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{
                         "podUpdatePolicy":"InPlaceIfPossible","maxUnavailable":1}}}}},
                   "topology":{"subsets":[%s]}}}
                """.formatted(subsetsJson()));

        // Defaulted in v1beta1; stored as v1alpha1 with a v1alpha1 CloneSet template, which the controller reads.
        GenericKubernetesResource beta = get(BETA, "web");
        assertEquals(BETA, beta.getApiVersion());
        assertEquals(10, number(beta, "spec", "revisionHistoryLimit"));
        assertEquals("Manual", at(beta, "spec", "updateStrategy", "type"));
        assertEquals("InPlaceIfPossible", at(beta, "spec", "template", "cloneSetTemplate", "spec", "updateStrategy",
                "rollingUpdate", "podUpdatePolicy"));
        GenericKubernetesResource alpha = get(ALPHA, "web");
        assertEquals("InPlaceIfPossible", at(alpha, "spec", "template", "cloneSetTemplate", "spec", "updateStrategy",
                "type"));
        assertEquals(1, number(alpha, "spec", "template", "cloneSetTemplate", "spec", "updateStrategy",
                "maxUnavailable"));

        // The controller acts on it: three CloneSets of two, ready; the status reads back in v1beta1's shape.
        Map<String, Integer> split = Map.of("subset-a", 2, "subset-b", 2, "subset-c", 2);
        GenericKubernetesResource ready = Await.waitFor("6 ready pods, seen through v1beta1", WAIT,
                () -> get(BETA, "web"), r -> number(r, "status", "readyReplicas") == 6
                        && split.equals(betaSubsetReplicas(r)) && at(r, "status", "updatedRevision") != null);
        assertNull(at(ready, "status", "subsetReplicas"), "no v1alpha1 spelling in v1beta1");
        assertNull(at(ready, "status", "updateStatus"));
        String uid = ready.getMetadata().getUid();
        List<CloneSet> cloneSets = subsets(uid);
        assertEquals(3, cloneSets.size());
        for (CloneSet c : cloneSets) {
            assertEquals("InPlaceIfPossible", c.getSpec().getUpdateStrategy().getType());
            assertEquals(1, c.getSpec().getMinReadySeconds());
            assertEquals(Map.of(HOLD, "true"), c.getSpec().getLifecycle().getInPlaceUpdate().getLabelsHandler(),
                    "the template's inPlaceUpdate hook reaches every subset");
        }
        List<GenericKubernetesResource> listed = product.client().genericKubernetesResources(BETA, "UnitedDeployment")
                .inNamespace(product.namespace()).list().getItems();
        assertEquals(List.of("web"), listed.stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(BETA, listed.get(0).getApiVersion());
        // `kubectl get uniteddeployments.v1beta1.apps.kruise.io`: the Table kubectl asks for, through v1beta1.
        com.fasterxml.jackson.databind.JsonNode table = kubectlGetTable(BETA, "uniteddeployments");
        List<String> columns = new java.util.ArrayList<>();
        table.path("columnDefinitions").forEach(c -> columns.add(c.path("name").asText()));
        assertEquals(List.of("Name", "DESIRED", "CURRENT", "UPDATED", "READY", "AGE"), columns);
        assertEquals(1, table.path("rows").size(), table.toString());
        com.fasterxml.jackson.databind.JsonNode cells = table.path("rows").get(0).path("cells");
        assertEquals("web", cells.get(0).asText());
        assertEquals(6, cells.get(1).asInt());
        assertEquals(6, cells.get(4).asInt());
        Set<String> before = livePods("web").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        assertEquals(6, before.size());
        String firstRevision = at(ready, "status", "updatedRevision");

        // A new image and a partition through v1beta1; the manager restarts mid-rollout; pods are updated in place.
        editBeta("web", r -> {
            ((List<Map<String, Object>>) at(r, "spec", "template", "cloneSetTemplate", "spec", "template", "spec",
                    "containers")).get(0).put("image", "web:2");
            Map<String, Object> manual = new LinkedHashMap<>();
            manual.put("partitions", Map.of("subset-a", 1));
            ((Map<String, Object>) at(r, "spec", "updateStrategy")).put("manualUpdate", manual);
        });
        product.restartManager();
        GenericKubernetesResource rolled = Await.waitFor("5 of 6 updated, seen through v1beta1", WAIT,
                () -> {
                    playTheHookHandler("web");
                    return get(BETA, "web");
                }, r -> !firstRevision.equals(at(r, "status", "updatedRevision"))
                        && number(r, "status", "updatedReadyReplicas") == 5 && number(r, "status", "readyReplicas") == 6);
        Map<String, Object> subsetA = ((List<Map<String, Object>>) at(rolled, "status", "subsetStatuses")).stream()
                .filter(s -> "subset-a".equals(s.get("name"))).findFirst().orElseThrow();
        assertEquals(1, number(subsetA, "partition"), "v1alpha1's currentPartitions read as the subset's partition");
        Set<String> after = livePods("web").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        assertEquals(before, after, "InPlaceIfPossible kept the pods");
        assertEquals(3, subsets(uid).size(), "the restarted manager adopted the subsets");

        // Written back through v1beta1 as read (what `kubectl apply` of a `kubectl get -o yaml` does): nothing moves.
        long generation = get(ALPHA, "web").getMetadata().getGeneration();
        editBeta("web", r -> { });
        assertEquals(generation, get(ALPHA, "web").getMetadata().getGeneration(), "a v1beta1 round trip is no change");

        // The owner deleted through v1beta1 mid-operation (a scale-up under way): subsets and pods go with it.
        editBeta("web", r -> ((Map<String, Object>) at(r, "spec")).put("replicas", 12));
        Await.waitFor("scaling up", WAIT, () -> subsets(uid).stream().mapToInt(c -> c.getSpec().getReplicas()).sum() > 6);
        product.client().genericKubernetesResources(BETA, "UnitedDeployment").inNamespace(product.namespace())
                .withName("web").delete();
        Await.waitFor("the UnitedDeployment, its CloneSets and pods gone", WAIT,
                () -> get(ALPHA, "web") == null && subsets(uid).isEmpty() && livePods("web").isEmpty());
    }

    @Test
    void hostileV1beta1SpecsAreRefusedWithTheFieldAndNothingIsStored() {
        String head = """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"UnitedDeployment","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"app":"h"}},
                   "template":{"cloneSetTemplate":{"metadata":{"labels":{"app":"h"}},"spec":{
                     "selector":{"matchLabels":{"app":"h"}},
                     "template":{"metadata":{"labels":{"app":"h"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}
                """;
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("canary", new String[] {",\"updateStrategy\":{\"type\":\"Canary\"}}}}}}",
                "spec.template.cloneSetTemplate.spec.updateStrategy.type: Unsupported value: \"Canary\""});
        cases.put("policy", new String[] {",\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":"
                + "{\"podUpdatePolicy\":7}}}}}}}", "spec.template.cloneSetTemplate.spec.updateStrategy.rollingUpdate"
                + ".podUpdatePolicy"});
        cases.put("negative", new String[] {"}}},\"replicas\":-5}}", "spec.replicas"});
        cases.put("wrongtype", new String[] {"}}},\"replicas\":\"7\"}}", "spec.replicas"});
        cases.put("huge", new String[] {"}}},\"replicas\":99999999999999999999}}", "spec.replicas"});
        cases.put("outofrange", new String[] {"}}},\"replicas\":4,\"topology\":{\"subsets\":[{\"name\":\"a\","
                + "\"replicas\":\"250%\"}]}}}", "spec.topology.subsets[0].replicas"});
        cases.put("badname", new String[] {"}}},\"topology\":{\"subsets\":[{\"name\":\"Not_A_Label\"}]}}}",
                "spec.topology.subsets[0].name"});
        for (Map.Entry<String, String[]> c : cases.entrySet()) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> create(head.formatted(c.getKey()).strip() + c.getValue()[0]), c.getKey());
            assertTrue(e.getCode() == 422 || e.getCode() == 400, c.getKey() + ": " + e.getCode() + " " + e.getMessage());
            assertTrue(e.getMessage().contains(c.getValue()[1]), c.getKey() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("dev.kruisevertx"), e.getMessage());
            assertNull(get(ALPHA, c.getKey()), c.getKey() + " was stored");
        }
    }
}
