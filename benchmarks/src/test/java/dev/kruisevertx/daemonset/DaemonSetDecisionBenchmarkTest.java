package dev.kruisevertx.daemonset;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark's scenarios decide what their names say. */
class DaemonSetDecisionBenchmarkTest {
    @Test
    void eachScenarioDecidesWhatItsNameSays() {
        DaemonSetDecisionBenchmark b = new DaemonSetDecisionBenchmark();
        b.nodes = 5000;
        DaemonSetPlan steady = DaemonSetPlanner.decide(b.snapshot("steady"));
        assertTrue(steady.statusOnly(), steady.reason());
        assertEquals(5000, steady.status().getDesiredNumberScheduled());
        // maxUnavailable 10% of 5000: 500 old pods updated in place in one step
        assertEquals(500, DaemonSetPlanner.decide(b.snapshot("rollout")).inPlaceUpdates().size());
        // maxSurge 5%: 250 new pods next to old ones
        assertEquals(250, DaemonSetPlanner.decide(b.snapshot("surgeRollout")).createOnNodes().size());
        // 500 nodes without a pod (cordoned ones too: daemon pods tolerate that taint); burstReplicas 250 caps the creates
        DaemonSetPlan newNodes = DaemonSetPlanner.decide(b.snapshot("newNodes"));
        assertEquals(DaemonSetPlan.Phase.MANAGE, newNodes.phase());
        assertEquals(250, newNodes.createOnNodes().size());
        assertEquals(500L, newNodes.counts().get("createWanted"));
    }
}
