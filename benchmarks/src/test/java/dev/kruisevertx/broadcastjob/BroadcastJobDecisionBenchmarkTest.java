package dev.kruisevertx.broadcastjob;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The benchmark's scenarios decide what their names say. */
class BroadcastJobDecisionBenchmarkTest {
    static BroadcastJobPlan decide(String scenario) {
        BroadcastJobDecisionBenchmark b = new BroadcastJobDecisionBenchmark();
        b.nodes = 2000;
        b.scenario = scenario;
        b.setUp();
        return b.decide();
    }

    @Test
    void eachScenarioDecidesWhatItsNameSays() {
        // 2000 nodes, a tenth in the gpu pool (not selected): 1800 desired; 10% of them at once.
        BroadcastJobPlan fresh = decide("fresh");
        assertEquals(1800, fresh.status().getDesired());
        assertEquals(180, fresh.createOn().size());
        BroadcastJobPlan halfway = decide("halfway");
        assertEquals("running", halfway.status().getPhase());
        assertEquals(0, halfway.createOn().size(), "a tenth already running is the parallelism");
        BroadcastJobPlan complete = decide("complete");
        assertEquals("completed", complete.status().getPhase());
    }
}
