package dev.kruisevertx.api.policy.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise master's podunavailablebudget_conversion_test.go cases as facts (annotations promoted to typed fields
 * and written back, removed when the field is empty), this project's differences (non-canonical annotations kept
 * aside instead of refused), and round-trip properties over generated objects.
 */
class PodUnavailableBudgetConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OPS = "kruise.io/pub-protect-operations";
    private static final String TOTAL = "pub.kruise.io/protect-total-replicas";

    private static ObjectNode parse(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    @Test
    void alphaAnnotationsBecomeTypedBetaFieldsAndOtherFieldsPassThrough() throws Exception {
        ObjectNode alpha = parse("{'apiVersion':'policy.kruise.io/v1alpha1','kind':'PodUnavailableBudget',"
                + "'metadata':{'name':'pub','namespace':'ns','annotations':{'" + OPS + "':'DELETE,EVICT','"
                + TOTAL + "':'5','keep':'me'}},'spec':{'selector':{'matchLabels':{'app':'web'}},"
                + "'maxUnavailable':'25%','futureField':1},'status':{'unavailableAllowed':2,'totalReplicas':5}}");
        ObjectNode beta = PodUnavailableBudgetConversion.toV1beta1(alpha);
        assertEquals("policy.kruise.io/v1beta1", beta.get("apiVersion").asText());
        assertEquals(JSON.readTree("[\"DELETE\",\"EVICT\"]"), beta.at("/spec/protectOperations"));
        assertEquals(5, beta.at("/spec/protectTotalReplicas").asInt());
        assertEquals(parse("{'keep':'me'}"), beta.at("/metadata/annotations"));
        assertEquals(1, beta.at("/spec/futureField").asInt());
        assertEquals("25%", beta.at("/spec/maxUnavailable").asText());
        assertEquals(alpha.get("status"), beta.get("status"));
        assertEquals("DELETE,EVICT", alpha.at("/metadata/annotations/" + OPS.replace("/", "~1")).asText(),
                "the input is not modified");
        assertEquals(alpha, PodUnavailableBudgetConversion.toV1alpha1(beta));
    }

    @Test
    void betaFieldsAreWrittenBackOverStaleAnnotations() throws Exception {
        ObjectNode beta = parse("{'apiVersion':'policy.kruise.io/v1beta1','metadata':{'name':'pub','annotations':{'"
                + OPS + "':'DELETE','" + TOTAL + "':'1'}},'spec':{'protectOperations':['UPDATE','RESIZE'],"
                + "'protectTotalReplicas':7}}");
        ObjectNode alpha = PodUnavailableBudgetConversion.toV1alpha1(beta);
        assertEquals("policy.kruise.io/v1alpha1", alpha.get("apiVersion").asText());
        assertEquals(parse("{'" + OPS + "':'UPDATE,RESIZE','" + TOTAL + "':'7'}"), alpha.at("/metadata/annotations"));
        assertFalse(alpha.get("spec").has("protectOperations"));
        assertFalse(alpha.get("spec").has("protectTotalReplicas"));
    }

    @Test
    void emptyOrUnsetBetaFieldsRemoveTheAnnotationsTheyStoodFor() throws Exception {
        ObjectNode beta = parse("{'apiVersion':'policy.kruise.io/v1beta1','metadata':{'name':'pub','annotations':{'"
                + OPS + "':'DELETE','" + TOTAL + "':'3'}},'spec':{'protectOperations':[]}}");
        ObjectNode alpha = PodUnavailableBudgetConversion.toV1alpha1(beta);
        assertFalse(alpha.get("metadata").has("annotations"), alpha.toString());
        ObjectNode back = PodUnavailableBudgetConversion.toV1beta1(alpha);
        assertFalse(back.get("spec").has("protectOperations"), "an empty list reads back as unset");
    }

    @Test
    void nonCanonicalAnnotationsStayAnnotationsBothWays() throws Exception {
        // OpenKruise refuses these conversions; here they stay aside so nothing is lost.
        for (String[] pair : List.of(new String[]{OPS, "DELETE, EVICT"}, new String[]{OPS, "DELETE,BOGUS"},
                new String[]{OPS, "DELETE,,EVICT"}, new String[]{TOTAL, "007"}, new String[]{TOTAL, "abc"},
                new String[]{TOTAL, "99999999999"})) {
            ObjectNode alpha = parse("{'apiVersion':'policy.kruise.io/v1alpha1','metadata':{'name':'pub'},'spec':{}}");
            ((ObjectNode) alpha.get("metadata")).putObject("annotations").put(pair[0], pair[1]);
            ObjectNode beta = PodUnavailableBudgetConversion.toV1beta1(alpha);
            assertEquals(pair[1], beta.at("/metadata/annotations").get(pair[0]).asText(), pair[1]);
            assertTrue(beta.get("spec").isEmpty(), pair[1]);
            assertEquals(alpha, PodUnavailableBudgetConversion.toV1alpha1(beta), pair[1]);
        }
    }

    @Test
    void badInputIsRefusedWithTheFieldNamed() throws Exception {
        for (String spec : List.of("{'protectOperations':'DELETE'}", "{'protectOperations':[1]}",
                "{'protectTotalReplicas':'5'}", "{'protectTotalReplicas':1.5}",
                "{'protectTotalReplicas':99999999999}")) {
            ObjectNode beta = parse("{'apiVersion':'policy.kruise.io/v1beta1','spec':" + spec + "}");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PodUnavailableBudgetConversion.toV1alpha1(beta), spec);
            assertTrue(e.getMessage().startsWith("spec.protect"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class,
                () -> PodUnavailableBudgetConversion.toV1beta1(parse("{'apiVersion':'policy.kruise.io/v1beta1'}")));
        assertThrows(IllegalArgumentException.class,
                () -> PodUnavailableBudgetConversion.toV1alpha1(JSON.readTree("[]")));
    }

    @Test
    void generatedObjectsRoundTripUnchangedInBothDirections() throws Exception {
        Random random = new Random(27);
        List<String> ops = List.of("DELETE", "UPDATE", "EVICT", "RESIZE");
        List<String> odd = List.of("", "DELETE, EVICT", "BOGUS", "007", "-1", "12", "abc");
        for (int i = 0; i < 500; i++) {
            ObjectNode alpha = parse("{'apiVersion':'policy.kruise.io/v1alpha1','kind':'PodUnavailableBudget',"
                    + "'metadata':{'name':'p" + i + "'},'spec':{'minAvailable':" + i + "}}");
            ObjectNode annotations = ((ObjectNode) alpha.get("metadata")).putObject("annotations");
            if (random.nextBoolean()) {
                StringBuilder list = new StringBuilder();
                for (int n = 1 + random.nextInt(3); n > 0; n--) {
                    list.append(list.isEmpty() ? "" : ",").append(ops.get(random.nextInt(ops.size())));
                }
                annotations.put(OPS, random.nextInt(5) == 0 ? odd.get(random.nextInt(odd.size())) : list.toString());
            }
            if (random.nextBoolean()) {
                annotations.put(TOTAL, random.nextInt(4) == 0 ? odd.get(random.nextInt(odd.size()))
                        : Integer.toString(random.nextInt(1000)));
            }
            if (random.nextBoolean()) {
                annotations.put("other", "x" + i);
            }
            if (annotations.isEmpty()) {
                ((ObjectNode) alpha.get("metadata")).remove("annotations");
            }
            JsonNode beta = PodUnavailableBudgetConversion.toV1beta1(alpha);
            assertEquals(alpha, PodUnavailableBudgetConversion.toV1alpha1(beta), alpha.toString());
            assertEquals(beta, PodUnavailableBudgetConversion.toV1beta1(PodUnavailableBudgetConversion.toV1alpha1(beta)),
                    beta.toString());
        }
    }

    @Test
    void masterBackfillCaseKeepsTheIgnoredPodSelectorInsteadOfDroppingIt() throws Exception {
        // OpenKruise master's ConvertFrom case: DELETE,RESIZE and 9 written back, "keep" kept, no targetRef or
        // minAvailable invented; OpenKruise drops ignoredPodSelector, here it is kept aside and read back.
        ObjectNode beta = parse("{'apiVersion':'policy.kruise.io/v1beta1','kind':'PodUnavailableBudget',"
                + "'metadata':{'name':'pub-demo','namespace':'default','annotations':{'keep':'me'}},"
                + "'spec':{'selector':{'matchLabels':{'app':'demo'}},'maxUnavailable':1,"
                + "'protectOperations':['DELETE','RESIZE'],'protectTotalReplicas':9,"
                + "'ignoredPodSelector':{'matchLabels':{'kruise.io/force-deletable':'true'}}}}");
        ObjectNode alpha = PodUnavailableBudgetConversion.toV1alpha1(beta);
        assertEquals("DELETE,RESIZE", alpha.at("/metadata/annotations").get(OPS).asText());
        assertEquals("9", alpha.at("/metadata/annotations").get(TOTAL).asText());
        assertEquals("me", alpha.at("/metadata/annotations/keep").asText());
        assertEquals("{\"ignoredPodSelector\":{\"matchLabels\":{\"kruise.io/force-deletable\":\"true\"}}}",
                alpha.at("/metadata/annotations").get(PodUnavailableBudgetConversion.BETA_FIELDS_ANNOTATION).asText());
        assertEquals(parse("{'selector':{'matchLabels':{'app':'demo'}},'maxUnavailable':1}"), alpha.get("spec"));
        assertEquals(beta, PodUnavailableBudgetConversion.toV1beta1(alpha));
    }

    @Test
    void masterDropsTheDefaultOperationsAnnotationWhenTheFieldIsUnset() throws Exception {
        ObjectNode beta = parse("{'apiVersion':'policy.kruise.io/v1beta1','metadata':{'annotations':{'" + OPS
                + "':'DELETE'}}}");
        assertFalse(PodUnavailableBudgetConversion.toV1alpha1(beta).get("metadata").has("annotations"));
    }

    @Test
    void aNonCanonicalBetaFieldsAnnotationStaysAnAnnotation() throws Exception {
        String key = PodUnavailableBudgetConversion.BETA_FIELDS_ANNOTATION;
        for (String text : List.of("{}", "not json", "{\"ignoredPodSelector\": {}}", "{\"ignoredPodSelector\":[]}",
                "{\"ignoredPodSelector\":{},\"x\":1}")) {
            ObjectNode alpha = parse("{'apiVersion':'policy.kruise.io/v1alpha1','metadata':{'name':'pub'},'spec':{}}");
            ((ObjectNode) alpha.get("metadata")).putObject("annotations").put(key, text);
            ObjectNode beta = PodUnavailableBudgetConversion.toV1beta1(alpha);
            assertEquals(text, beta.at("/metadata/annotations").get(key).asText(), text);
            assertFalse(beta.get("spec").has("ignoredPodSelector"), text);
            assertEquals(alpha, PodUnavailableBudgetConversion.toV1alpha1(beta), text);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PodUnavailableBudgetConversion
                .toV1alpha1(parse("{'apiVersion':'policy.kruise.io/v1beta1','spec':{'ignoredPodSelector':'app=x'}}")));
        assertTrue(e.getMessage().startsWith("spec.ignoredPodSelector: Invalid value"), e.getMessage());
    }

    @Test
    void generatedBetaObjectsWithUnknownFieldsRoundTripUnchanged() throws Exception {
        Random random = new Random(2727);
        List<String> ops = List.of("DELETE", "UPDATE", "EVICT", "RESIZE");
        for (int i = 0; i < 1000; i++) {
            ObjectNode beta = parse("{'apiVersion':'policy.kruise.io/v1beta1','kind':'PodUnavailableBudget',"
                    + "'metadata':{'name':'b" + i + "','namespace':'ns'},'spec':{}}");
            ObjectNode spec = (ObjectNode) beta.get("spec");
            if (random.nextBoolean()) {
                spec.putObject("selector").putObject("matchLabels").put("app", "a" + random.nextInt(9));
            } else {
                spec.putObject("targetRef").put("apiVersion", "apps/v1").put("kind", "Deployment").put("name", "d" + i);
            }
            if (random.nextBoolean()) {
                spec.put("maxUnavailable", random.nextInt(4));
            } else {
                spec.put("minAvailable", random.nextInt(100) + "%");
            }
            if (random.nextBoolean()) {
                var list = spec.putArray("protectOperations");
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    list.add(ops.get(random.nextInt(ops.size())));
                }
            }
            if (random.nextBoolean()) {
                spec.put("protectTotalReplicas", random.nextInt(Integer.MAX_VALUE) - random.nextInt(3));
            }
            if (random.nextBoolean()) {
                ObjectNode ignored = spec.putObject("ignoredPodSelector");
                if (random.nextBoolean()) {
                    ignored.putObject("matchLabels").put("k" + random.nextInt(5), "v" + i);
                }
                if (random.nextBoolean()) {
                    ignored.putArray("matchExpressions").addObject().put("key", "tier").put("operator", "Exists")
                            .put("future", random.nextDouble());
                }
            }
            if (random.nextBoolean()) {
                spec.put("futureSpec", "f" + i);
            }
            if (random.nextBoolean()) {
                beta.putObject("status").put("unavailableAllowed", random.nextInt(5)).put("observedGeneration", i)
                        .put("futureStatus", true);
            }
            if (random.nextBoolean()) {
                ((ObjectNode) beta.get("metadata")).putObject("annotations").put("other", "o" + i);
            }
            if (random.nextBoolean()) {
                beta.put("futureTopLevel", i);
            }
            ObjectNode alpha = PodUnavailableBudgetConversion.toV1alpha1(beta);
            assertEquals(beta, PodUnavailableBudgetConversion.toV1beta1(alpha), beta.toString());
            assertEquals(alpha, PodUnavailableBudgetConversion.toV1alpha1(PodUnavailableBudgetConversion.toV1beta1(alpha)),
                    alpha.toString());
        }
    }
}
