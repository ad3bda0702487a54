package dev.kruisevertx.cloneset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * v1beta1 CloneSets through the embedded API server's real admission and conversion paths: defaulted and validated
 * as v1beta1, stored as v1alpha1 (which the unchanged controller reads), listed and read back through
 * {@code clonesets.v1beta1.apps.kruise.io}, rolled out in place across a manager restart, and deleted through v1beta1.
 */
class CloneSetV1beta1EndToEndTest {
    static final String ALPHA = "apps.kruise.io/v1alpha1";
    static final String BETA = "apps.kruise.io/v1beta1";
    static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return product.client().genericKubernetesResources(object.getApiVersion(), object.getKind())
                .inNamespace(product.namespace()).resource(object).create();
    }

    static GenericKubernetesResource get(String apiVersion, String name) {
        return product.client().genericKubernetesResources(apiVersion, "CloneSet").inNamespace(product.namespace())
                .withName(name).get();
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

    static List<Pod> livePods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }

    /** Edits through v1beta1, retrying when the controller's status write got in between (409). */
    static void editBeta(String name, Consumer<GenericKubernetesResource> change) {
        Await.waitFor("the v1beta1 edit of " + name, WAIT, () -> {
            try {
                product.client().genericKubernetesResources(BETA, "CloneSet").inNamespace(product.namespace())
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

    @Test
    @SuppressWarnings("unchecked")
    void aV1beta1CloneSetIsServedStoredAsV1alpha1AndRolledOutInPlaceAcrossARestart() throws Exception {
        create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"CloneSet","metadata":{"name":"web"},
                 "spec":{"replicas":3,"minReadySeconds":1,"selector":{"matchLabels":{"app":"web"}},
                   "template":{"metadata":{"labels":{"app":"web"}},
                     "spec":{"containers":[{"name":"main","image":"nginx:1"}]}},
                   "scaleStrategy":{"excludePreparingDelete":true},
                   "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"podUpdatePolicy":"InPlaceIfPossible",
                     "maxUnavailable":1,"inPlaceUpdateStrategy":{"imagePreDownloadTimeoutSeconds":120}}}}}
                """);

        // Defaulted in v1beta1 spelling, and the stored v1alpha1 form is what the controller reads.
        GenericKubernetesResource beta = get(BETA, "web");
        assertEquals("RollingUpdate", at(beta, "spec", "updateStrategy", "type"));
        assertEquals(0, number(beta, "spec", "updateStrategy", "rollingUpdate", "partition"));
        assertEquals(10, number(beta, "spec", "revisionHistoryLimit"));
        assertEquals(120, number(beta, "spec", "updateStrategy", "rollingUpdate", "inPlaceUpdateStrategy",
                "imagePreDownloadTimeoutSeconds"));
        GenericKubernetesResource alpha = get(ALPHA, "web");
        assertEquals("InPlaceIfPossible", at(alpha, "spec", "updateStrategy", "type"));
        assertEquals(1, number(alpha, "spec", "updateStrategy", "maxUnavailable"));
        assertEquals(Boolean.TRUE, at(alpha, "spec", "scaleStrategy", "disablePVCReuse"));
        assertEquals("true", alpha.getMetadata().getLabels().get("apps.kruise.io/cloneset-scaling-exclude-preparing-delete"));
        assertEquals("120", alpha.getMetadata().getAnnotations().get("apps.kruise.io/image-predownload-timeout-seconds"));

        // The controller acts on it; its status reads back through v1beta1, and a v1beta1 list finds it.
        Await.waitFor("3 available pods, seen through v1beta1", WAIT, () -> get(BETA, "web"),
                r -> number(r, "status", "availableReplicas") == 3 && number(r, "status", "readyReplicas") == 3);
        List<GenericKubernetesResource> listed = product.client().genericKubernetesResources(BETA, "CloneSet")
                .inNamespace(product.namespace()).list().getItems();
        assertEquals(List.of("web"), listed.stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(BETA, listed.get(0).getApiVersion());
        Set<String> before = livePods("web").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        assertEquals(3, before.size());

        // A new image through v1beta1; the manager restarts mid-rollout; the pods are updated in place.
        editBeta("web", r -> ((List<Map<String, Object>>) at(r, "spec", "template", "spec", "containers")).get(0)
                .put("image", "nginx:2"));
        product.restartManager();
        GenericKubernetesResource done = Await.waitFor("3 updated ready pods", WAIT, () -> get(BETA, "web"),
                r -> number(r, "status", "updatedReadyReplicas") == 3 && number(r, "status", "availableReplicas") == 3
                        && number(r, "status", "observedGeneration") == r.getMetadata().getGeneration().intValue());
        Set<String> after = livePods("web").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        assertEquals(before, after, "InPlaceIfPossible kept the pods");
        assertTrue(livePods("web").stream().allMatch(p -> "nginx:2".equals(p.getSpec().getContainers().get(0).getImage())));
        assertEquals((String) at(done, "status", "updateRevision"), (String) at(done, "status", "currentRevision"));

        // Scale down through v1beta1 with the OnDelete-free podUpdatePolicy switch to ReCreate in the same write.
        editBeta("web", r -> {
            ((Map<String, Object>) at(r, "spec")).put("replicas", 1);
            ((Map<String, Object>) at(r, "spec", "updateStrategy", "rollingUpdate")).put("podUpdatePolicy", "ReCreate");
        });
        Await.waitFor("one pod", WAIT, () -> livePods("web").size() == 1);
        assertEquals("ReCreate", at(get(ALPHA, "web"), "spec", "updateStrategy", "type"));

        // The owner deleted through v1beta1: its pods go with it.
        product.client().genericKubernetesResources(BETA, "CloneSet").inNamespace(product.namespace()).withName("web")
                .delete();
        Await.waitFor("the CloneSet and its pods gone", WAIT,
                () -> get(ALPHA, "web") == null && livePods("web").isEmpty());
    }

    @Test
    void hostileV1beta1SpecsAreRefusedWithTheFieldAndNothingIsStored() {
        String head = """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"CloneSet","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"app":"h"}},
                   "template":{"metadata":{"labels":{"app":"h"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}""";
        Map<String, String> cases = Map.of(
                "canary", ",\"updateStrategy\":{\"type\":\"Canary\"}}}",
                "policy", ",\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"podUpdatePolicy\":\"Sometimes\"}}}}",
                "negative", ",\"replicas\":-5}}",
                "wrongtype", ",\"replicas\":\"7\"}}",
                "huge", ",\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":\"99999999999999999999%\"}}}}",
                "timeout", ",\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"inPlaceUpdateStrategy\":"
                        + "{\"imagePreDownloadTimeoutSeconds\":1e20}}}}}");
        Map<String, String> expected = Map.of(
                "canary", "spec.updateStrategy.type: Unsupported value: \"Canary\"",
                "policy", "spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"Sometimes\"",
                "negative", "spec.replicas",
                "wrongtype", "spec.replicas: Invalid value: \"7\"",
                "huge", "spec.updateStrategy.rollingUpdate.partition",
                "timeout", "imagePreDownloadTimeoutSeconds");
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
