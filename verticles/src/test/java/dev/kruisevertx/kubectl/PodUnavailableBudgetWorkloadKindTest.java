package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** PodUnavailableBudget for {@code kubectl kruise why}: its controller, its state line, no rollout commands. */
class PodUnavailableBudgetWorkloadKindTest {
    private static JsonNode json(String yaml) {
        try {
            return new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void resolvesToThePodUnavailableBudgetController() {
        // The manager records the budget's plan under this controller name: /why/podunavailablebudget/NS/NAME.
        assertEquals(dev.kruisevertx.podunavailablebudget.PodUnavailableBudgetController.NAME,
                WorkloadKinds.resolve("pub").controller());
        assertEquals("podunavailablebudget.policy.kruise.io/web-pub",
                WorkloadKinds.target(List.of("PodUnavailableBudget.policy.kruise.io/web-pub")).displayName());
    }

    @Test
    void typesOfEitherServedVersionNameTheStoredV1alpha1Budget() {
        for (String type : new String[]{"podunavailablebudgets.v1beta1.policy.kruise.io",
                "PodUnavailableBudget.v1beta1.policy.kruise.io", "podunavailablebudgets.v1alpha1.policy.kruise.io",
                "pub"}) {
            WorkloadKind kind = WorkloadKinds.resolve(type);
            assertEquals("PodUnavailableBudget", kind.kind(), type);
            assertEquals("v1alpha1", kind.context().getVersion(), type);
        }
        assertThrows(CliException.class, () -> WorkloadKinds.resolve("podunavailablebudgets.v2.policy.kruise.io"));
    }

    @Test
    void rolloutCommandsRefuseABudget() {
        CliException e = assertThrows(CliException.class, () -> WorkloadKinds.rolloutTarget(List.of("pub/web-pub")));
        assertEquals("PodUnavailableBudget has no rollout; 'kubectl kruise why pub/web-pub' shows its state",
                e.getMessage());
        assertEquals("CloneSet", WorkloadKinds.rolloutTarget(List.of("cloneset/web")).kind().kind());
    }

    @Test
    void theStateLineTellsWhatTheBudgetAllows() {
        WorkloadKind k = new PodUnavailableBudgetWorkloadKind();
        var s = k.rolloutState(json("""
                metadata: {name: web-pub}
                status: {unavailableAllowed: 0, desiredAvailable: 3, currentAvailable: 3, totalReplicas: 4,
                  disruptedPods: {web-1: "2026-01-01T00:00:00Z"}}
                """));
        assertFalse(s.done());
        assertEquals("pod unavailable budget \"web-pub\": 0 unavailable allowed (desired available 3, current 3 of 4 "
                + "replicas; 1 disrupted, 0 unavailable recorded)", s.message());
        assertEquals("pod unavailable budget \"web-pub\": not counted yet",
                k.rolloutState(json("{metadata: {name: web-pub}}")).message());
    }
}
