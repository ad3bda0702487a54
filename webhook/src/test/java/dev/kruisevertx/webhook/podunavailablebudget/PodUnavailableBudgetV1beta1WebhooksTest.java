package dev.kruisevertx.webhook.podunavailablebudget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PodUnavailableBudget webhook and {@code /convert} for v1beta1 objects (v1alpha1 stays the stored version):
 * master's v1beta1-only checks, then the v1alpha1 rules on the converted object.
 */
class PodUnavailableBudgetV1beta1WebhooksTest {
    private static ObjectNode beta(String specJson) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(("{'apiVersion':'policy.kruise.io/v1beta1','kind':'PodUnavailableBudget',"
                + "'metadata':{'name':'b','namespace':'default'},'spec':{" + specJson + "}}").replace('\'', '"'));
    }

    private static AdmissionRequest request(String op, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "policy.kruise.io", "v1beta1", "PodUnavailableBudget",
                "podunavailablebudgets", "", "b", "default", op, object, old, false, null);
    }

    private static AdmissionResponse validate(ObjectNode object, ObjectNode old, List<PodUnavailableBudget> others)
            throws Exception {
        return PodUnavailableBudgetWebhooks.validating(true, ns -> others)
                .handle(request(old == null ? "CREATE" : "UPDATE", object, old))
                .toCompletionStage().toCompletableFuture().get();
    }

    private static AdmissionResponse validate(String spec) throws Exception {
        return validate(beta(spec), null, List.of());
    }

    @Test
    void aValidV1beta1BudgetIsAllowed() throws Exception {
        assertTrue(validate("'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,"
                + "'protectOperations':['DELETE','EVICT','RESIZE'],'protectTotalReplicas':5,"
                + "'ignoredPodSelector':{'matchLabels':{'skip':'true'}}").allowed());
        assertTrue(validate("'targetRef':{'apiVersion':'apps.kruise.io/v1alpha1','kind':'CloneSet','name':'web'},"
                + "'minAvailable':'50%'").allowed());
    }

    @Test
    void masterV1beta1OnlyChecksNameTheV1beta1Field() throws Exception {
        String base = "'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,";
        AdmissionResponse ops = validate(base + "'protectOperations':['DELETE','delete','PATCH']");
        assertFalse(ops.allowed());
        assertEquals(422, ops.code());
        assertEquals("[spec.protectOperations[1]: Unsupported value: \"delete\": supported values: \"DELETE\", \"UPDATE\", "
                + "\"EVICT\", \"RESIZE\", spec.protectOperations[2]: Unsupported value: \"PATCH\": supported values: "
                + "\"DELETE\", \"UPDATE\", \"EVICT\", \"RESIZE\"]", ops.message());
        AdmissionResponse zero = validate(base + "'protectTotalReplicas':0");
        assertEquals("spec.protectTotalReplicas: Invalid value: 0: must be greater than or equal to 1", zero.message());
        AdmissionResponse emptyIgnored = validate(base + "'ignoredPodSelector':{}");
        assertTrue(emptyIgnored.message().contains("spec.ignoredPodSelector: Invalid value: \"{}\": empty "
                + "ignoredPodSelector is not valid for PodUnavailableBudget"), emptyIgnored.message());
        AdmissionResponse badIgnored = validate(base + "'ignoredPodSelector':{'matchExpressions':[{'key':'a',"
                + "'operator':'Sometimes'}]}");
        assertFalse(badIgnored.allowed());
        assertTrue(badIgnored.message().contains("spec.ignoredPodSelector"), badIgnored.message());
    }

    @Test
    void hostileTypesAreDeniedWithTheFieldAndNoJavaNames() throws Exception {
        for (String[] c : List.of(
                new String[]{"'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,'protectTotalReplicas':'5'",
                        "spec.protectTotalReplicas"},
                new String[]{"'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,'protectTotalReplicas':99999999999",
                        "spec.protectTotalReplicas"},
                new String[]{"'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,'protectOperations':'DELETE'",
                        "spec.protectOperations"},
                new String[]{"'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,'protectOperations':[7]",
                        "spec.protectOperations"},
                new String[]{"'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,'ignoredPodSelector':'x=y'",
                        "spec.ignoredPodSelector"},
                new String[]{"'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':-3", "spec.maxUnavailable"},
                new String[]{"'selector':{'matchLabels':{'app':'b'}},'minAvailable':'250%'", "spec.minAvailable"})) {
            AdmissionResponse r = validate(c[0]);
            assertFalse(r.allowed(), c[0]);
            assertEquals(422, r.code(), c[0] + " " + r.message());
            assertTrue(r.message().contains(c[1]), c[0] + ": " + r.message());
            assertFalse(r.message().contains("dev.kruisevertx") || r.message().contains("java."), r.message());
        }
    }

    @Test
    void v1alpha1RulesApplyToTheConvertedObject() throws Exception {
        AdmissionResponse none = validate("'protectOperations':['DELETE']");
        assertTrue(none.message().contains("no selector or targetRef defined in PodUnavailableBudget"), none.message());
        assertTrue(none.message().contains("no maxUnavailable or minAvailable defined"), none.message());

        ObjectNode old = beta("'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1");
        ObjectNode moved = beta("'selector':{'matchLabels':{'app':'c'}},'maxUnavailable':1,'protectTotalReplicas':3");
        AdmissionResponse immutable = validate(moved, old, List.of());
        assertTrue(immutable.message().contains("selector and targetRef cannot be modified"), immutable.message());
        ObjectNode budgetOnly = beta("'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':2,"
                + "'protectOperations':['EVICT']");
        assertTrue(validate(budgetOnly, old, List.of()).allowed());

        // Another budget (read from the stored v1alpha1 cache) already protects the same pods.
        PodUnavailableBudget other = Json.toModel(Json.MAPPER.readTree(("{'apiVersion':'policy.kruise.io/v1alpha1',"
                + "'kind':'PodUnavailableBudget','metadata':{'name':'other','namespace':'default'},"
                + "'spec':{'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1}}").replace('\'', '"')),
                PodUnavailableBudget.class);
        AdmissionResponse conflict = validate(old, null, List.of(other));
        assertTrue(conflict.message().contains("conflict with other PodUnavailableBudget other"), conflict.message());
    }

    @Test
    void convertAnswersBothDirectionsAndFailsWithTheReason() throws Exception {
        ConversionRegistry conversions = new ConversionRegistry();
        PodUnavailableBudgetWebhooks.registerConversion(conversions);
        ObjectNode sent = beta("'selector':{'matchLabels':{'app':'b'}},'maxUnavailable':1,'protectOperations':"
                + "['DELETE','UPDATE'],'protectTotalReplicas':4,'ignoredPodSelector':{'matchLabels':{'skip':'yes'}}");
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "u1")
                .put("desiredAPIVersion", "policy.kruise.io/v1alpha1");
        ArrayNode objects = request.putArray("objects");
        objects.add(sent);
        JsonNode answer = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Success", answer.path("response").path("result").path("status").asText());
        JsonNode stored = answer.path("response").path("convertedObjects").get(0);
        assertEquals("policy.kruise.io/v1alpha1", stored.path("apiVersion").asText());
        assertEquals("DELETE,UPDATE", stored.path("metadata").path("annotations").path("kruise.io/pub-protect-operations")
                .asText());
        assertEquals("4", stored.path("metadata").path("annotations").path("pub.kruise.io/protect-total-replicas").asText());
        assertFalse(stored.path("spec").has("ignoredPodSelector"));

        request.put("desiredAPIVersion", "policy.kruise.io/v1beta1");
        objects.removeAll();
        objects.add(stored);
        JsonNode back = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals(sent, back.path("response").path("convertedObjects").get(0));

        request.put("desiredAPIVersion", "policy.kruise.io/v1alpha1");
        objects.removeAll();
        objects.add(beta("'protectTotalReplicas':'many'"));
        JsonNode failed = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Failure", failed.path("response").path("result").path("status").asText());
        assertTrue(failed.path("response").path("result").path("message").asText()
                .startsWith("cannot convert PodUnavailableBudget default/b to policy.kruise.io/v1alpha1: "
                        + "spec.protectTotalReplicas"), failed.toString());
    }
}
