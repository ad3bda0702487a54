package dev.kruisevertx.persistentpodstate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * v1beta1 PersistentPodStates through the embedded API server's real admission and conversion paths: validated as
 * v1beta1, stored as v1alpha1 (which the unchanged controller and the pod webhook read), recording an Advanced
 * StatefulSet's pods (minReadySeconds) with the recorded zones read back through v1beta1, pods deleted across a
 * manager restart created again in their zone, the PersistentPodState deleted through v1beta1; hostile v1beta1 specs
 * refused with the field.
 */
class PersistentPodStateV1beta1EndToEndTest {
    static final String ALPHA = "apps.kruise.io/v1alpha1";
    static final String BETA = "apps.kruise.io/v1beta1";
    static final String ZONE = "topology.kubernetes.io/zone";
    static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(6))
            .controllers(() -> List.of(new dev.kruisevertx.statefulset.StatefulSetController(),
                    new dev.kruisevertx.podreadiness.PodReadinessController(), new PersistentPodStateController()))
            .build();

    static String ns() {
        return product.namespace();
    }

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return product.client().genericKubernetesResources(object.getApiVersion(), object.getKind())
                .inNamespace(ns()).resource(object).create();
    }

    static JsonNode get(String apiVersion, String name) {
        GenericKubernetesResource r = product.client().genericKubernetesResources(apiVersion, "PersistentPodState")
                .inNamespace(ns()).withName(name).get();
        return r == null ? null : new ObjectMapper().valueToTree(r);
    }

    static void asts(String name, int replicas) {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns()).build());
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setReplicas(replicas);
        spec.setServiceName(name);
        // minReadySeconds lives under rollingUpdate in Advanced StatefulSet v1beta1.
        dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy rolling =
                new dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy();
        rolling.setMinReadySeconds(1);
        dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategy update =
                new dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategy();
        update.setType("RollingUpdate");
        update.setRollingUpdate(rolling);
        spec.setUpdateStrategy(update);
        spec.setPodManagementPolicy("Parallel");
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build());
        set.setSpec(spec);
        product.client().resources(StatefulSet.class).inNamespace(ns()).resource(set).create();
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(ns()).withLabel("app", app).list().getItems();
    }

    static String zoneOf(String node) {
        return product.client().nodes().withName(node).get().getMetadata().getLabels().get(ZONE);
    }

    @Test
    void aV1beta1PersistentPodStateIsStoredAsV1alpha1AndPodsComeBackToTheirZoneAcrossARestart() throws Exception {
        asts("web", 3);
        create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"PersistentPodState","metadata":{"name":"web"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"web"},
                   "requiredPersistentTopology":{"keys":["topology.kubernetes.io/zone"]},
                   "preferredPersistentTopology":[{"weight":100,"preference":{"keys":["kubernetes.io/hostname"]}}]}}
                """);
        JsonNode alpha = get(ALPHA, "web");
        assertEquals(ZONE, alpha.at("/spec/requiredPersistentTopology/nodeTopologyKeys/0").asText());
        assertEquals("kubernetes.io/hostname",
                alpha.at("/spec/preferredPersistentTopology/0/preference/nodeTopologyKeys/0").asText());
        assertFalse(alpha.at("/spec/requiredPersistentTopology").has("keys"));

        Await.waitFor("3 ready pods", WAIT, () -> pods("web"), ps -> ps.size() == 3
                && ps.stream().allMatch(p -> Pods.isReady(p) && p.getMetadata().getDeletionTimestamp() == null));
        JsonNode beta = Await.waitFor("3 pod states seen through v1beta1", WAIT, () -> get(BETA, "web"),
                r -> r.at("/status/podStates").size() == 3);
        assertEquals(BETA, beta.path("apiVersion").asText());
        assertEquals(List.of(ZONE), List.of(beta.at("/spec/requiredPersistentTopology/keys/0").asText()));
        Map<String, String> zones = new HashMap<>();
        Map<String, String> uids = new HashMap<>();
        for (Pod p : pods("web")) {
            String name = p.getMetadata().getName();
            assertEquals(p.getSpec().getNodeName(), beta.at("/status/podStates/" + name + "/nodeName").asText());
            zones.put(name, beta.at("/status/podStates/" + name + "/nodeTopologyLabels").get(ZONE).asText());
            assertEquals(zoneOf(p.getSpec().getNodeName()), zones.get(name));
            uids.put(name, p.getMetadata().getUid());
        }

        // The pods go, the manager restarts while they come back: each lands in its recorded zone.
        product.client().pods().inNamespace(ns()).withLabel("app", "web").delete();
        product.restartManager();
        List<Pod> again = Await.waitFor("3 new ready pods", WAIT, () -> pods("web"), ps -> ps.size() == 3
                && ps.stream().allMatch(p -> Pods.isReady(p) && p.getMetadata().getDeletionTimestamp() == null
                && !uids.get(p.getMetadata().getName()).equals(p.getMetadata().getUid())));
        for (Pod p : again) {
            String name = p.getMetadata().getName();
            assertEquals("web", Pods.annotations(p).get(PersistentPodState.INJECTED_ANNOTATION), name);
            assertEquals(zones.get(name), p.getSpec().getNodeSelector().get(ZONE), name);
            assertEquals(zones.get(name), zoneOf(p.getSpec().getNodeName()), name);
        }

        // A v1beta1 edit reaches the stored object; then deleted through v1beta1.
        Await.waitFor("the v1beta1 edit", WAIT, () -> {
            try {
                product.client().genericKubernetesResources(BETA, "PersistentPodState").inNamespace(ns())
                        .withName("web").edit(r -> {
                            @SuppressWarnings("unchecked")
                            Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
                            spec.put("persistentPodStateRetentionPolicy", "WhenDeleted");
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
        assertEquals("WhenDeleted", get(ALPHA, "web").at("/spec/persistentPodStateRetentionPolicy").asText());
        product.client().genericKubernetesResources(BETA, "PersistentPodState").inNamespace(ns()).withName("web")
                .delete();
        Await.waitFor("the PersistentPodState gone", WAIT, () -> get(ALPHA, "web") == null);
    }

    @Test
    void hostileV1beta1SpecsAreRefusedWithTheFieldAndNothingIsStored() {
        String head = """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"PersistentPodState","metadata":{"name":"%s"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"x"},""";
        Map<String, String> cases = Map.of(
                "badkey", "\"requiredPersistentTopology\":{\"keys\":[\"bad key\"]}}}",
                "wrongtype", "\"requiredPersistentTopology\":{\"keys\":\"zone\"}}}",
                "negative", "\"preferredPersistentTopology\":[{\"weight\":-1,\"preference\":{\"keys\":[\"zone\"]}}]}}",
                "huge", "\"preferredPersistentTopology\":[{\"weight\":99999999999,\"preference\":{\"keys\":[\"zone\"]}}]}}",
                "policy", "\"requiredPersistentTopology\":{\"keys\":[\"zone\"]},\"persistentPodStateRetentionPolicy\":"
                        + "\"Never\"}}");
        Map<String, String> expected = Map.of(
                "badkey", "spec.requiredPersistentTopology.keys[0]",
                "wrongtype", "spec.requiredPersistentTopology.keys",
                "negative", "spec.preferredPersistentTopology[0].weight",
                "huge", "spec.preferredPersistentTopology[0].weight",
                "policy", "spec.persistentPodStateRetentionPolicy");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> create(head.formatted(c.getKey()) + c.getValue()), c.getKey());
            assertTrue(e.getCode() == 422 || e.getCode() == 400, c.getKey() + ": " + e.getCode() + " " + e.getMessage());
            assertTrue(e.getMessage().contains(expected.get(c.getKey())), c.getKey() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("nodeTopologyKeys"), e.getMessage());
            assertFalse(e.getMessage().contains("dev.kruisevertx"), e.getMessage());
            assertNull(get(ALPHA, c.getKey()), c.getKey() + " was stored");
        }
    }
}
