package dev.kruisevertx.resourcedistribution;

import dev.kruisevertx.api.apps.v1beta1.ResourceDistributionConversion;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * v1beta1 ResourceDistributions through the embedded API server's real admission and conversion paths: validated as
 * v1beta1, stored as v1alpha1 (which the unchanged controller reads), the copies made in the namespaces
 * {@code targets.namespaceSelector} selects, a conflict reported in v1beta1's {@code failedNamespaces}, the selector
 * changed through v1beta1 across a manager restart, and the distribution deleted through v1beta1; hostile v1beta1
 * specs are refused with the v1beta1 field.
 */
class ResourceDistributionV1beta1EndToEndTest {
    static final String ALPHA = ResourceDistributionConversion.ALPHA;
    static final String BETA = ResourceDistributionConversion.BETA;
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .flags("--feature-gates=ResourceDistributionGate=true")
            .build();

    static void namespace(String name, Map<String, String> labels) {
        product.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
                .withLabels(labels).endMetadata().build()).create();
    }

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return product.client().genericKubernetesResources(object.getApiVersion(), object.getKind()).resource(object)
                .create();
    }

    static GenericKubernetesResource get(String apiVersion, String name) {
        return product.client().genericKubernetesResources(apiVersion, "ResourceDistribution").withName(name).get();
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

    static ConfigMap cm(String ns, String name) {
        return product.client().configMaps().inNamespace(ns).withName(name).get();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> condition(GenericKubernetesResource r, String type) {
        List<Map<String, Object>> conditions = at(r, "status", "conditions");
        return conditions == null ? Map.of() : conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst()
                .orElse(Map.of());
    }

    /** Edits through v1beta1, retrying when the controller's status write got in between (409). */
    static void editBeta(String name, Consumer<GenericKubernetesResource> change) {
        Await.waitFor("the v1beta1 edit of " + name, WAIT, () -> {
            try {
                product.client().genericKubernetesResources(BETA, "ResourceDistribution").withName(name).edit(r -> {
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

    @Test
    @SuppressWarnings("unchecked")
    void aV1beta1DistributionIsStoredAsV1alpha1AndFollowsItsNamespaceSelectorAcrossARestart() throws Exception {
        namespace("rdb-a", Map.of("team", "x"));
        namespace("rdb-b", Map.of("team", "x"));
        namespace("rdb-c", Map.of("team", "y"));
        namespace("rdb-d", Map.of());
        // Someone else's same-named ConfigMap in rdb-b: a conflict the status reports.
        product.client().configMaps().inNamespace("rdb-b").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("shared").endMetadata().addToData("key", "theirs").build()).create();
        create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"ResourceDistribution","metadata":{"name":"rdb"},
                 "spec":{"resource":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"shared"},
                           "data":{"key":"distributed"}},
                   "targets":{"includedNamespaces":{"list":[{"name":"rdb-d"}]},
                              "namespaceSelector":{"matchLabels":{"team":"x"}}}}}
                """);

        // Stored as v1alpha1 with the v1alpha1 spelling, which the controller reads.
        GenericKubernetesResource alpha = get(ALPHA, "rdb");
        assertEquals("x", at(alpha, "spec", "targets", "namespaceLabelSelector", "matchLabels", "team"));
        assertNull(at(alpha, "spec", "targets", "namespaceSelector"));
        GenericKubernetesResource beta = get(BETA, "rdb");
        assertEquals("x", at(beta, "spec", "targets", "namespaceSelector", "matchLabels", "team"));

        // The controller acts on it: copies in rdb-a and rdb-d; rdb-b's conflict reported as v1beta1 spells it.
        GenericKubernetesResource settled = Await.waitFor("3 targets, 2 in sync, seen through v1beta1", WAIT,
                () -> get(BETA, "rdb"), r -> number(r, "status", "desired") == 3 && number(r, "status", "succeeded") == 2
                        && "True".equals(condition(r, "ConflictOccurred").get("status")));
        assertEquals(List.of("rdb-b"), condition(settled, "ConflictOccurred").get("failedNamespaces"));
        assertNull(condition(settled, "ConflictOccurred").get("failedNamespace"), "no v1alpha1 spelling in v1beta1");
        assertEquals(List.of("rdb-b"), condition(get(ALPHA, "rdb"), "ConflictOccurred").get("failedNamespace"));
        assertEquals("distributed", cm("rdb-a", "shared").getData().get("key"));
        assertEquals("distributed", cm("rdb-d", "shared").getData().get("key"));
        assertEquals("theirs", cm("rdb-b", "shared").getData().get("key"), "someone else's object is left alone");
        List<GenericKubernetesResource> listed = product.client().genericKubernetesResources(BETA,
                "ResourceDistribution").list().getItems();
        assertTrue(listed.stream().anyMatch(r -> "rdb".equals(r.getMetadata().getName())
                && BETA.equals(r.getApiVersion())));

        // The selector changed through v1beta1 to team=y; the manager restarts meanwhile.
        editBeta("rdb", r -> ((Map<String, Object>) at(r, "spec", "targets", "namespaceSelector", "matchLabels"))
                .put("team", "y"));
        product.restartManager();
        Await.waitFor("copies follow the new selector", WAIT, () -> get(BETA, "rdb"),
                r -> number(r, "status", "desired") == 2 && number(r, "status", "succeeded") == 2
                        && cm("rdb-c", "shared") != null && cm("rdb-a", "shared") == null);
        assertEquals("theirs", cm("rdb-b", "shared").getData().get("key"));
        assertEquals("y", at(get(ALPHA, "rdb"), "spec", "targets", "namespaceLabelSelector", "matchLabels", "team"));

        // Written back through v1beta1 as read: no change.
        long generation = get(ALPHA, "rdb").getMetadata().getGeneration();
        editBeta("rdb", r -> { });
        assertEquals(generation, get(ALPHA, "rdb").getMetadata().getGeneration(), "a v1beta1 round trip is no change");

        // Deleted through v1beta1: the copies go with it, someone else's object stays.
        product.client().genericKubernetesResources(BETA, "ResourceDistribution").withName("rdb").delete();
        Await.waitFor("the distribution and its copies gone", WAIT, () -> get(ALPHA, "rdb") == null
                && cm("rdb-c", "shared") == null && cm("rdb-d", "shared") == null);
        assertEquals("theirs", cm("rdb-b", "shared").getData().get("key"));
    }

    @Test
    void hostileV1beta1SpecsAreRefusedWithTheV1beta1FieldAndNothingIsStored() {
        String head = """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"ResourceDistribution","metadata":{"name":"%s"},
                 "spec":{"resource":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}},"targets":""";
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("selector", new String[] {"{\"namespaceSelector\":{\"matchLabels\":{\"bad key!\":\"x\"}}}}}",
                "spec.targets.namespaceSelector"});
        cases.put("operator", new String[] {"{\"namespaceSelector\":{\"matchExpressions\":[{\"key\":\"a\","
                + "\"operator\":\"Sometimes\"}]}}}}", "spec.targets.namespaceSelector"});
        cases.put("names", new String[] {"{\"includedNamespaces\":{\"list\":[{\"name\":\"Not_A_Namespace\"},{\"name\":\""
                + "x".repeat(300) + "\"}]}}}}", "spec.targets.includedNamespaces"});
        cases.put("wrongtype", new String[] {"{\"allNamespaces\":\"yes-please\"}}}", "allNamespaces"});
        cases.put("ambiguous", new String[] {"{\"includedNamespaces\":{\"list\":[{\"name\":\"n1\"}]},"
                + "\"excludedNamespaces\":{\"list\":[{\"name\":\"n1\"}]}}}}", "ambiguous targets"});
        for (Map.Entry<String, String[]> c : cases.entrySet()) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> create(head.formatted(c.getKey()).strip() + c.getValue()[0]), c.getKey());
            assertTrue(e.getCode() == 422 || e.getCode() == 400, c.getKey() + ": " + e.getCode() + " " + e.getMessage());
            assertTrue(e.getMessage().contains(c.getValue()[1]), c.getKey() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("namespaceLabelSelector"), c.getKey() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("dev.kruisevertx"), e.getMessage());
            assertNull(get(ALPHA, c.getKey()), c.getKey() + " was stored");
        }
    }
}
