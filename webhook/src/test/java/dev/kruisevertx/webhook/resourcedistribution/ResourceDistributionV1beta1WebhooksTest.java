package dev.kruisevertx.webhook.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ResourceDistribution webhook and {@code /convert} for v1beta1 objects (v1alpha1 stays the stored version). */
class ResourceDistributionV1beta1WebhooksTest {

    private static ObjectNode beta(String targets) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(("{'apiVersion':'apps.kruise.io/v1beta1','kind':'ResourceDistribution',"
                + "'metadata':{'name':'rd'},'spec':{'resource':{'apiVersion':'v1','kind':'ConfigMap','metadata':"
                + "{'name':'c'},'data':{'k':'v'}},'targets':" + targets + "}}").replace('\'', '"'));
    }

    private static AdmissionResponse validate(String op, ObjectNode object, ObjectNode old) throws Exception {
        AdmissionRequest r = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1beta1",
                "ResourceDistribution", "resourcedistributions", "", "rd", "", op, object, old, false, null);
        return ResourceDistributionWebhooks.validating(true).handle(r).toCompletionStage().toCompletableFuture().get();
    }

    @Test
    void aValidV1beta1DistributionIsAllowed() throws Exception {
        AdmissionResponse r = validate("CREATE", beta("{'includedNamespaces':{'list':[{'name':'a'}]},"
                + "'namespaceSelector':{'matchLabels':{'team':'x'}}}"), null);
        assertTrue(r.allowed(), String.valueOf(r.message()));
    }

    @Test
    void errorsNameTheV1beta1Fields() throws Exception {
        AdmissionResponse r = validate("CREATE", beta("{'includedNamespaces':{'list':[{'name':'Not_A_Namespace'}]},"
                + "'namespaceSelector':{'matchLabels':{'bad key!':'x'}}}"), null);
        assertFalse(r.allowed());
        assertEquals(422, r.code());
        assertTrue(r.message().contains("spec.targets.namespaceSelector"), r.message());
        assertFalse(r.message().contains("namespaceLabelSelector"), r.message());
        assertTrue(r.message().contains("spec.targets.includedNamespaces"), r.message());
    }

    @Test
    void anUpdateThroughV1beta1ChangingTheResourceKindIsRefused() throws Exception {
        ObjectNode old = beta("{'allNamespaces':true}");
        ObjectNode changed = beta("{'allNamespaces':true}");
        ((ObjectNode) changed.at("/spec/resource")).put("kind", "Secret");
        AdmissionResponse r = validate("UPDATE", changed, old);
        assertFalse(r.allowed(), "the resource kind may not change, whichever version writes it");
    }

    @Test
    void convertAnswersBothDirections() throws Exception {
        ConversionRegistry conversions = new ConversionRegistry();
        ResourceDistributionWebhooks.registerConversion(conversions);
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "u1")
                .put("desiredAPIVersion", "apps.kruise.io/v1alpha1");
        ArrayNode objects = request.putArray("objects");
        ObjectNode sent = beta("{'namespaceSelector':{'matchLabels':{'team':'x'}}}");
        objects.add(sent);
        JsonNode answer = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Success", answer.at("/response/result/status").asText());
        JsonNode alpha = answer.at("/response/convertedObjects/0");
        assertEquals("x", alpha.at("/spec/targets/namespaceLabelSelector/matchLabels/team").asText());

        request.put("desiredAPIVersion", "apps.kruise.io/v1beta1");
        objects.removeAll();
        objects.add(alpha);
        JsonNode back = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals(sent, back.at("/response/convertedObjects/0"));

        request.put("desiredAPIVersion", "apps.kruise.io/v2");
        JsonNode failed = conversions.review(Json.MAPPER.writeValueAsBytes(review));
        assertEquals("Failure", failed.at("/response/result/status").asText());
        assertTrue(failed.at("/response/result/message").asText().contains("the served versions are"),
                failed.at("/response/result/message").asText());
    }
}
