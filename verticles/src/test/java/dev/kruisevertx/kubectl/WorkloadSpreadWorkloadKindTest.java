package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** WorkloadSpread for {@code kubectl kruise why}: its controller, its state line, no rollout commands. */
class WorkloadSpreadWorkloadKindTest {
    private static JsonNode json(String yaml) {
        try {
            return new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void resolvesToTheWorkloadSpreadController() {
        // The manager records the plan under this controller name: /why/workloadspread/NS/NAME.
        assertEquals(dev.kruisevertx.workloadspread.WorkloadSpreadController.NAME,
                WorkloadKinds.resolve("ws").controller());
        assertEquals("workloadspread.apps.kruise.io/spread",
                WorkloadKinds.target(List.of("WorkloadSpread.apps.kruise.io/spread")).displayName());
    }

    @Test
    void typesOfEitherServedVersionNameTheStoredV1alpha1Object() {
        for (String type : new String[]{"workloadspreads.v1beta1.apps.kruise.io", "workloadspread.v1beta1.apps.kruise.io",
                "WorkloadSpreads.v1alpha1.apps.kruise.io"}) {
            WorkloadKind kind = WorkloadKinds.resolve(type);
            assertEquals("WorkloadSpread", kind.kind(), type);
            assertEquals("v1alpha1", kind.context().getVersion(), type);
        }
        assertThrows(CliException.class, () -> WorkloadKinds.resolve("workloadspreads.v2.apps.kruise.io"));
    }

    @Test
    void rolloutCommandsRefuseAWorkloadSpread() {
        CliException e = assertThrows(CliException.class, () -> WorkloadKinds.rolloutTarget(List.of("ws/spread")));
        assertEquals("WorkloadSpread has no rollout; 'kubectl kruise why ws/spread' shows its state", e.getMessage());
    }

    @Test
    void theStateLineCountsEachSubset() {
        WorkloadKind k = new WorkloadSpreadWorkloadKind();
        var s = k.rolloutState(json("""
                metadata: {name: spread}
                status:
                  subsetStatuses:
                  - {name: zone-a, replicas: 2, missingReplicas: 0}
                  - {name: zone-b, replicas: 1, missingReplicas: 1}
                  - {name: rest, replicas: 3, missingReplicas: -1}
                """));
        assertFalse(s.done());
        assertEquals("workload spread \"spread\": zone-a 2 pods (0 missing), zone-b 1 pod (1 missing), "
                + "rest 3 pods (no limit)", s.message());
        assertEquals("workload spread \"spread\": not counted yet",
                k.rolloutState(json("{metadata: {name: spread}}")).message());
    }
}
