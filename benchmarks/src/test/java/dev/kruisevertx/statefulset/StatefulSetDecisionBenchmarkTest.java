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
        assertTrue(b.decideSteady().plan().isEmpty(), b.decideSteady().plan().summary());
        // maxUnavailable 20% of 1000: 200 of the 600 old pods are updated in place at once.
        assertEquals(200, b.decideInPlaceRollout().plan().actions().inPlace().size());
        assertEquals(200, b.decidePriorityRollout().plan().actions().inPlace().size());
        assertEquals(100, b.decideScaleDownBy100().plan().actions().deletions().size());
        assertEquals(StatefulSetPlanner.MAX_CREATES_PER_PLAN,
                b.decideLargestReplicas().plan().actions().creations().size());
        assertEquals(1000, b.statusOnly().getReplicas());
    }
}
