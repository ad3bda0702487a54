package dev.kruisevertx.podunavailablebudget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.kruisevertx.podunavailablebudget.PodUnavailableBudgetEndToEndTest.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * v1beta1 PodUnavailableBudgets through the embedded API server's real admission and conversion paths: validated as
 * v1beta1, stored as v1alpha1 (the typed fields in the v1alpha1 annotations the unchanged controller and pod webhook
 * read), listed and shown as a {@code kubectl get podunavailablebudgets.v1beta1.policy.kruise.io} table, protecting a
 * CloneSet's pods from eviction across a manager restart, edited and deleted through v1beta1; hostile v1beta1 specs
 * refused with the field.
 */
class PubV1beta1EndToEndTest {
    static final String ALPHA = "policy.kruise.io/v1alpha1";
    static final String BETA = "policy.kruise.io/v1beta1";
    static final String NONE_ALLOWED = "pub unavailable allowed is negative";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .controllers(() -> List.of(new dev.kruisevertx.podreadiness.PodReadinessController(),
                    new CloneSetController(), new PodUnavailableBudgetController()))
            .build();

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return product.client().genericKubernetesResources(object.getApiVersion(), object.getKind())
                .inNamespace(product.namespace()).resource(object).create();
    }

    static GenericKubernetesResource get(String apiVersion, String name) {
        return product.client().genericKubernetesResources(apiVersion, "PodUnavailableBudget")
                .inNamespace(product.namespace()).withName(name).get();
    }

    @SuppressWarnings("unchecked")
    static <T> T at(GenericKubernetesResource r, String... path) {
        Object node = r == null ? null : r.getAdditionalProperties();
        for (String p : path) {
            node = node == null ? null : ((Map<String, Object>) node).get(p);
        }
        return (T) node;
    }

    static int number(GenericKubernetesResource r, String... path) {
        Number n = at(r, path);
        return n == null ? -1 : n.intValue();
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(Pods::isActive).toList();
    }

    /** An eviction: true when admitted, false when the API server answered 429; a webhook refusal throws. */
    static boolean evict(String pod) {
        return product.client().pods().inNamespace(product.namespace()).withName(pod).evict(new EvictionBuilder()
                .withNewMetadata().withName(pod).withNamespace(product.namespace()).endMetadata().build());
    }

    static JsonNode getJson(String path, String accept) throws Exception {
        HttpRequest request = product.client().getHttpClient().newHttpRequestBuilder()
                .uri(product.client().getMasterUrl().toString().replaceAll("/$", "") + path)
                .header("Accept", accept).build();
        HttpResponse<String> response = product.client().getHttpClient().sendAsync(request, String.class)
                .get(60, TimeUnit.SECONDS);
        assertEquals(200, response.code(), path + ": " + response.body());
        return new ObjectMapper().readTree(response.body());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aV1beta1BudgetIsStoredAsV1alpha1AndProtectsPodsFromEvictionAcrossARestart() throws Exception {
        // The budget first (created through v1beta1), so the pods get related-pub from /mutate-pod at creation.
        create("""
                {"apiVersion":"policy.kruise.io/v1beta1","kind":"PodUnavailableBudget","metadata":{"name":"web-pub"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"},
                   "maxUnavailable":1,"protectOperations":["DELETE","EVICT"],
                   "ignoredPodSelector":{"matchLabels":{"maintenance":"true"}}}}
                """);
        GenericKubernetesResource alpha = get(ALPHA, "web-pub");
        assertEquals("DELETE,EVICT", alpha.getMetadata().getAnnotations().get(WellKnown.PUB_PROTECT_OPERATIONS_ANNOTATION));
        assertNull(at(alpha, "spec", "protectOperations"), "v1alpha1 has no such field");
        GenericKubernetesResource beta = get(BETA, "web-pub");
        assertEquals(List.of("DELETE", "EVICT"), at(beta, "spec", "protectOperations"));
        assertEquals(Map.of("matchLabels", Map.of("maintenance", "true")), at(beta, "spec", "ignoredPodSelector"));
        assertTrue(beta.getMetadata().getAnnotations() == null || beta.getMetadata().getAnnotations().isEmpty(),
                "the annotations became fields: " + beta.getMetadata().getAnnotations());

        // minReadySeconds: pods count as available only after a second of readiness.
        CloneSet cs = PubFixtures.cloneSet(product, "web", 3);
        cs.getSpec().setMinReadySeconds(1);
        product.client().resource(cs).create();
        Await.waitFor("3 ready pods naming web-pub", WAIT, () -> pods("web").stream()
                .filter(p -> Pods.isRunningAndReady(p)
                        && "web-pub".equals(Pods.annotations(p).get(WellKnown.PUB_RELATED_ANNOTATION)))
                .count(), c -> c == 3);
        // The controller's status reads back through v1beta1.
        Await.waitFor("the budget's status through v1beta1", WAIT, () -> get(BETA, "web-pub"),
                r -> number(r, "status", "desiredAvailable") == 2 && number(r, "status", "currentAvailable") == 3
                        && number(r, "status", "unavailableAllowed") == 1 && number(r, "status", "totalReplicas") == 3);

        // kubectl get podunavailablebudgets.v1beta1.policy.kruise.io: discovery lists it, and the table has the columns.
        JsonNode discovery = getJson("/apis/policy.kruise.io/v1beta1", "application/json");
        List<String> resources = new ArrayList<>();
        discovery.path("resources").forEach(r -> resources.add(r.path("name").asText()));
        assertTrue(resources.contains("podunavailablebudgets"), discovery.toString());
        JsonNode table = getJson("/apis/policy.kruise.io/v1beta1/namespaces/" + product.namespace()
                + "/podunavailablebudgets", "application/json;as=Table;v=v1;g=meta.k8s.io");
        assertEquals("Table", table.path("kind").asText(), table.toString());
        List<String> columns = new ArrayList<>();
        table.path("columnDefinitions").forEach(c -> columns.add(c.path("name").asText()));
        assertEquals(List.of("Name", "Allowed", "Current", "Desired", "Total"), columns);
        assertEquals("web-pub", table.path("rows").get(0).path("cells").get(0).asText());
        assertEquals(1, table.path("rows").get(0).path("cells").get(1).asInt());

        // No replacement pod while the refusals are checked (a ready replacement rightly allows one more).
        product.client().genericKubernetesResources("apps.kruise.io/v1alpha1", "CloneSet")
                .inNamespace(product.namespace()).withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"scaleStrategy\":{\"maxUnavailable\":0}}}");
        List<Pod> pods = pods("web");
        assertTrue(evict(pods.get(0).getMetadata().getName()), "the first eviction is within the budget");
        // The manager restarts mid-operation; the restarted webhook still protects.
        product.restartManager();
        String second = pods.get(1).getMetadata().getName();
        KubernetesClientException refused = Await.waitFor("the second eviction refused", WAIT, () -> {
            try {
                evict(second);
                return null;
            } catch (KubernetesClientException e) {
                return e;
            }
        }, e -> e != null);
        assertTrue(refused.getMessage().contains(NONE_ALLOWED), refused.getMessage());
        assertTrue(product.client().pods().inNamespace(product.namespace()).withName(second).get() != null);

        // EVICT dropped from protectOperations through v1beta1: evictions are no longer checked, deletions still are.
        Await.waitFor("the v1beta1 edit", WAIT, () -> {
            try {
                product.client().genericKubernetesResources(BETA, "PodUnavailableBudget").inNamespace(product.namespace())
                        .withName("web-pub").edit(r -> {
                            ((Map<String, Object>) r.getAdditionalProperties().get("spec"))
                                    .put("protectOperations", List.of("DELETE"));
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
        assertEquals("DELETE", get(ALPHA, "web-pub").getMetadata().getAnnotations()
                .get(WellKnown.PUB_PROTECT_OPERATIONS_ANNOTATION));
        String third = pods.get(2).getMetadata().getName();
        KubernetesClientException deleteRefused = assertThrows(KubernetesClientException.class,
                () -> product.client().pods().inNamespace(product.namespace()).withName(third).delete());
        assertTrue(deleteRefused.getMessage().contains(NONE_ALLOWED), deleteRefused.getMessage());
        // The webhook's cache of the budget may trail the edit just made.
        Await.waitFor("eviction of " + second + " admitted", WAIT, () -> {
            try {
                return evict(second);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 403) {
                    throw e;
                }
                return false;
            }
        });

        // The budget deleted through v1beta1 mid-operation: nothing is protected any more.
        product.client().genericKubernetesResources(BETA, "PodUnavailableBudget").inNamespace(product.namespace())
                .withName("web-pub").delete();
        Await.waitFor("the budget gone", WAIT, () -> get(ALPHA, "web-pub") == null);
        Await.waitFor("delete of " + third + " admitted", WAIT, () -> {
            try {
                product.client().pods().inNamespace(product.namespace()).withName(third).delete();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 403) {
                    throw e;
                }
                return false;
            }
        });
    }

    @Test
    void hostileV1beta1SpecsAreRefusedWithTheFieldAndNothingIsStored() {
        String head = """
                {"apiVersion":"policy.kruise.io/v1beta1","kind":"PodUnavailableBudget","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"app":"h-%s"}},""";
        Map<String, String> cases = Map.of(
                "badop", "\"maxUnavailable\":1,\"protectOperations\":[\"DELETE\",\"PATCH\"]}}",
                "zero", "\"maxUnavailable\":1,\"protectTotalReplicas\":0}}",
                "negative", "\"maxUnavailable\":-1}}",
                "huge", "\"maxUnavailable\":1,\"protectTotalReplicas\":99999999999999}}",
                "wrongtype", "\"maxUnavailable\":1,\"protectOperations\":\"DELETE,EVICT\"}}",
                "percent", "\"minAvailable\":\"1000%\"}}",
                "emptyignored", "\"maxUnavailable\":1,\"ignoredPodSelector\":{}}}");
        Map<String, String> expected = Map.of(
                "badop", "spec.protectOperations[1]: Unsupported value: \"PATCH\"",
                "zero", "spec.protectTotalReplicas",
                "negative", "spec.maxUnavailable",
                "huge", "spec.protectTotalReplicas",
                "wrongtype", "spec.protectOperations",
                "percent", "spec.minAvailable",
                "emptyignored", "spec.ignoredPodSelector");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> create(head.formatted(c.getKey(), c.getKey()) + c.getValue()), c.getKey());
            assertTrue(e.getCode() == 422 || e.getCode() == 400, c.getKey() + ": " + e.getCode() + " " + e.getMessage());
            assertTrue(e.getMessage().contains(expected.get(c.getKey())), c.getKey() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("dev.kruisevertx"), e.getMessage());
            assertNull(get(ALPHA, c.getKey()), c.getKey() + " was stored");
        }
    }
}
