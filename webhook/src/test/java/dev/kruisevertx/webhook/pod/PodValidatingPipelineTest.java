package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodValidatingPipelineTest {

    /** A JSON failure as the PUB check met it in the hostile storm (seed 53372347179319, pod-validate #19). */
    private static RuntimeException hugeKeyFailure() {
        String json = "{\"apiVersion\":\"policy.kruise.io/v1alpha1\",\"kind\":\"PodUnavailableBudget\","
                + "\"status\":{\"disruptedPods\":{\"" + "p".repeat(65_101) + "\":\"2026-11-24T00:00:00Z\"}}}";
        // Jackson's convertValue wraps a mapping failure the same way: IllegalArgumentException with its message.
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper()
                .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        return assertThrows(RuntimeException.class, () -> {
            try {
                mapper.readValue(json, PodUnavailableBudget.class);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        });
    }

    @Test
    void aFailedCheckAnswers500WithoutTheModelsClassNames() {
        RuntimeException failure = hugeKeyFailure();
        assertTrue(failure.getMessage().contains("dev.kruisevertx"), "the raw message names the model: " + failure.getMessage());
        PodValidatingPipeline pipeline = new PodValidatingPipeline().register(request -> Future.failedFuture(failure));
        AdmissionResponse r = pipeline.handle(null).result();
        assertFalse(r.allowed());
        assertEquals(500, r.code());
        assertFalse(r.message().contains("dev.kruisevertx"), r.message());
        assertFalse(r.message().contains("com.fasterxml"), r.message());
        assertTrue(r.message().startsWith("cannot process the object: Name length (65101) exceeds the maximum allowed"),
                r.message());
    }

    @Test
    void aThrowingCheckKeepsItsOwnMessage() {
        PodValidatingPipeline pipeline = new PodValidatingPipeline().register(request -> {
            throw new IllegalArgumentException("pod name is too long");
        });
        AdmissionResponse r = pipeline.handle(null).result();
        assertEquals(500, r.code());
        assertEquals("pod name is too long", r.message());
    }

    /** A parser's failure without a message (BigDecimal's NumberFormatException) shows no class name. */
    @Test
    void aFailureWithoutAMessageShowsNoClassName() {
        PodValidatingPipeline pipeline = new PodValidatingPipeline().register(request -> {
            throw new NumberFormatException();
        });
        AdmissionResponse r = pipeline.handle(null).result();
        assertEquals(500, r.code());
        assertEquals("the check failed on a value it could not read", r.message());
    }
}
