package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** UnitedDeployment for {@code kubectl kruise why}: its controller, its state line, no rollout commands. */
class UnitedDeploymentWorkloadKindTest {
    private static JsonNode json(String yaml) {
        try {
            return new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void typesOfEitherServedVersionNameTheStoredV1alpha1Object() {
        for (String type : new String[]{"uniteddeployments.v1beta1.apps.kruise.io", "uniteddeployment.v1beta1.apps.kruise.io",
                "UnitedDeployments.v1alpha1.apps.kruise.io", "uniteddeployments.apps.kruise.io", "ud"}) {
            WorkloadKind kind = WorkloadKinds.resolve(type);
            assertEquals("UnitedDeployment", kind.kind(), type);
            assertEquals("v1alpha1", kind.context().getVersion(), type);
        }
        assertThrows(CliException.class, () -> WorkloadKinds.resolve("uniteddeployments.v2.apps.kruise.io"));
    }

    @Test
    void resolvesToTheUnitedDeploymentController() {
        assertEquals(dev.kruisevertx.uniteddeployment.UnitedDeploymentController.NAME,
                WorkloadKinds.resolve("ud").controller());
        assertEquals("uniteddeployment.apps.kruise.io/web",
                WorkloadKinds.target(List.of("UnitedDeployments.apps.kruise.io/web")).displayName());
        CliException e = assertThrows(CliException.class, () -> WorkloadKinds.rolloutTarget(List.of("ud/web")));
        assertEquals("UnitedDeployment has no rollout; 'kubectl kruise why ud/web' shows its state", e.getMessage());
    }

    @Test
    void theStateLineCountsReadyAndUpdatedPods() {
        WorkloadKind k = new UnitedDeploymentWorkloadKind();
        var done = k.rolloutState(json("""
                metadata: {name: web, generation: 2}
                spec: {replicas: 4}
                status: {observedGeneration: 2, replicas: 4, readyReplicas: 4, updatedReadyReplicas: 4,
                  currentRevision: web-1, updateStatus: {updatedRevision: web-1}, subsetReplicas: {a: 2, b: 2}}
                """));
        assertTrue(done.done());
        assertEquals("united deployment \"web\" successfully rolled out: 4 of 4 ready, 4 updated and ready, over 2 "
                + "subsets", done.message());
        var rolling = k.rolloutState(json("""
                metadata: {name: web, generation: 2}
                spec: {replicas: 4}
                status: {observedGeneration: 2, replicas: 4, readyReplicas: 3, updatedReadyReplicas: 1,
                  currentRevision: web-1, updateStatus: {updatedRevision: web-2}, subsetReplicas: {a: 4}}
                """));
        assertFalse(rolling.done());
        assertEquals("Waiting for united deployment \"web\": 3 of 4 ready, 1 updated and ready, over 1 subset",
                rolling.message());
        assertEquals("Waiting for united deployment \"web\" spec update to be observed...",
                k.rolloutState(json("{metadata: {name: web, generation: 3}, status: {observedGeneration: 2}}")).message());
    }
}
