package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A UnitedDeployment as OpenKruise writes it reads into the model and writes back unchanged. */
class UnitedDeploymentSerializationTest {
    static final String SAMPLE = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"UnitedDeployment",
             "metadata":{"name":"web","namespace":"default"},
             "spec":{"replicas":6,"revisionHistoryLimit":10,
               "selector":{"matchLabels":{"app":"web"}},
               "template":{"cloneSetTemplate":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"selector":{"matchLabels":{"app":"web"}},
                   "template":{"metadata":{"labels":{"app":"web"}},
                     "spec":{"containers":[{"name":"main","image":"nginx:1"}]}}}}},
               "topology":{"subsets":[
                 {"name":"zone-a","replicas":"50%","nodeSelectorTerm":{"matchExpressions":[
                   {"key":"topology.kubernetes.io/zone","operator":"In","values":["a"]}]},
                  "tolerations":[{"key":"dedicated","operator":"Exists","effect":"NoSchedule"}],
                  "patch":{"metadata":{"labels":{"zone":"a"}},"futureField":[1,2]}},
                 {"name":"zone-b","minReplicas":1,"maxReplicas":"30%"}],
                 "scheduleStrategy":{"type":"Adaptive","adaptive":{"rescheduleCriticalSeconds":10,
                   "reserveUnschedulablePods":true}}},
               "updateStrategy":{"type":"Manual","manualUpdate":{"partitions":{"zone-a":2}}}},
             "status":{"replicas":6,"updatedReplicas":3,"currentRevision":"web-6d4f",
               "subsetReplicas":{"zone-a":3,"zone-b":3},
               "subsetStatuses":[{"name":"zone-b","conditions":[{"type":"Schedulable","status":"False",
                 "reason":"PodsPending"}]}],
               "updateStatus":{"updatedRevision":"web-7a1c","currentPartitions":{"zone-a":2}},
               "labelSelector":"app=web"}}
            """;

    @Test
    void readsAsTheKindAndRoundTripsEveryField() {
        HasMetadata read = ApiJson.serialization().unmarshal(SAMPLE, HasMetadata.class);
        UnitedDeployment ud = (UnitedDeployment) read;
        assertEquals("50%", ud.spec().topology().subsets().get(0).getReplicas().getStrVal());
        assertEquals(1, ud.spec().topology().subsets().get(1).getMinReplicas().getIntVal());
        assertEquals(2, ud.spec().getUpdateStrategy().getManualUpdate().getPartitions().get("zone-a"));
        assertEquals("main", ud.spec().template().getCloneSetTemplate().getSpec().getTemplate().getSpec()
                .getContainers().get(0).getName());
        assertEquals("web-7a1c", ud.status().getUpdateStatus().getUpdatedRevision());
        JsonNode expected = ApiJson.serialization().unmarshal(SAMPLE, JsonNode.class);
        JsonNode written = ApiJson.serialization().unmarshal(ApiJson.toJson(ud), JsonNode.class);
        assertEquals(expected, written);
    }

    @Test
    void scheduleStrategyDefaultsAsOpenKruise() {
        UnitedDeploymentScheduleStrategy none = new UnitedDeploymentScheduleStrategy();
        assertFalse(none.adaptiveMode());
        assertFalse(none.reservationMode());
        assertEquals(Duration.ofSeconds(30), none.rescheduleCriticalDuration());
        assertEquals(Duration.ofSeconds(300), none.unschedulableDuration());
        UnitedDeployment ud = ApiJson.serialization().unmarshal(SAMPLE, UnitedDeployment.class);
        UnitedDeploymentScheduleStrategy adaptive = ud.spec().topology().scheduleStrategy();
        assertTrue(adaptive.adaptiveMode());
        assertTrue(adaptive.reservationMode());
        assertEquals(Duration.ofSeconds(10), adaptive.rescheduleCriticalDuration());
        assertEquals(Duration.ofSeconds(300), adaptive.unschedulableDuration());
    }
}
