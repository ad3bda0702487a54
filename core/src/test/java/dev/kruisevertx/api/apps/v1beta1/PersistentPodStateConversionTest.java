package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PersistentPodState v1alpha1 <-> v1beta1: OpenKruise master's conversion cases
 * (apis/apps/v1alpha1/persistent_pod_state_conversion_test.go) as facts, and round-trip properties over random objects
 * of both versions with unknown fields and annotations.
 */
class PersistentPodStateConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static ObjectNode tree(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static final String STATUS = "'status':{'observedGeneration':2,'podStates':{'web-0':{'nodeName':'node-1',"
            + "'nodeTopologyLabels':{'kubernetes.io/hostname':'node-1'},'annotations':{'foo':'bar'}}}}";

    // --- OpenKruise's TestPersistentPodState_ConvertTo ---

    @Test
    void allFieldsWithNodeTopologyKeys() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'PersistentPodState','metadata':"
                + "{'name':'pps','namespace':'default'},'spec':{'targetRef':{'apiVersion':'apps/v1','kind':'StatefulSet',"
                + "'name':'web'},'persistentPodAnnotations':[{'key':'foo'}],'requiredPersistentTopology':"
                + "{'nodeTopologyKeys':['kubernetes.io/hostname']},'preferredPersistentTopology':[{'weight':100,"
                + "'preference':{'nodeTopologyKeys':['topology.kubernetes.io/zone']}}],"
                + "'persistentPodStateRetentionPolicy':'WhenDeleted'}," + STATUS + "}");
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'PersistentPodState','metadata':"
                + "{'name':'pps','namespace':'default'},'spec':{'targetRef':{'apiVersion':'apps/v1','kind':'StatefulSet',"
                + "'name':'web'},'persistentPodAnnotations':[{'key':'foo'}],'requiredPersistentTopology':"
                + "{'keys':['kubernetes.io/hostname']},'preferredPersistentTopology':[{'weight':100,"
                + "'preference':{'keys':['topology.kubernetes.io/zone']}}],"
                + "'persistentPodStateRetentionPolicy':'WhenDeleted'}," + STATUS + "}");
        assertEquals(beta, PersistentPodStateConversion.toV1beta1(alpha));
        // OpenKruise's TestPersistentPodState_ConvertFrom and _RoundTrip: the same object back.
        assertEquals(alpha, PersistentPodStateConversion.toV1alpha1(beta));
    }

    @Test
    void emptyTopologyTermStaysEmpty() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'PersistentPodState','spec':{"
                + "'targetRef':{'apiVersion':'apps/v1','kind':'StatefulSet','name':'x'},"
                + "'preferredPersistentTopology':[{'weight':50,'preference':{}},{'weight':1,'preference':"
                + "{'nodeTopologyKeys':null}}]}}");
        ObjectNode beta = PersistentPodStateConversion.toV1beta1(alpha);
        assertEquals(tree("{'p':[{'weight':50,'preference':{}},{'weight':1,'preference':{'keys':null}}]}").get("p"),
                beta.at("/spec/preferredPersistentTopology"));
        assertEquals(alpha, PersistentPodStateConversion.toV1alpha1(beta));
    }

    @Test
    void fromBetaTwoKeysAndTheStatusMapFaithfully() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'PersistentPodState','metadata':"
                + "{'name':'pps','namespace':'ns'},'spec':{'targetRef':{'apiVersion':'apps/v1','kind':'StatefulSet',"
                + "'name':'web'},'requiredPersistentTopology':{'keys':['kubernetes.io/hostname',"
                + "'topology.kubernetes.io/zone']}}," + STATUS + "}");
        ObjectNode alpha = PersistentPodStateConversion.toV1alpha1(beta);
        assertEquals(tree("{'nodeTopologyKeys':['kubernetes.io/hostname','topology.kubernetes.io/zone']}"),
                alpha.at("/spec/requiredPersistentTopology"));
        assertEquals(beta.get("status"), alpha.get("status"));
        dev.kruisevertx.api.apps.v1alpha1.PersistentPodState typed = ApiJson.serialization().convertValue(alpha,
                dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.class);
        assertEquals(List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone"),
                typed.spec().getRequiredPersistentTopology().keys());
        PersistentPodState back = PersistentPodStateConversion.toV1beta1(typed);
        assertEquals(List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone"),
                back.getSpec().getRequiredPersistentTopology().getKeys());
    }

    // --- this project's rules ---

    @Test
    void bothSpellingsInOneTermAreRefusedWithTheField() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PersistentPodStateConversion
                .toV1alpha1(tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'PersistentPodState','spec':{"
                        + "'preferredPersistentTopology':[{'weight':1,'preference':{'keys':['a'],"
                        + "'nodeTopologyKeys':['b']}}]}}")));
        assertEquals("spec.preferredPersistentTopology[0].preference.nodeTopologyKeys: field not declared in schema: "
                + "this version spells it keys", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PersistentPodStateConversion.toV1beta1(
                tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'PersistentPodState','spec':{"
                        + "'requiredPersistentTopology':{'keys':[]}}}")));
        assertThrows(IllegalArgumentException.class, () -> PersistentPodStateConversion.toV1alpha1(
                tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'PersistentPodState'}")));
    }

    @Test
    void wrongTypedPartsPassThroughForValidationToName() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'PersistentPodState','spec':{"
                + "'requiredPersistentTopology':'x','preferredPersistentTopology':[3,{'preference':[]}]}}");
        ObjectNode beta = PersistentPodStateConversion.toV1beta1(alpha);
        assertEquals(alpha.get("spec"), beta.get("spec"));
        assertEquals(alpha, PersistentPodStateConversion.toV1alpha1(beta));
    }

    @Test
    void betaPathsNameTheV1beta1Field() {
        assertEquals("spec.requiredPersistentTopology.keys[0]",
                PersistentPodStateConversion.betaPath("spec.requiredPersistentTopology.nodeTopologyKeys[0]"));
        assertEquals("spec.preferredPersistentTopology[2].preference.keys",
                PersistentPodStateConversion.betaPath("spec.preferredPersistentTopology[2].preference.nodeTopologyKeys"));
        assertEquals("spec.targetRef", PersistentPodStateConversion.betaPath("spec.targetRef"));
    }

    // --- properties ---

    @Test
    void randomAlphaObjectsSurviveAlphaBetaAlpha() {
        Random random = new Random(27);
        for (int i = 0; i < 3000; i++) {
            ObjectNode alpha = random(random, true);
            ObjectNode copy = alpha.deepCopy();
            ObjectNode beta = PersistentPodStateConversion.toV1beta1(alpha);
            assertEquals(copy, alpha, "input untouched");
            assertTrue(!beta.toString().contains("nodeTopologyKeys"), beta::toString);
            assertEquals(alpha, PersistentPodStateConversion.toV1alpha1(beta), () -> "case " + alpha + " via " + beta);
        }
    }

    @Test
    void randomBetaObjectsSurviveBetaAlphaBeta() {
        Random random = new Random(72);
        for (int i = 0; i < 3000; i++) {
            ObjectNode beta = random(random, false);
            ObjectNode copy = beta.deepCopy();
            ObjectNode alpha = PersistentPodStateConversion.toV1alpha1(beta);
            assertEquals(copy, beta, "input untouched");
            assertEquals(beta, PersistentPodStateConversion.toV1beta1(alpha), () -> "case " + beta + " via " + alpha);
        }
    }

    private static ObjectNode random(Random r, boolean alpha) {
        String keys = alpha ? "nodeTopologyKeys" : "keys";
        ObjectNode o = F.objectNode();
        o.put("apiVersion", alpha ? "apps.kruise.io/v1alpha1" : "apps.kruise.io/v1beta1").put("kind", "PersistentPodState");
        ObjectNode meta = o.putObject("metadata").put("name", "pps-" + r.nextInt(100)).put("namespace", "ns");
        if (r.nextBoolean()) {
            meta.putObject("annotations").put("note", "n" + r.nextInt(3));
        }
        if (r.nextBoolean()) {
            meta.putObject("labels").put("app", "a");
        }
        if (r.nextInt(5) == 0) {
            o.put("x-root", 1);
        }
        ObjectNode spec = o.putObject("spec");
        spec.putObject("targetRef").put("apiVersion", "apps/v1").put("kind", "StatefulSet").put("name", "web");
        if (r.nextBoolean()) {
            spec.putArray("persistentPodAnnotations").addObject().put("key", "k" + r.nextInt(3));
        }
        if (r.nextBoolean()) {
            ObjectNode term = spec.putObject("requiredPersistentTopology");
            keyList(r, term, keys);
        }
        if (r.nextBoolean()) {
            ArrayNode preferred = spec.putArray("preferredPersistentTopology");
            for (int i = r.nextInt(3); i >= 0; i--) {
                ObjectNode item = preferred.addObject().put("weight", r.nextInt(101));
                if (r.nextInt(6) != 0) {
                    keyList(r, item.putObject("preference"), keys);
                }
                if (r.nextInt(5) == 0) {
                    item.put("x-item", "u");
                }
            }
        }
        if (r.nextBoolean()) {
            spec.put("persistentPodStateRetentionPolicy", r.nextBoolean() ? "WhenScaled" : "WhenDeleted");
        }
        if (r.nextBoolean()) {
            ObjectNode status = o.putObject("status").put("observedGeneration", r.nextInt(5));
            if (r.nextBoolean()) {
                ObjectNode state = status.putObject("podStates").putObject("web-" + r.nextInt(3))
                        .put("nodeName", "n" + r.nextInt(3));
                state.putObject("nodeTopologyLabels").put("kubernetes.io/hostname", "n");
                if (r.nextBoolean()) {
                    state.put("x-state", true);
                }
            }
        }
        return o;
    }

    private static void keyList(Random r, ObjectNode term, String keys) {
        switch (r.nextInt(4)) {
            case 0 -> term.putNull(keys);
            case 1 -> { } // missing
            default -> {
                ArrayNode list = term.putArray(keys);
                for (int i = r.nextInt(3); i > 0; i--) {
                    list.add("topology.kubernetes.io/k" + i);
                }
            }
        }
        if (r.nextInt(5) == 0) {
            term.put("x-term", "u");
        }
    }
}
