package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WorkloadSpread v1alpha1 <-> v1beta1: OpenKruise master's conversion cases (apis/apps/v1alpha1/conversion_test.go,
 * TestWorkloadSpread_ConvertTo / ConvertFrom / RoundTrip) as facts, where this project deliberately differs said so,
 * and round-trip properties over random objects of both versions with unknown fields and annotations.
 */
class WorkloadSpreadConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static ObjectNode tree(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static ObjectNode alpha(String rest) throws Exception {
        return tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'WorkloadSpread'," + rest + "}");
    }

    private static ObjectNode beta(String rest) throws Exception {
        return tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'WorkloadSpread'," + rest + "}");
    }

    // --- OpenKruise's TestWorkloadSpread_ConvertTo ---

    @Test
    void allFieldsPopulatedWithNodeSelectorsAndConditions() throws Exception {
        ObjectNode a = alpha("'metadata':{'name':'ws-test','namespace':'default'},'spec':{"
                + "'targetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'my-deploy'},"
                + "'targetFilter':{'replicasPathList':['spec.replicas']},"
                + "'subsets':[{'name':'zone-a','requiredNodeSelectorTerm':{'matchExpressions':[{'key':'zone',"
                + "'operator':'In','values':['a']}]},'preferredNodeSelectorTerms':[{'weight':10,'preference':{}}],"
                + "'maxReplicas':5}],"
                + "'scheduleStrategy':{'type':'Adaptive','adaptive':{'disableSimulationSchedule':true,"
                + "'rescheduleCriticalSeconds':30}}},"
                + "'status':{'observedGeneration':3,'subsetStatuses':[{'name':'zone-a','replicas':2,'missingReplicas':1,"
                + "'conditions':[{'type':'Schedulable','status':'False','reason':'InsufficientResources',"
                + "'message':'no CPU'}]}]}");
        ObjectNode expected = beta("'metadata':{'name':'ws-test','namespace':'default'},'spec':{"
                + "'targetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'my-deploy'},"
                + "'targetFilter':{'replicasPathList':['spec.replicas']},"
                + "'subsets':[{'name':'zone-a','requiredNodeSelector':{'matchExpressions':[{'key':'zone',"
                + "'operator':'In','values':['a']}]},'preferredNodeSelector':[{'weight':10,'preference':{}}],"
                + "'maxReplicas':5}],"
                + "'scheduleStrategy':{'type':'Adaptive','adaptive':{'disableSimulationSchedule':true,"
                + "'rescheduleCriticalSeconds':30}}},"
                + "'status':{'observedGeneration':3,'subsetStatuses':[{'name':'zone-a','replicas':2,'missingReplicas':1,"
                + "'conditions':[{'type':'Schedulable','status':'False','reason':'InsufficientResources',"
                + "'message':'no CPU'}]}]}");
        assertEquals(expected, WorkloadSpreadConversion.toV1beta1(a));
        assertEquals(a, WorkloadSpreadConversion.toV1alpha1(expected));
    }

    @Test
    void emptyReasonInAlphaConditionBecomesUnknownInBeta() throws Exception {
        ObjectNode a = alpha("'metadata':{'name':'ws-noreason'},'status':{'subsetStatuses':[{'name':'s1',"
                + "'replicas':0,'missingReplicas':0,'conditions':[{'type':'Schedulable','status':'True','reason':'',"
                + "'message':''}]}]}");
        ObjectNode b = WorkloadSpreadConversion.toV1beta1(a);
        assertEquals("Unknown", b.at("/status/subsetStatuses/0/conditions/0/reason").asText());
        // "" is what this project's controller writes; it is the canonical partner of "Unknown": no record needed.
        assertTrue(b.at("/metadata/annotations").isMissingNode(), b.toString());
        assertEquals(a, WorkloadSpreadConversion.toV1alpha1(b));
    }

    @Test
    void missingAlphaReasonAlsoReadsUnknownAndIsRecordedSoItComesBackMissing() throws Exception {
        // Differs from OpenKruise: its typed conversion cannot tell a missing reason from "" and writes "" back.
        ObjectNode a = alpha("'metadata':{'name':'ws'},'status':{'subsetStatuses':[{'name':'s1','replicas':0,"
                + "'missingReplicas':0,'conditions':[{'type':'Schedulable','status':'True'},"
                + "{'type':'Other','status':'True','reason':'Unknown'}]}]}");
        ObjectNode b = WorkloadSpreadConversion.toV1beta1(a);
        assertEquals("Unknown", b.at("/status/subsetStatuses/0/conditions/0/reason").asText());
        assertEquals("Unknown", b.at("/status/subsetStatuses/0/conditions/1/reason").asText());
        JsonNode record = JSON.readTree(b.at("/metadata/annotations").get(WorkloadSpreadConversion.ALPHA_REASONS)
                .asText());
        assertEquals(JSON.readTree("{\"[\\\"subsetStatuses\\\",0,0]\":null,\"[\\\"subsetStatuses\\\",0,1]\":\"Unknown\"}"),
                record);
        ObjectNode back = WorkloadSpreadConversion.toV1alpha1(b);
        assertEquals(a, back);
        assertFalse(back.at("/status/subsetStatuses/0/conditions/0").has("reason"));
    }

    @Test
    void nilRequiredNodeSelectorTermStaysNil() throws Exception {
        ObjectNode b = WorkloadSpreadConversion.toV1beta1(alpha("'metadata':{'name':'ws-nil'},"
                + "'spec':{'subsets':[{'name':'s1'}]}"));
        assertEquals(tree("{'name':'s1'}"), b.at("/spec/subsets/0"));
    }

    @Test
    void emptyPreferredNodeSelectorTermsStaysAsSent() throws Exception {
        // OpenKruise's Go nil stays nil; an explicit [] passes through too (the JSON trees keep it).
        ObjectNode b = WorkloadSpreadConversion.toV1beta1(alpha("'metadata':{'name':'ws-empty-pref'},"
                + "'spec':{'subsets':[{'name':'s1','preferredNodeSelectorTerms':[]}]}"));
        assertEquals(tree("{'name':'s1','preferredNodeSelector':[]}"), b.at("/spec/subsets/0"));
    }

    @Test
    void versionedSubsetStatusesConditionsAreConverted() throws Exception {
        ObjectNode a = alpha("'metadata':{'name':'ws-versioned'},'status':{'versionedSubsetStatuses':{'v1':["
                + "{'name':'zone-a','replicas':0,'missingReplicas':0,'conditions':[{'type':'Schedulable',"
                + "'status':'True','reason':'OK'}]}],'v/2':[{'name':'zone-a','replicas':0,'missingReplicas':0,"
                + "'conditions':[{'type':'Schedulable','status':'True'}]}]}}");
        ObjectNode b = WorkloadSpreadConversion.toV1beta1(a);
        assertEquals("OK", b.at("/status/versionedSubsetStatuses/v1/0/conditions/0/reason").asText());
        assertEquals("Schedulable", b.at("/status/versionedSubsetStatuses/v1/0/conditions/0/type").asText());
        assertEquals("Unknown", b.get("status").get("versionedSubsetStatuses").get("v/2").get(0).get("conditions")
                .get(0).get("reason").asText());
        assertEquals(a, WorkloadSpreadConversion.toV1alpha1(b));
    }

    @Test
    void nilSubsetsNilVersionedStatusesAndSubsetsWithoutConditionsConvert() throws Exception {
        ObjectNode a = alpha("'metadata':{'name':'ws-no-subsets'},'spec':{},'status':{'subsetStatuses':"
                + "[{'name':'zone-a','replicas':1,'missingReplicas':0}]}");
        ObjectNode b = WorkloadSpreadConversion.toV1beta1(a);
        assertTrue(b.at("/spec/subsets").isMissingNode());
        assertTrue(b.at("/status/versionedSubsetStatuses").isMissingNode());
        assertTrue(b.at("/status/subsetStatuses/0/conditions").isMissingNode());
        assertEquals(a, WorkloadSpreadConversion.toV1alpha1(b));
    }

    // --- OpenKruise's TestWorkloadSpread_ConvertFrom ---

    @Test
    void fromBetaAllFieldsRenamesReversedConditionObservedGenerationKept() throws Exception {
        ObjectNode b = beta("'metadata':{'name':'ws-test','namespace':'default'},'spec':{"
                + "'targetRef':{'apiVersion':'apps/v1','kind':'CloneSet','name':'cs'},"
                + "'subsets':[{'name':'zone-b','requiredNodeSelector':{'matchExpressions':[{'key':'zone',"
                + "'operator':'In','values':['b']}]},'preferredNodeSelector':[{'weight':5,'preference':{}}]}]},"
                + "'status':{'observedGeneration':7,'subsetStatuses':[{'name':'zone-b','replicas':0,'missingReplicas':0,"
                + "'conditions':[{'type':'Schedulable','status':'True','reason':'OK','message':'all good',"
                + "'lastTransitionTime':'2026-11-24T10:00:00Z','observedGeneration':7}]}]}");
        ObjectNode a = WorkloadSpreadConversion.toV1alpha1(b);
        assertEquals("zone", a.at("/spec/subsets/0/requiredNodeSelectorTerm/matchExpressions/0/key").asText());
        assertEquals(1, a.at("/spec/subsets/0/preferredNodeSelectorTerms").size());
        assertFalse(a.at("/spec/subsets/0").has("requiredNodeSelector"));
        assertEquals("OK", a.at("/status/subsetStatuses/0/conditions/0/reason").asText());
        assertEquals(7, a.at("/status/observedGeneration").asInt());
        // OpenKruise drops the condition's observedGeneration; here it stays in the v1alpha1 condition.
        assertEquals(7, a.at("/status/subsetStatuses/0/conditions/0/observedGeneration").asInt());
        assertEquals(b, WorkloadSpreadConversion.toV1beta1(a));
    }

    @Test
    void fromBetaVersionedConditionsAndNilsConvertBack() throws Exception {
        ObjectNode b = beta("'metadata':{'name':'ws-v'},'spec':{'subsets':[{'name':'s1'}]},"
                + "'status':{'versionedSubsetStatuses':{'v2':[{'name':'zone-a','replicas':2,'missingReplicas':0,"
                + "'conditions':[{'type':'Schedulable','status':'False','reason':'Drained','message':'no nodes'}]}]}}");
        ObjectNode a = WorkloadSpreadConversion.toV1alpha1(b);
        assertEquals("Drained", a.at("/status/versionedSubsetStatuses/v2/0/conditions/0/reason").asText());
        assertEquals(tree("{'name':'s1'}"), a.at("/spec/subsets/0"));
        assertTrue(a.at("/status/subsetStatuses").isMissingNode());
        assertEquals(b, WorkloadSpreadConversion.toV1beta1(a));
    }

    @Test
    void fromBetaUnknownReasonIsTheControllersEmptyReasonAndEmptyBetaReasonsAreRecorded() throws Exception {
        ObjectNode b = beta("'metadata':{'name':'ws'},'status':{'subsetStatuses':[{'name':'s','replicas':0,"
                + "'missingReplicas':0,'conditions':[{'type':'A','status':'True','reason':'Unknown'},"
                + "{'type':'B','status':'True','reason':''},{'type':'C','status':'True'}]}]}");
        ObjectNode a = WorkloadSpreadConversion.toV1alpha1(b);
        assertEquals("", a.at("/status/subsetStatuses/0/conditions/0/reason").asText("x"));
        assertEquals("", a.at("/status/subsetStatuses/0/conditions/1/reason").asText("x"));
        assertFalse(a.at("/status/subsetStatuses/0/conditions/2").has("reason"));
        assertTrue(a.at("/metadata/annotations").has(WorkloadSpreadConversion.BETA_REASONS));
        assertEquals(b, WorkloadSpreadConversion.toV1beta1(a));
    }

    // --- OpenKruise's TestWorkloadSpread_RoundTrip ---

    @Test
    void roundTripKeepsEverything() throws Exception {
        ObjectNode a = alpha("'metadata':{'name':'ws-rt','namespace':'default','labels':{'env':'prod'}},'spec':{"
                + "'targetRef':{'apiVersion':'apps.kruise.io/v1beta1','kind':'CloneSet','name':'cs-rt'},"
                + "'subsets':[{'name':'zone-a','requiredNodeSelectorTerm':{'matchExpressions':[{'key':"
                + "'topology.kubernetes.io/zone','operator':'In','values':['us-east-1a']}]},"
                + "'preferredNodeSelectorTerms':[{'weight':100,'preference':{'matchExpressions':[{'key':'node-type',"
                + "'operator':'In','values':['fast']}]}}],'maxReplicas':3}],'scheduleStrategy':{'type':'Fixed'}},"
                + "'status':{'observedGeneration':5,'subsetStatuses':[{'name':'zone-a','replicas':3,'missingReplicas':0,"
                + "'conditions':[{'type':'Schedulable','status':'True','reason':'Sufficient',"
                + "'message':'all nodes available'}]}]}");
        assertEquals(a, WorkloadSpreadConversion.toV1alpha1(WorkloadSpreadConversion.toV1beta1(a)));
    }

    // --- this project's rules ---

    @Test
    void theOtherVersionsSpellingInASubsetIsRefusedWithTheField() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadSpreadConversion
                .toV1alpha1(beta("'metadata':{'name':'w'},'spec':{'subsets':[{'name':'a'},{'name':'b',"
                        + "'requiredNodeSelectorTerm':{}}]}")));
        assertEquals("spec.subsets[1].requiredNodeSelectorTerm: field not declared in schema: v1beta1 spells it "
                + "requiredNodeSelector", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> WorkloadSpreadConversion.toV1beta1(
                alpha("'metadata':{'name':'w'},'spec':{'subsets':[{'name':'a','preferredNodeSelector':[]}]}")));
        assertTrue(e.getMessage().startsWith("spec.subsets[0].preferredNodeSelector: field not declared"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WorkloadSpreadConversion.toV1beta1(
                beta("'metadata':{'name':'w'}")));
    }

    @Test
    void wrongTypedPartsPassThroughForValidationToName() throws Exception {
        ObjectNode a = alpha("'metadata':{'name':'w'},'spec':{'subsets':'oops'},'status':{'subsetStatuses':"
                + "[7,{'name':'x','conditions':'no'}],'versionedSubsetStatuses':[]}");
        ObjectNode b = WorkloadSpreadConversion.toV1beta1(a);
        assertEquals(a.get("spec"), b.get("spec"));
        assertEquals(a.get("status"), b.get("status"));
        assertEquals(a, WorkloadSpreadConversion.toV1alpha1(b));
    }

    @Test
    void aHandEditedRecordAnnotationIsIgnored() throws Exception {
        ObjectNode b = beta("'metadata':{'name':'w','annotations':{'" + WorkloadSpreadConversion.ALPHA_REASONS
                + "':'not json'}},'status':{'subsetStatuses':[{'name':'s','replicas':0,'missingReplicas':0,"
                + "'conditions':[{'type':'A','status':'True','reason':'Unknown'}]}]}");
        ObjectNode a = WorkloadSpreadConversion.toV1alpha1(b);
        assertEquals("", a.at("/status/subsetStatuses/0/conditions/0/reason").asText("x"));
        assertTrue(a.at("/metadata/annotations").isMissingNode());
    }

    @Test
    void typedModelsReadTheConvertedObjects() throws Exception {
        dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread typed = dev.kruisevertx.api.common.ApiJson.serialization()
                .convertValue(alpha("'metadata':{'name':'w','namespace':'n'},'spec':{'targetRef':{'apiVersion':"
                        + "'apps/v1','kind':'Deployment','name':'d'},'subsets':[{'name':'a','requiredNodeSelectorTerm':"
                        + "{'matchExpressions':[{'key':'z','operator':'In','values':['1']}]},'maxReplicas':'50%'}]},"
                        + "'status':{'subsetStatuses':[{'name':'a','replicas':1,'missingReplicas':0,'conditions':"
                        + "[{'type':'Schedulable','status':'False','reason':''}]}]}"),
                        dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread.class);
        WorkloadSpread b = WorkloadSpreadConversion.toV1beta1(typed);
        assertEquals("z", b.getSpec().getSubsets().get(0).getRequiredNodeSelector().getMatchExpressions().get(0)
                .getKey());
        assertEquals("50%", b.getSpec().getSubsets().get(0).getMaxReplicas().getStrVal());
        Condition c = b.getStatus().getSubsetStatuses().get(0).getConditions().get(0);
        assertEquals("Unknown", c.getReason());
        dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread back = WorkloadSpreadConversion.toV1alpha1(b);
        assertEquals(typed.getSpec().getSubsets().get(0).getRequiredNodeSelectorTerm(),
                back.getSpec().getSubsets().get(0).getRequiredNodeSelectorTerm());
        assertEquals(typed.getStatus(), back.getStatus());
        assertNull(back.getSpec().getSubsets().get(0).getAdditionalProperties().get("requiredNodeSelector"));
    }

    // --- properties ---

    @Test
    void randomAlphaObjectsSurviveAlphaBetaAlpha() {
        Random random = new Random(27);
        for (int i = 0; i < 3000; i++) {
            ObjectNode a = random(random, true);
            ObjectNode copy = a.deepCopy();
            ObjectNode b = WorkloadSpreadConversion.toV1beta1(a);
            assertEquals(copy, a, "input untouched");
            assertEquals(a, WorkloadSpreadConversion.toV1alpha1(b), () -> "case " + a + " via " + b);
        }
    }

    @Test
    void randomBetaObjectsSurviveBetaAlphaBeta() {
        Random random = new Random(72);
        for (int i = 0; i < 3000; i++) {
            ObjectNode b = random(random, false);
            ObjectNode copy = b.deepCopy();
            ObjectNode a = WorkloadSpreadConversion.toV1alpha1(b);
            assertEquals(copy, b, "input untouched");
            assertEquals(b, WorkloadSpreadConversion.toV1beta1(a), () -> "case " + b + " via " + a);
        }
    }

    /** A random WorkloadSpread of either version with unknown fields at every level, labels and annotations. */
    private static ObjectNode random(Random r, boolean alpha) {
        ObjectNode o = F.objectNode();
        o.put("apiVersion", alpha ? "apps.kruise.io/v1alpha1" : "apps.kruise.io/v1beta1").put("kind", "WorkloadSpread");
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", "ws-" + r.nextInt(1000)).put("namespace", "ns");
        if (r.nextBoolean()) {
            meta.putObject("labels").put("app", "a" + r.nextInt(5));
        }
        if (r.nextBoolean()) {
            meta.putObject("annotations").put("note", "n" + r.nextInt(5));
        }
        if (r.nextInt(5) == 0) {
            o.put("x-root", "unknown");
        }
        if (r.nextInt(8) != 0) {
            ObjectNode spec = o.putObject("spec");
            spec.putObject("targetRef").put("apiVersion", "apps/v1").put("kind", "Deployment").put("name", "d");
            if (r.nextBoolean()) {
                spec.putObject("targetFilter").putArray("replicasPathList").add("spec.replicas");
            }
            if (r.nextBoolean()) {
                ObjectNode strategy = spec.putObject("scheduleStrategy").put("type", r.nextBoolean() ? "Adaptive" : "Fixed");
                if (r.nextBoolean()) {
                    strategy.putObject("adaptive").put("rescheduleCriticalSeconds", r.nextInt(600));
                }
            }
            if (r.nextInt(4) != 0) {
                ArrayNode subsets = spec.putArray("subsets");
                for (int i = r.nextInt(4); i >= 0; i--) {
                    ObjectNode s = subsets.addObject().put("name", "s" + i);
                    if (r.nextBoolean()) {
                        s.putObject(alpha ? "requiredNodeSelectorTerm" : "requiredNodeSelector").putArray("matchExpressions")
                                .addObject().put("key", "zone").put("operator", "In").putArray("values").add("z" + i);
                    }
                    if (r.nextBoolean()) {
                        ArrayNode pref = s.putArray(alpha ? "preferredNodeSelectorTerms" : "preferredNodeSelector");
                        for (int j = r.nextInt(3); j > 0; j--) {
                            pref.addObject().put("weight", r.nextInt(100)).putObject("preference");
                        }
                    }
                    if (r.nextBoolean()) {
                        if (r.nextBoolean()) {
                            s.put("maxReplicas", r.nextInt(10));
                        } else {
                            s.put("maxReplicas", r.nextInt(100) + "%");
                        }
                    }
                    if (r.nextInt(3) == 0) {
                        s.putObject("patch").putObject("metadata").putObject("labels").put("k", "v");
                    }
                    if (r.nextInt(4) == 0) {
                        s.put("x-subset", r.nextInt(3));
                    }
                }
            }
        }
        if (r.nextBoolean()) {
            ObjectNode status = o.putObject("status").put("observedGeneration", r.nextInt(9));
            if (r.nextBoolean()) {
                status.set("subsetStatuses", statuses(r, alpha));
            }
            if (r.nextInt(3) == 0) {
                ObjectNode versioned = status.putObject("versionedSubsetStatuses");
                for (int i = r.nextInt(3); i >= 0; i--) {
                    versioned.set("rev-" + i, statuses(r, alpha));
                }
            }
        }
        return o;
    }

    private static ArrayNode statuses(Random r, boolean alpha) {
        ArrayNode list = F.arrayNode();
        for (int i = r.nextInt(3); i >= 0; i--) {
            ObjectNode s = list.addObject().put("name", "s" + i).put("replicas", r.nextInt(5))
                    .put("missingReplicas", r.nextInt(5) - 1);
            if (r.nextBoolean()) {
                s.putObject("creatingPods").put("p" + i, "2026-11-24T10:00:00Z");
            }
            if (r.nextBoolean()) {
                ArrayNode conditions = s.putArray("conditions");
                for (int j = r.nextInt(3); j >= 0; j--) {
                    ObjectNode c = conditions.addObject().put("type", j == 0 ? "Schedulable" : "T" + j)
                            .put("status", r.nextBoolean() ? "True" : "False")
                            .put("lastTransitionTime", "2026-11-24T10:00:0" + j + "Z");
                    switch (r.nextInt(5)) {
                        case 0 -> { } // missing
                        case 1 -> c.put("reason", "");
                        case 2 -> c.put("reason", "Unknown");
                        default -> c.put("reason", "R" + r.nextInt(3));
                    }
                    if (r.nextBoolean()) {
                        c.put("message", r.nextBoolean() ? "" : "m");
                    }
                    if (!alpha && r.nextBoolean()) {
                        c.put("observedGeneration", r.nextInt(9));
                    }
                    if (r.nextInt(5) == 0) {
                        c.put("x-condition", true);
                    }
                }
            }
        }
        return list;
    }
}
