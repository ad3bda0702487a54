package dev.kruisevertx.ephemeraljob;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The benchmark's scenarios decide what their names say. */
class EphemeralJobDecisionBenchmarkTest {
    static EphemeralJobPlan decide(String scenario) {
        EphemeralJobDecisionBenchmark b = new EphemeralJobDecisionBenchmark();
        b.pods = 5000;
        b.scenario = scenario;
        b.setUp();
        return b.decide();
    }

    @Test
    void eachScenarioDecidesWhatItsNameSays() {
        EphemeralJobPlan fresh = decide("fresh");
        assertEquals(2500, fresh.status().getMatch());
        assertEquals(50, fresh.injectInto().size(), "parallelism 50");
        EphemeralJobPlan halfway = decide("halfway");
        assertEquals(1250, halfway.status().getSucceeded());
        assertEquals(50, halfway.status().getRunning());
        assertEquals(0, halfway.injectInto().size(), "50 running is the parallelism");
        EphemeralJobPlan done = decide("done");
        assertEquals("Succeeded", done.status().getPhase());
    }
}
