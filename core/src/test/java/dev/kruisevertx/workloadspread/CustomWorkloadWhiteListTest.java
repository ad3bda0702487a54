package dev.kruisevertx.workloadspread;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The custom workload whitelist of kruise-configuration, read as OpenKruise's Go decoding reads it. */
class CustomWorkloadWhiteListTest {
    @Test
    void readsOpenKruisesShapeWithGoStyleKeys() {
        CustomWorkloadWhiteList list = CustomWorkloadWhiteList.fromConfigMapData(Map.of(
                "WorkloadSpread_Watch_Custom_Workload_WhiteList", """
                        {"workloads":[{"Group":"kubeflow.org","Version":"v1","Kind":"TFJob",
                          "replicasPath":"spec.tfReplicaSpecs.Worker.replicas",
                          "subResources":[{"group":"apps","version":"v1","kind":"ReplicaSet"}]}]}
                        """));
        assertEquals(List.of(new CustomWorkloadWhiteList.Workload("kubeflow.org", "v1", "TFJob",
                List.of(new CustomWorkloadWhiteList.Workload("apps", "v1", "ReplicaSet", List.of(), "")),
                "spec.tfReplicaSpecs.Worker.replicas")), list.workloads());
        assertTrue(list.permits("kubeflow.org", "TFJob"));
        assertFalse(list.permits("apps", "ReplicaSet"), "sub-resources are owners of pods, not targets");
    }

    @Test
    void noEntryOrNullMeansNoCustomWorkloads() {
        assertEquals(CustomWorkloadWhiteList.EMPTY, CustomWorkloadWhiteList.fromConfigMapData(Map.of()));
        assertEquals(CustomWorkloadWhiteList.EMPTY, CustomWorkloadWhiteList.fromConfigMapData(null));
        assertEquals(CustomWorkloadWhiteList.EMPTY, CustomWorkloadWhiteList.parse("{}"));
        assertEquals(CustomWorkloadWhiteList.EMPTY, CustomWorkloadWhiteList.parse("null"));
    }

    @Test
    void aMalformedEntrySaysWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CustomWorkloadWhiteList.parse("{\"workloads\":[{\"Kind\":5}]}"));
        assertEquals("ConfigMap kruise-configuration entry WorkloadSpread_Watch_Custom_Workload_WhiteList is invalid: "
                + "workloads[0].kind must be a string", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CustomWorkloadWhiteList.parse("not json"));
        assertThrows(IllegalArgumentException.class, () -> CustomWorkloadWhiteList.parse("{\"workloads\":{}}"));
    }

    @Test
    void thePodUnavailableBudgetEntryIsReadUnderItsOwnKey() {
        Map<String, String> data = Map.of("PPS_Watch_Custom_Workload_WhiteList",
                "{\"workloads\":[{\"Group\":\"example.com\",\"Version\":\"v1\",\"Kind\":\"Game\"}]}");
        CustomWorkloadWhiteList pps = CustomWorkloadWhiteList.fromConfigMapData(data,
                "PPS_Watch_Custom_Workload_WhiteList");
        assertTrue(pps.permits("example.com", "Game"));
        assertEquals(CustomWorkloadWhiteList.EMPTY, CustomWorkloadWhiteList.fromConfigMapData(data),
                "WorkloadSpread's entry is another key");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CustomWorkloadWhiteList.fromConfigMapData(Map.of("PPS_Watch_Custom_Workload_WhiteList", "[1"),
                        "PPS_Watch_Custom_Workload_WhiteList"));
        assertEquals("ConfigMap kruise-configuration entry PPS_Watch_Custom_Workload_WhiteList is invalid: it is not JSON",
                e.getMessage());
    }
}
