package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ResourceDistribution v1alpha1 <-> v1beta1: OpenKruise master's conversion cases
 * (apis/apps/v1alpha1/resourcedistribution_conversion_test.go and the fuzz round trip) as facts, and round-trip
 * properties over random objects of both versions, including unknown fields, annotations and colliding spellings.
 */
class ResourceDistributionConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static ObjectNode tree(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    // --- TestResourceDistributionConvertToV1beta1 ---

    @Test
    void toV1beta1RenamesTheSelectorAndTheFailedNamespaces() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'ResourceDistribution','metadata':{"
                + "'name':'demo','labels':{'app':'demo'}},'spec':{'resource':{'apiVersion':'v1','kind':'ConfigMap',"
                + "'metadata':{'name':'demo'},'data':{'k':'v'}},'targets':{'allNamespaces':true,'includedNamespaces':"
                + "{'list':[{'name':'ns-1'}]},'excludedNamespaces':{'list':[{'name':'ns-2'}]},'namespaceLabelSelector':"
                + "{'matchLabels':{'env':'prod'}}}},'status':{'desired':3,'succeeded':2,'failed':1,'observedGeneration':7,"
                + "'conditions':[{'type':'CreateResourceFailed','status':'True','reason':'create failed',"
                + "'failedNamespace':['ns-2']}]}}");
        ObjectNode beta = ResourceDistributionConversion.toV1beta1(alpha);
        assertEquals("apps.kruise.io/v1beta1", beta.path("apiVersion").asText());
        assertEquals("ResourceDistribution", beta.path("kind").asText());
        assertEquals(tree("{'env':'prod'}"), beta.at("/spec/targets/namespaceSelector/matchLabels"));
        assertFalse(beta.at("/spec/targets").has("namespaceLabelSelector"));
        assertTrue(beta.at("/spec/targets/allNamespaces").asBoolean());
        assertEquals("ns-1", beta.at("/spec/targets/includedNamespaces/list/0/name").asText());
        assertEquals(3, beta.at("/status/desired").asInt());
        assertEquals(7, beta.at("/status/observedGeneration").asInt());
        assertEquals(tree("{'a':['ns-2']}").get("a"), beta.at("/status/conditions/0/failedNamespaces"));
        assertFalse(beta.at("/status/conditions/0").has("failedNamespace"));
        assertFalse(beta.path("metadata").has("annotations"), "nothing kept aside");
        assertEquals(alpha, ResourceDistributionConversion.toV1alpha1(beta));
    }

    // --- TestResourceDistributionConvertFromV1beta1 ---

    @Test
    void toV1alpha1RenamesBackAndKeepsAnnotations() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'ResourceDistribution','metadata':{"
                + "'name':'demo','annotations':{'keep':'me'}},'spec':{'resource':{'apiVersion':'v1','kind':'Secret',"
                + "'metadata':{'name':'demo'},'type':'Opaque'},'targets':{'namespaceSelector':{'matchLabels':"
                + "{'team':'platform'}}}},'status':{'conditions':[{'type':'NamespaceNotExists','status':'True',"
                + "'failedNamespaces':['ns-a','ns-b']}]}}");
        ObjectNode alpha = ResourceDistributionConversion.toV1alpha1(beta);
        assertEquals("apps.kruise.io/v1alpha1", alpha.path("apiVersion").asText());
        assertEquals(tree("{'team':'platform'}"), alpha.at("/spec/targets/namespaceLabelSelector/matchLabels"));
        assertEquals(2, alpha.at("/status/conditions/0/failedNamespace").size());
        assertEquals("ns-b", alpha.at("/status/conditions/0/failedNamespace/1").asText());
        assertEquals(tree("{'keep':'me'}"), alpha.at("/metadata/annotations"));
        assertEquals(beta, ResourceDistributionConversion.toV1beta1(alpha));
    }

    // --- this project's rules ---

    @Test
    void aCollidingSpellingIsKeptAsideAndAStaleCopyIsDropped() throws Exception {
        // v1alpha1 preserves an unknown namespaceSelector next to namespaceLabelSelector: v1beta1 has one place.
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'ResourceDistribution','metadata':"
                + "{'name':'c'},'spec':{'targets':{'namespaceLabelSelector':{'matchLabels':{'a':'1'}},"
                + "'namespaceSelector':{'matchLabels':{'b':'2'}}}}}");
        ObjectNode beta = ResourceDistributionConversion.toV1beta1(alpha);
        assertEquals(tree("{'a':'1'}"), beta.at("/spec/targets/namespaceSelector/matchLabels"), "the typed field wins");
        assertTrue(beta.at("/metadata/annotations").has(ResourceDistributionConversion.ALPHA_TARGETS_ANNOTATION));
        assertEquals(alpha, ResourceDistributionConversion.toV1alpha1(beta));
        // Edited through v1beta1: the kept copy no longer converts to what the object holds, so it is dropped.
        ((ObjectNode) beta.at("/spec/targets/namespaceSelector/matchLabels")).put("a", "3");
        ObjectNode edited = ResourceDistributionConversion.toV1alpha1(beta);
        assertEquals(tree("{'a':'3'}"), edited.at("/spec/targets/namespaceLabelSelector/matchLabels"));
        assertFalse(edited.at("/spec/targets").has("namespaceSelector"));
        assertFalse(edited.path("metadata").has("annotations"));
    }

    @Test
    void typedModelsReadTheConvertedObjects() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'ResourceDistribution','metadata':"
                + "{'name':'t'},'spec':{'resource':{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'}},"
                + "'targets':{'namespaceLabelSelector':{'matchLabels':{'e':'p'}}}},'status':{'conditions':[{'type':"
                + "'ConflictOccurred','status':'True','failedNamespace':['n1']}]}}");
        ResourceDistribution beta = ApiJson.serialization().convertValue(ResourceDistributionConversion.toV1beta1(alpha),
                ResourceDistribution.class);
        assertEquals(Map.of("e", "p"), beta.getSpec().getTargets().getNamespaceSelector().getMatchLabels());
        assertEquals(List.of("n1"), beta.getStatus().getConditions().get(0).getFailedNamespaces());
        dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution back = ResourceDistributionConversion.toV1alpha1(beta);
        assertEquals(Map.of("e", "p"), back.spec().targets().getNamespaceLabelSelector().getMatchLabels());
        assertEquals(List.of("n1"), back.status().getConditions().get(0).getFailedNamespaces());
    }

    // --- round-trip properties (OpenKruise's FuzzResourceDistributionConversionRoundTrip, both ways) ---

    @Test
    void randomAlphaObjectsSurviveAlphaBetaAlpha() {
        Random random = new Random(27);
        for (int i = 0; i < 3000; i++) {
            ObjectNode alpha = randomObject(random, true);
            ObjectNode beta = ResourceDistributionConversion.toV1beta1(alpha);
            assertEquals(alpha, ResourceDistributionConversion.toV1alpha1(beta), "case " + i + ": " + alpha);
        }
    }

    @Test
    void randomBetaObjectsSurviveBetaAlphaBeta() {
        Random random = new Random(72);
        for (int i = 0; i < 3000; i++) {
            ObjectNode beta = randomObject(random, false);
            ObjectNode alpha = ResourceDistributionConversion.toV1alpha1(beta);
            assertEquals(beta, ResourceDistributionConversion.toV1beta1(alpha), "case " + i + ": " + beta);
        }
    }

    private static ObjectNode randomObject(Random r, boolean alpha) {
        String selector = alpha ? "namespaceLabelSelector" : "namespaceSelector";
        String other = alpha ? "namespaceSelector" : "namespaceLabelSelector";
        String failed = alpha ? "failedNamespace" : "failedNamespaces";
        String otherFailed = alpha ? "failedNamespaces" : "failedNamespace";
        ObjectNode o = F.objectNode();
        o.put("apiVersion", alpha ? ResourceDistributionConversion.ALPHA : ResourceDistributionConversion.BETA);
        o.put("kind", "ResourceDistribution");
        if (r.nextInt(4) > 0) {
            ObjectNode m = o.putObject("metadata").put("name", "rd-" + r.nextInt(50));
            if (r.nextBoolean()) {
                m.putObject("annotations").put("keep", "me" + r.nextInt(3));
            }
            if (r.nextBoolean()) {
                m.putObject("labels").put("app", "x");
            }
        }
        if (r.nextInt(5) > 0) {
            ObjectNode spec = o.putObject("spec");
            if (r.nextBoolean()) {
                spec.putObject("resource").put("apiVersion", "v1").put("kind", pick(r, "ConfigMap", "Secret"))
                        .putObject("metadata").put("name", "res");
            }
            if (r.nextInt(5) > 0) {
                ObjectNode targets = spec.putObject("targets");
                if (r.nextBoolean()) {
                    targets.put("allNamespaces", r.nextBoolean());
                }
                for (String list : new String[] {"includedNamespaces", "excludedNamespaces"}) {
                    if (r.nextBoolean()) {
                        ArrayNode names = targets.putObject(list).putArray("list");
                        for (int i = 0; i < r.nextInt(3); i++) {
                            names.addObject().put("name", "ns-" + r.nextInt(9));
                        }
                    }
                }
                if (r.nextBoolean()) {
                    targets.putObject(selector).putObject("matchLabels").put("env", "e" + r.nextInt(3));
                }
                if (r.nextInt(6) == 0) {
                    targets.putObject(other).putObject("matchLabels").put("shadow", "s"); // unknown in this version
                }
                if (r.nextInt(6) == 0) {
                    targets.put("futureTargetField", r.nextInt(5));
                }
            }
        }
        if (r.nextInt(3) > 0) {
            ObjectNode status = o.putObject("status");
            if (r.nextBoolean()) {
                status.put("desired", r.nextInt(5)).put("succeeded", r.nextInt(5)).put("failed", r.nextInt(3));
            }
            if (r.nextBoolean()) {
                status.put("observedGeneration", 1 + r.nextInt(9));
            }
            if (r.nextBoolean()) {
                ArrayNode conditions = status.putArray("conditions");
                for (int i = 0; i < r.nextInt(4); i++) {
                    ObjectNode c = conditions.addObject().put("type", pick(r, "Synced", "ConflictOccurred",
                            "NamespaceNotExists")).put("status", pick(r, "True", "False"));
                    if (r.nextBoolean()) {
                        ArrayNode names = c.putArray(failed);
                        for (int j = 0; j < r.nextInt(3); j++) {
                            names.add("ns-" + r.nextInt(9));
                        }
                    }
                    if (r.nextInt(8) == 0) {
                        c.putArray(otherFailed).add("shadow");
                    }
                }
            }
        }
        return o;
    }

    private static String pick(Random r, String... values) {
        return values[r.nextInt(values.length)];
    }
}
