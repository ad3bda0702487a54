package dev.kruisevertx.webhook.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionNamespace;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionSpec;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargetNamespaces;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargets;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.FieldError;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9.0's resourcedistribution_validating_test.go, ported as facts (same objects, same number of errors),
 * plus the immutability of the resource's identity and the conflict rule.
 */
class ResourceDistributionValidationTest {
    static final String SECRET = """
            {"apiVersion":"v1","data":{"test":"test"},"kind":"Secret","metadata":{"name":"test-secret-1"},"type":"Opaque"}""";
    static final String CONFIGMAP = """
            {"apiVersion":"v1","data":{"game.properties":"enemy.types=aliens,monsters\\nplayer.maximum-lives=5\\n",
             "player_initial_lives":"3"},"kind":"ConfigMap","metadata":{"name":"game-demo"}}""";

    static JsonNode json(String s) {
        try {
            return new ObjectMapper().readTree(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** OpenKruise's buildResourceDistribution: included ns-1, ns-2; excluded ns-3; environment=develop. */
    static ResourceDistribution rd(JsonNode resource) {
        ResourceDistribution rd = new ResourceDistribution();
        rd.setMetadata(new ObjectMetaBuilder().withName("test-resource-distribution").build());
        ResourceDistributionSpec spec = new ResourceDistributionSpec();
        spec.setResource(resource);
        ResourceDistributionTargets t = new ResourceDistributionTargets();
        t.setExcludedNamespaces(ResourceDistributionTargetNamespaces.of("ns-3"));
        t.setIncludedNamespaces(ResourceDistributionTargetNamespaces.of("ns-1", "ns-2"));
        t.setNamespaceLabelSelector(new LabelSelectorBuilder().addToMatchLabels("environment", "develop").build());
        spec.setTargets(t);
        rd.setSpec(spec);
        return rd;
    }

    static ResourceDistribution copy(ResourceDistribution rd) {
        return ApiJson.serialization().clone(rd);
    }

    @Test
    void createWithSecretOrConfigMapIsValid() {
        assertEquals(List.of(), ResourceDistributionValidation.validate(rd(json(SECRET)), null));
        assertEquals(List.of(), ResourceDistributionValidation.validate(rd(json(CONFIGMAP)), null));
    }

    @Test
    void emptyResourceIsOneError() {
        List<FieldError> errors = ResourceDistributionValidation.validate(rd(null), null);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).toString().contains("empty resource is not allowed"), errors.toString());
        assertEquals(1, ResourceDistributionValidation.validate(rd(json("{}")), null).size());
    }

    @Test
    void unreadableResourceIsOneError() {
        // OpenKruise's "something is wrong....!#@$#@$%@^^&#%$&": bytes that are no object; here the closest JSON is a
        // string (the API server never stores non-JSON).
        List<FieldError> errors = ResourceDistributionValidation.validate(
                rd(json("\"something is wrong....!#@$#@$%@^^&#%$&\"")), null);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).toString().contains("failed to deserialize resource"), errors.toString());
    }

    @Test
    void unsupportedKindIsRefused() {
        List<FieldError> errors = ResourceDistributionValidation.validate(rd(json(
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"}}")), null);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).toString().contains("only support [/Secret /ConfigMap]"), errors.toString());
    }

    @Test
    void addingATargetNamespaceOnUpdateIsValid() {
        ResourceDistribution old = rd(json(SECRET));
        ResourceDistribution updated = copy(old);
        updated.getSpec().getTargets().getIncludedNamespaces().getList().add(new ResourceDistributionNamespace("ns-4"));
        assertEquals(List.of(), ResourceDistributionValidation.validate(updated, old));
    }

    /** OpenKruise's TestValidateResourceDistributionTargets: exactly three errors. */
    @Test
    void targetsWithAnAmbiguousNamespaceAnEmptyNameAndABadSelectorAreThreeErrors() {
        ResourceDistributionTargets t = new ResourceDistributionTargets();
        t.setExcludedNamespaces(ResourceDistributionTargetNamespaces.of("ns-1"));
        t.setIncludedNamespaces(ResourceDistributionTargetNamespaces.of("ns-1", "ns-2", "kube-system", ""));
        t.setNamespaceLabelSelector(new LabelSelectorBuilder().addToMatchLabels("$#%$%", "#@$@#$").build());
        List<FieldError> errors = new java.util.ArrayList<>();
        ResourceDistributionValidation.validateTargets(t, errors);
        assertEquals(3, errors.size(), errors.toString());
        String all = errors.toString();
        assertTrue(all.contains("ambiguous targets because namespace [ns-1] is in both IncludedNamespaces.List and "
                + "ExcludedNamespaces.List"), all);
        assertTrue(all.contains("spec.targets.includedNamespaces"), all);
        assertTrue(all.contains("labelSelectorAsSelector error"), all);
    }

    /** OpenKruise's TestResourceDistributionUpdateConflict: the resource's name is immutable (one error). */
    @Test
    void renamingTheResourceOnUpdateIsOneError() {
        ResourceDistribution old = rd(json(SECRET));
        ResourceDistribution updated = rd(json(SECRET.replace("test-secret-1", "test-secret-2")));
        List<FieldError> errors = ResourceDistributionValidation.validate(updated, old);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).toString().contains("resource apiVersion, kind, and name are immutable"),
                errors.toString());
        assertEquals(1, ResourceDistributionValidation.validate(rd(json(CONFIGMAP.replace("game-demo",
                "test-secret-1"))), old).size(), "kind change");
    }

    @Test
    void changingTheDataOnUpdateIsValid() {
        ResourceDistribution old = rd(json(SECRET));
        assertEquals(List.of(), ResourceDistributionValidation.validate(rd(json(SECRET.replace("\"test\":\"test\"",
                "\"test\":\"changed\""))), old));
    }

    @Test
    void aBadNameIsRefused() {
        ResourceDistribution bad = rd(json(SECRET));
        bad.getMetadata().setName("Upper_Case");
        assertEquals(1, ResourceDistributionValidation.validate(bad, null).size());
    }

    @Test
    void aWrongTypedFieldDoesNotDecode() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () ->
                dev.kruisevertx.webhook.admission.Json.decode(json("{\"apiVersion\":\"apps.kruise.io/v1alpha1\","
                        + "\"kind\":\"ResourceDistribution\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"resource\":"
                        + "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}},"
                        + "\"targets\":{\"allNamespaces\":\"yes-please\"}}}"), ResourceDistribution.class));
    }
}
