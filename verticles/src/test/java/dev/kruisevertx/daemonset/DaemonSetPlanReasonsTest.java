package dev.kruisevertx.daemonset;

import dev.kruisevertx.controller.reason.BlockReason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reasons the pure DaemonSet decision gives for pods it holds back, as {@code kubectl kruise why} prints them
 * (the notation of {@link DaemonSetPlannerTest}).
 */
class DaemonSetPlanReasonsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "nothing to update: no reason|-|n1,n2|a@n1:new:avail,b@n2:new:avail|-",
            "partition keeps two nodes|partition=2 lastdesired=3 mu=3|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:new:avail"
                    + "|Partition: updateStrategy.rollingUpdate.partition 2 keeps 2 pods at the current revision",
            "paused|paused|n1,n2|a@n1:old:avail,b@n2:old:avail"
                    + "|Paused: updateStrategy.rollingUpdate.paused is true: 2 pods wait for the update",
            "maxUnavailable used by a new pod not ready|-|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:new:notready"
                    + "|MaxUnavailable: updateStrategy.rollingUpdate.maxUnavailable 1 reached: 1 unavailable now (c); 2 pods wait to be updated",
            "the step that uses the budget names what is left|-|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail"
                    + "|MaxUnavailable: updateStrategy.rollingUpdate.maxUnavailable 1 reached: 1 unavailable now (c); 2 pods wait to be updated",
            "maxSurge used by a surge pod not available|ms=1 mu=0|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail,d@n3:new:notready"
                    + "|MaxSurge: updateStrategy.rollingUpdate.maxSurge 1 used: 1 extra pod not available yet (d); 2 pods wait to be updated",
            "preDelete hook holds a PreparingDelete pod|predelete|n1,n2|a@n1:old:avail:hook;pd,b@n2:old:avail"
                    + "|MaxUnavailable: updateStrategy.rollingUpdate.maxUnavailable 1 reached: 1 unavailable now (a); 1 pod waits to be updated"
                    + ";LifecycleHook: pod a waits in PreparingDelete for the preDelete hook to let go of label hold=true",
            "hook held while the manage step deletes|predelete nodesel=pool:a|n1{pool=b}|a@n1:new:avail:hook;pd"
                    + "|LifecycleHook: pod a waits in PreparingDelete for the preDelete hook to let go of label hold=true",
            "minReadySeconds|minready=30|n1,n2|a@n1:new:ready,b@n2:new:avail"
                    + "|MinReadySeconds: 1 ready pod not yet available (a): minReadySeconds 30, the next in 25s",
            "OnDelete holds nothing|ondelete|n1,n2|a@n1:old:avail,b@n2:old:avail|-",
    })
    void reasons(String name, String config, String nodes, String pods, String expected) {
        DaemonSetPlan plan = DaemonSetPlannerTest.decide(config == null ? "" : config, nodes, pods);
        List<String> texts = plan.reasons().stream().map(BlockReason::text).toList();
        assertEquals(expected == null ? List.of() : List.of(expected.split(";(?=[A-Z][A-Za-z]+: )")), texts, name);
        assertEquals(texts, plan.debugSummary().reasons().stream().map(BlockReason::text).toList(),
                "the debug summary carries the reasons");
    }
}
