package dev.kruisevertx.pub;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The answer to a refused pod when the budget's status write fails: no model class names (hostile-input storm). */
class PubGuardFailureTextTest {

    @Test
    void aJsonFailureIsToldInItsOwnWordsWithoutTheReferenceChain() {
        String json = "{\"status\":{\"disruptedPods\":{\"" + "p".repeat(65_101) + "\":\"2026-11-24T00:00:00Z\"}}}";
        com.fasterxml.jackson.core.JsonProcessingException parse = assertThrows(
                com.fasterxml.jackson.core.JsonProcessingException.class,
                () -> new com.fasterxml.jackson.databind.ObjectMapper().readValue(json, PodUnavailableBudget.class));
        RuntimeException wrapped = new IllegalStateException(parse);
        assertTrue(wrapped.getMessage().contains("dev.kruisevertx"), wrapped.getMessage());
        String text = PubGuard.failureText(wrapped);
        assertFalse(text.contains("dev.kruisevertx"), text);
        assertFalse(text.contains("com.fasterxml"), text);
        assertTrue(text.startsWith("cannot write the budget's status: Name length (65101)"), text);
    }

    @Test
    void anyOtherFailureKeepsItsMessage() {
        assertEquals("etcdserver: request timed out",
                PubGuard.failureText(new RuntimeException("etcdserver: request timed out")));
    }
}
