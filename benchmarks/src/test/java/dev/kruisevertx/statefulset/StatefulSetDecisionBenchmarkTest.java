package dev.kruisevertx.statefulset;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark's scenarios decide what their names say, through the controller's own steps. */
class StatefulSetDecisionBenchmarkTest {
    @Test
    void eachScenarioDecidesWhatItsNameSays() {
        StatefulSetDecisionBenchmark b = new StatefulSetDecisionBenchmark();
        b.pods = 1000;
        b.setUp();
        assertTrue(b.decide("steady").plan().isEmpty(), b.decide("steady").plan().summary());
        // maxUnavailable 20% of 1000: 200 of the 600 old pods are updated in place at once.
        assertEquals(200, b.decide("inPlaceRollout").plan().actions().inPlace().size());
        assertEquals(200, b.decide("priorityRollout").plan().actions().inPlace().size());
        assertEquals(100, b.decide("scaleDownBy100").plan().actions().deletions().size());
        assertEquals(StatefulSetPlanner.MAX_CREATES_PER_PLAN,
                b.decide("largestReplicas").plan().actions().creations().size());
        assertEquals(1000, b.statusOnly().getReplicas());
    }
}
