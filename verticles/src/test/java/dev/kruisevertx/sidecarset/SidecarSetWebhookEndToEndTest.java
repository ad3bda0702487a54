package dev.kruisevertx.sidecarset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SidecarSets through the embedded API server's real admission and conversion paths: both versions are defaulted,
 * validated and stored as v1beta1, and each reads back in the other version through {@code /convert}.
 */
class SidecarSetWebhookEndToEndTest {
    static final String ALPHA = "apps.kruise.io/v1alpha1";
    static final String BETA = "apps.kruise.io/v1beta1";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return product.client().genericKubernetesResources(object.getApiVersion(), object.getKind()).resource(object)
                .create();
    }

    static GenericKubernetesResource get(String apiVersion, String name) {
        return product.client().genericKubernetesResources(apiVersion, "SidecarSet").withName(name).get();
    }

    /** A short name unique to the running test (SidecarSets are cluster-scoped and their names at most 63 long). */
    static String name(String suffix) {
        return "s" + Integer.toHexString(product.namespace().hashCode()) + "-" + suffix;
    }

    @SuppressWarnings("unchecked")
    static <T> T at(GenericKubernetesResource r, String... path) {
        Object node = r.getAdditionalProperties();
        for (String p : path) {
            node = node == null ? null : ((Map<String, Object>) node).get(p);
        }
        return (T) node;
    }

    @Test
    void v1alpha1IsDefaultedStoredAsV1beta1AndReadBackInBothVersions() {
        String name = name("alpha");
        create("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
                 "metadata":{"name":"%s","labels":{"apps.kruise.io/sidecarset-custom-version":"v1","team":"a"}},
                 "spec":{"namespace":"%s","selector":{"matchLabels":{"app":"web"}},
                   "containers":[{"name":"shipper","image":"busybox:1.36"}]}}
                """.formatted(name, product.namespace()));

        GenericKubernetesResource beta = get(BETA, name);
        assertEquals(Map.of("kubernetes.io/metadata.name", product.namespace()),
                at(beta, "spec", "namespaceSelector", "matchLabels"));
        assertNull(at(beta, "spec", "namespace"));
        assertEquals("v1", at(beta, "spec", "customVersion"));
        assertEquals(Map.of("team", "a"), beta.getMetadata().getLabels());
        assertEquals("RollingUpdate", at(beta, "spec", "updateStrategy", "type"));
        assertEquals(10, ((Number) at(beta, "spec", "revisionHistoryLimit")).intValue());
        assertEquals("BeforeAppContainer", ((java.util.List<Map<String, Object>>) at(beta, "spec", "containers"))
                .get(0).get("podInjectPolicy"));
        assertTrue(beta.getMetadata().getAnnotations().containsKey("kruise.io/sidecarset-hash"));
        assertTrue(beta.getMetadata().getAnnotations().containsKey("kruise.io/sidecarset-hash-without-image"));

        GenericKubernetesResource alpha = get(ALPHA, name);
        assertEquals("v1", alpha.getMetadata().getLabels().get("apps.kruise.io/sidecarset-custom-version"));
        assertNull(at(alpha, "spec", "customVersion"));
        // As in OpenKruise, the namespace reads back as the equivalent namespaceSelector.
        assertEquals(Map.of("kubernetes.io/metadata.name", product.namespace()),
                at(alpha, "spec", "namespaceSelector", "matchLabels"));
    }

    @Test
    void v1beta1ReadsBackAsV1alpha1AndAnImageChangeKeepsTheHashWithoutImage() {
        String name = name("beta");
        create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"app":"web"}},"customVersion":"v2",
                   "containers":[{"name":"agent","image":"busybox:1.36"}]}}
                """.formatted(name));
        GenericKubernetesResource alpha = get(ALPHA, name);
        assertEquals("v2", alpha.getMetadata().getLabels().get("apps.kruise.io/sidecarset-custom-version"));

        GenericKubernetesResource before = get(BETA, name);
        KubernetesClient client = product.client();
        // The controller may write the status between edit's read and its patch: a 409 is retried.
        GenericKubernetesResource after = null;
        for (int attempt = 0; after == null; attempt++) {
            try {
                after = client.genericKubernetesResources(BETA, "SidecarSet").withName(name).edit(r -> {
                    ((java.util.List<Map<String, Object>>) at(r, "spec", "containers")).get(0).put("image", "busybox:1.37");
                    return r;
                });
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 20) {
                    throw e;
                }
            }
        }
        String hash = "kruise.io/sidecarset-hash";
        String withoutImage = "kruise.io/sidecarset-hash-without-image";
        assertFalse(before.getMetadata().getAnnotations().get(hash).equals(after.getMetadata().getAnnotations().get(hash)));
        assertEquals(before.getMetadata().getAnnotations().get(withoutImage),
                after.getMetadata().getAnnotations().get(withoutImage));
    }

    @Test
    void hostileSidecarSetsAreRefusedWithAFieldMessageAndNothingIsStored() {
        String prefix = name("h");
        Object[][] cases = {
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-empty\"},\"spec\":{\"selector\":{},\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}",
                        "spec.selector: Invalid value: \"{}\": empty selector is not valid for sidecarset."},
                {"{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-none\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}}}}",
                        "no initContainer or container defined for SidecarSet"},
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-quoted\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"revisionHistoryLimit\":\"7\","
                        + "\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}",
                        "spec.revisionHistoryLimit: Invalid value: \"7\": must be an integer"},
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-pin\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"injectionStrategy\":{\"revision\":"
                        + "{\"revisionName\":\"nope\"}},\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}",
                        "Cannot find specific ControllerRevision"},
                // Negative and out of range
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-negative\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"updateStrategy\":"
                        + "{\"partition\":-1},\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}",
                        "spec.updateStrategy.partition"},
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-range\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"updateStrategy\":"
                        + "{\"maxUnavailable\":\"150%\"},\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}",
                        "spec.updateStrategy.maxUnavailable"},
                // resourcesPolicy expressions that would fail every pod creation, and a huge one
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-square\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"containers\":"
                        + "[{\"name\":\"a\",\"image\":\"i\",\"resourcesPolicy\":{\"targetContainersMode\":\"sum\","
                        + "\"targetContainersNameRegex\":\".*\",\"resourcesExpr\":{\"limits\":{\"cpu\":\"cpu*cpu\"}}}}]}}",
                        "invalid expression: multiplication of two quantities"},
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-huge\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"containers\":"
                        + "[{\"name\":\"a\",\"image\":\"i\",\"resourcesPolicy\":{\"targetContainersMode\":\"max\","
                        + "\"targetContainersNameRegex\":\".*\",\"resourcesExpr\":{\"requests\":{\"memory\":\""
                        + "(".repeat(20_000) + "memory" + ")".repeat(20_000) + "\"}}}}]}}",
                        "may not be more than 1024 characters (a resources expression)"},
                // A MergePatchJson value that is not JSON
                {"{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\",\"metadata\":{\"name\":\"" + prefix
                        + "-patch\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"containers\":"
                        + "[{\"name\":\"a\",\"image\":\"i\"}],\"patchPodMetadata\":[{\"annotations\":{\"k\":\"x\"},"
                        + "\"patchPolicy\":\"MergePatchJson\"}]}}",
                        "spec.patchPodMetadata.annotations[k]: Invalid value: \"x\": patchPolicy MergePatchJson: the "
                                + "value is not JSON"},
        };
        for (Object[] c : cases) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> create((String) c[0]));
            assertTrue(e.getCode() == 422 || e.getCode() == 400, e.getMessage());
            assertTrue(e.getMessage().contains((String) c[1]), e.getMessage());
            assertFalse(e.getMessage().contains("java.") || e.getMessage().contains("dev.kruisevertx"), e.getMessage());
        }
        assertTrue(product.client().genericKubernetesResources(BETA, "SidecarSet").list().getItems().stream()
                .noneMatch(s -> s.getMetadata().getName().startsWith(prefix + "-") && !s.getMetadata().getName()
                        .endsWith("-alpha") && !s.getMetadata().getName().endsWith("-beta")), "nothing was stored");
    }

    @Test
    void theUpgradeTypeOfAContainerCannotChange() {
        String name = name("immutable");
        create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"app":"web"}},"containers":[{"name":"proxy","image":"envoy:1"}]}}
                """.formatted(name));
        // A 409 (the controller's status write between edit's read and write) is retried: the webhook's answer is asked.
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> ConflictRetry.run(() ->
                product.client().genericKubernetesResources(BETA, "SidecarSet").withName(name).edit(r -> {
                    ((java.util.List<Map<String, Object>>) at(r, "spec", "containers")).get(0)
                            .put("upgradeStrategy", Map.of("upgradeType", "HotUpgrade", "hotUpgradeEmptyImage", "empty:1"));
                    return r;
                })));
        assertTrue(e.getMessage().contains("container proxy upgradeType is immutable"), e.getMessage());
    }
}
