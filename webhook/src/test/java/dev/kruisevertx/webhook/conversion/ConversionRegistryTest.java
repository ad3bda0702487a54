package dev.kruisevertx.webhook.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConversionRegistryTest {

    /** Toy: v1alpha1 has spec.size, v1beta1 spec.replicas. */
    static final Converter TOY = (obj, desired) -> {
        ObjectNode spec = obj.with("spec");
        if (desired.endsWith("/v1beta1") && spec.has("size")) {
            spec.set("replicas", spec.remove("size"));
        } else if (desired.endsWith("/v1alpha1") && spec.has("replicas")) {
            spec.set("size", spec.remove("replicas"));
        } else if (desired.endsWith("/v9")) {
            throw new ConversionException("Toy has no version v9");
        }
        return obj;
    };

    static JsonNode review(String apiVersion, String desired, String objects) throws Exception {
        return Json.MAPPER.readTree("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"ConversionReview\",\"request\":{"
                + "\"uid\":\"c-1\",\"desiredAPIVersion\":\"" + desired + "\",\"objects\":[" + objects + "]}}");
    }

    @Test
    void convertsWithTheRegisteredConverterAndAnswersInKind() throws Exception {
        ConversionRegistry registry = new ConversionRegistry().register("apps.kruise.io", "Toy", TOY);
        ObjectNode out = registry.review(review(ConversionRegistry.V1, "apps.kruise.io/v1beta1",
                "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"Toy\",\"spec\":{\"size\":3}},"
                        + "{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"Toy\",\"spec\":{\"replicas\":4}}"));
        assertEquals(ConversionRegistry.V1, out.path("apiVersion").asText());
        assertEquals("c-1", out.path("response").path("uid").asText());
        assertEquals("Success", out.path("response").path("result").path("status").asText());
        JsonNode first = out.path("response").path("convertedObjects").get(0);
        assertEquals("apps.kruise.io/v1beta1", first.path("apiVersion").asText());
        assertEquals(3, first.path("spec").path("replicas").asInt());
        assertEquals(4, out.path("response").path("convertedObjects").get(1).path("spec").path("replicas").asInt());

        ObjectNode back = registry.review(review(ConversionRegistry.V1BETA1, "apps.kruise.io/v1alpha1",
                "{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"Toy\",\"spec\":{\"replicas\":2}}"));
        assertEquals(ConversionRegistry.V1BETA1, back.path("apiVersion").asText());
        assertEquals(2, back.path("response").path("convertedObjects").get(0).path("spec").path("size").asInt());
    }

    @Test
    void failuresAreReportedInTheReview() throws Exception {
        ConversionRegistry registry = new ConversionRegistry().register("apps.kruise.io", "Toy", TOY);
        ObjectNode unknownKind = registry.review(review(ConversionRegistry.V1, "apps.kruise.io/v1beta1",
                "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"Other\"}"));
        assertEquals("Failure", unknownKind.path("response").path("result").path("status").asText());
        assertTrue(unknownKind.path("response").path("result").path("message").asText().contains("no converter registered for Other.apps.kruise.io"));
        ObjectNode refused = registry.review(review(ConversionRegistry.V1, "apps.kruise.io/v9",
                "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"Toy\",\"spec\":{}}"));
        assertEquals("Toy has no version v9", refused.path("response").path("result").path("message").asText());
    }

    /** Issue 16: once a review has a uid, whatever else is wrong is a Failure the API server shows its user. */
    @Test
    void answerableReviewsFailWithAMessageAndNoJavaNames() throws Exception {
        ConversionRegistry registry = new ConversionRegistry().register("apps.kruise.io", "Toy", TOY)
                .register("apps.kruise.io", "Broken", (o, v) -> {
                    throw new ClassCastException("class com.fasterxml.jackson.databind.node.TextNode cannot be cast");
                });
        JsonNode badDesired = registry.review(review("apiextensions.k8s.io/v1", "v1beta1", ""));
        assertEquals("c-1", badDesired.path("response").path("uid").asText());
        assertEquals("Failure", badDesired.path("response").path("result").path("status").asText());
        assertTrue(badDesired.path("response").path("result").path("message").asText()
                .contains("desiredAPIVersion must be group/version, got 'v1beta1'"), badDesired.toString());
        JsonNode notArray = registry.review(Json.MAPPER.readTree("{\"apiVersion\":\"apiextensions.k8s.io/v1beta1\","
                + "\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"c-2\",\"desiredAPIVersion\":\"apps.kruise.io/v1\","
                + "\"objects\":{\"a\":{\"apiVersion\":\"apps.kruise.io/v2\",\"kind\":\"Toy\"}}}}"));
        assertEquals("apiextensions.k8s.io/v1beta1", notArray.path("apiVersion").asText());
        assertTrue(notArray.path("response").path("result").path("message").asText()
                .contains("objects must be an array, got an object"), notArray.toString());
        JsonNode wrongKind = registry.review(Json.MAPPER.readTree("{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"c-3\"}}"));
        assertEquals("c-3", wrongKind.path("response").path("uid").asText());
        assertEquals("Failure", wrongKind.path("response").path("result").path("status").asText());
        JsonNode broken = registry.review(review("apiextensions.k8s.io/v1", "apps.kruise.io/v2",
                "{\"apiVersion\":\"apps.kruise.io/v1\",\"kind\":\"Broken\"}"));
        String message = broken.path("response").path("result").path("message").asText();
        assertEquals("cannot convert Broken to apps.kruise.io/v2: its content could not be read", message);
    }

    @Test
    void malformedReviewsAreRejected() throws Exception {
        ConversionRegistry registry = new ConversionRegistry();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> registry.review(Json.MAPPER.readTree("{\"kind\":\"AdmissionReview\"}")));
        assertTrue(e.getMessage().contains("expected kind ConversionReview"));
        e = assertThrows(IllegalArgumentException.class, () -> registry.review(Json.MAPPER.readTree(
                "{\"kind\":\"ConversionReview\",\"apiVersion\":\"apiextensions.k8s.io/v1\",\"request\":{\"desiredAPIVersion\":\"a/b\"}}")));
        assertTrue(e.getMessage().contains("uid is missing"));
        assertThrows(IllegalArgumentException.class,
                () -> registry.register("g", "K", TOY).register("g", "K", TOY));
    }
}
