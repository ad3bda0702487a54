package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BroadcastJob and AdvancedCronJob as kinds of the plugin: names, controllers, pause path and rollout line. */
class JobWorkloadKindsTest {
    private static JsonNode json(String yaml) {
        try {
            return new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void theJobKindsResolveToTheirControllers() {
        assertEquals("broadcastjob", WorkloadKinds.resolve("bcj").controller());
        assertEquals("broadcastjob", WorkloadKinds.resolve("BroadcastJob.apps.kruise.io").controller());
        assertEquals("advancedcronjob", WorkloadKinds.resolve("acj").controller());
        assertEquals("advancedcronjob", WorkloadKinds.resolve("advancedcronjobs").controller());
        assertEquals(List.of("spec", "paused"), WorkloadKinds.resolve("bcj").pausedPath());
        assertEquals("broadcastjob.apps.kruise.io/x", WorkloadKinds.resolve("bcj").displayName("x"));
    }

    @Test
    void aBroadcastJobIsDoneOnceFinished() {
        WorkloadKind k = new BroadcastJobWorkloadKind();
        var running = k.rolloutState(json("""
                metadata: {name: b}
                status: {phase: running, desired: 3, active: 1, succeeded: 1}
                """));
        assertFalse(running.done());
        assertEquals("Waiting for broadcast job \"b\" to finish: 3 desired, 1 active, 1 succeeded, 0 failed",
                running.message());
        assertTrue(k.rolloutState(json("{metadata: {name: b}, status: {phase: completed, desired: 1, succeeded: 1}}"))
                .done());
        assertTrue(k.rolloutState(json("{metadata: {name: b}, status: {phase: failed, desired: 1, failed: 1}}"))
                .message().startsWith("broadcast job \"b\" failed: "));
        assertFalse(k.rolloutState(json("{metadata: {name: b}}")).done(), "no status yet");
    }

    @Test
    void anAdvancedCronJobTellsItsRuns() {
        WorkloadKind k = new AdvancedCronJobWorkloadKind();
        var s = k.rolloutState(json("""
                metadata: {name: c}
                spec: {paused: true}
                status: {active: [{name: c-1}], lastScheduleTime: "2026-01-01T00:00:00Z"}
                """));
        assertFalse(s.done());
        assertEquals("advanced cron job \"c\" (paused): 1 active, last scheduled at 2026-01-01T00:00:00Z", s.message());
        assertEquals("advanced cron job \"c\": 0 active, never scheduled",
                k.rolloutState(json("{metadata: {name: c}}")).message());
    }
}
