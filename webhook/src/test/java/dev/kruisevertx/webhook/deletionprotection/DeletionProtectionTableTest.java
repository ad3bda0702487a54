package dev.kruisevertx.webhook.deletionprotection;

import dev.kruisevertx.webhook.deletionprotection.DeletionProtection.ClusterState;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtection.Decision;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtection.Gates;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtection.Lookup;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.stream.Stream;

import static dev.kruisevertx.webhook.deletionprotection.ProtectedKind.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The decision of OpenKruise v1.9.0's deletion protection (pkg/webhook/util/deletionprotection) as a table: kind x
 * label x object state x gates, with OpenKruise's exact messages. {@code ALLOW} rows expect no refusal and no warning,
 * {@code WARN:} rows an allowed delete with that warning.
 */
class DeletionProtectionTableTest {
    static final Gates ON = new Gates(true, true);
    static final Gates NO_CRD_GATE = new Gates(true, false);
    static final Gates OFF = new Gates(false, false);
    static final String ALLOW = "ALLOW";
    static final String ALWAYS_MSG = "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always";
    static final String CASCADING_MSG = "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading";

    static Stream<Arguments> table() {
        ClusterState none = ClusterState.EMPTY;
        return Stream.of(
                // gate off: nothing is protected
                arguments("01 gate off, Always namespace", NAMESPACE, "Always", false, OFF, none, ALLOW),
                arguments("02 gate off, Always CloneSet", CLONE_SET, "Always", false, OFF, none, ALLOW),
                arguments("03 gate off, Cascading Deployment with replicas", DEPLOYMENT, "Cascading", false, OFF,
                        ClusterState.replicas(3), ALLOW),
                arguments("04 gate off, Always CRD", CUSTOM_RESOURCE_DEFINITION, "Always", false, OFF, none, ALLOW),
                // Always refuses every kind
                arguments("05 Always namespace", NAMESPACE, "Always", false, ON, none, ALWAYS_MSG),
                arguments("06 Always Service", SERVICE, "Always", false, ON, none, ALWAYS_MSG),
                arguments("07 Always Ingress", INGRESS, "Always", false, ON, none, ALWAYS_MSG),
                arguments("08 Always CRD", CUSTOM_RESOURCE_DEFINITION, "Always", false, ON, none, ALWAYS_MSG),
                arguments("09 Always CRD without the cascading gate", CUSTOM_RESOURCE_DEFINITION, "Always", false,
                        NO_CRD_GATE, none, ALWAYS_MSG),
                arguments("10 Always Deployment", DEPLOYMENT, "Always", false, ON, ClusterState.replicas(0), ALWAYS_MSG),
                arguments("11 Always ReplicaSet", REPLICA_SET, "Always", false, ON, ClusterState.replicas(1), ALWAYS_MSG),
                arguments("12 Always apps/v1 StatefulSet", STATEFUL_SET, "Always", false, ON, none, ALWAYS_MSG),
                arguments("13 Always Advanced StatefulSet", ADVANCED_STATEFUL_SET, "Always", false, ON,
                        ClusterState.replicas(0), ALWAYS_MSG),
                arguments("14 Always CloneSet with 0 replicas", CLONE_SET, "Always", false, ON,
                        ClusterState.replicas(0), ALWAYS_MSG),
                arguments("15 Always UnitedDeployment", UNITED_DEPLOYMENT, "Always", false, ON, none, ALWAYS_MSG),
                // already being deleted: a repeated delete is allowed
                arguments("16 Always namespace already terminating", NAMESPACE, "Always", true, ON, none, ALLOW),
                arguments("17 Always CloneSet already deleting", CLONE_SET, "Always", true, ON, none, ALLOW),
                arguments("18 Cascading Deployment with replicas already deleting", DEPLOYMENT, "Cascading", true, ON,
                        ClusterState.replicas(5), ALLOW),
                // Cascading workloads: replicas > 0 refuses
                arguments("19 Cascading CloneSet replicas 3", CLONE_SET, "Cascading", false, ON,
                        ClusterState.replicas(3), CASCADING_MSG + " and replicas 3>0"),
                arguments("20 Cascading CloneSet replicas 0", CLONE_SET, "Cascading", false, ON,
                        ClusterState.replicas(0), ALLOW),
                arguments("21 Cascading CloneSet replicas unset", CLONE_SET, "Cascading", false, ON, none, ALLOW),
                arguments("22 Cascading Deployment replicas 1", DEPLOYMENT, "Cascading", false, ON,
                        ClusterState.replicas(1), CASCADING_MSG + " and replicas 1>0"),
                arguments("23 Cascading ReplicaSet replicas 0", REPLICA_SET, "Cascading", false, ON,
                        ClusterState.replicas(0), ALLOW),
                arguments("24 Cascading apps/v1 StatefulSet replicas 2", STATEFUL_SET, "Cascading", false, ON,
                        ClusterState.replicas(2), CASCADING_MSG + " and replicas 2>0"),
                arguments("25 Cascading Advanced StatefulSet replicas 7", ADVANCED_STATEFUL_SET, "Cascading", false, ON,
                        ClusterState.replicas(7), CASCADING_MSG + " and replicas 7>0"),
                arguments("26 Cascading UnitedDeployment replicas 4", UNITED_DEPLOYMENT, "Cascading", false, ON,
                        ClusterState.replicas(4), CASCADING_MSG + " and replicas 4>0"),
                arguments("27 Cascading UnitedDeployment replicas 0", UNITED_DEPLOYMENT, "Cascading", false, ON,
                        ClusterState.replicas(0), ALLOW),
                arguments("28 Cascading workload with negative replicas (never stored)", CLONE_SET, "Cascading", false,
                        ON, ClusterState.replicas(-1), ALLOW),
                // Cascading namespaces: pods first, then Bound claims
                arguments("29 Cascading namespace with active pods", NAMESPACE, "Cascading", false, ON,
                        ClusterState.namespace(2, 0), CASCADING_MSG + " and active pods 2>0"),
                arguments("30 Cascading namespace with pods and claims: pods named", NAMESPACE, "Cascading", false, ON,
                        ClusterState.namespace(1, 4), CASCADING_MSG + " and active pods 1>0"),
                arguments("31 Cascading namespace with Bound claims only", NAMESPACE, "Cascading", false, ON,
                        ClusterState.namespace(0, 3), CASCADING_MSG + " and \"Bound\" status pvc 3>0"),
                arguments("32 Cascading empty namespace", NAMESPACE, "Cascading", false, ON,
                        ClusterState.namespace(0, 0), ALLOW),
                arguments("33 Cascading namespace already terminating", NAMESPACE, "Cascading", true, ON,
                        ClusterState.namespace(5, 5), ALLOW),
                // Cascading CRDs: objects refuse, only with the CRD gate
                arguments("34 Cascading CRD with objects", CUSTOM_RESOURCE_DEFINITION, "Cascading", false, ON,
                        ClusterState.customResources(6), CASCADING_MSG + " and active CRs 6>0"),
                arguments("35 Cascading CRD without objects", CUSTOM_RESOURCE_DEFINITION, "Cascading", false, ON,
                        ClusterState.customResources(0), ALLOW),
                arguments("36 Cascading CRD without the cascading gate", CUSTOM_RESOURCE_DEFINITION, "Cascading", false,
                        NO_CRD_GATE, none, "feature-gate DeletionProtectionForCRDCascadingGate is not enabled"),
                arguments("37 Cascading CRD already deleting", CUSTOM_RESOURCE_DEFINITION, "Cascading", true, ON,
                        ClusterState.customResources(6), ALLOW),
                // Cascading does not apply to Services and Ingresses: allowed, with a warning
                arguments("38 Cascading Service", SERVICE, "Cascading", false, ON, none,
                        "WARN:policy.kruise.io/delete-protection=Cascading protects no Service: only Always does"),
                arguments("39 Cascading Ingress", INGRESS, "Cascading", false, ON, none,
                        "WARN:policy.kruise.io/delete-protection=Cascading protects no Ingress: only Always does"),
                // no label, and values that protect nothing (OpenKruise allows them; we say why)
                arguments("40 no label on a namespace", NAMESPACE, null, false, ON, none, ALLOW),
                arguments("41 no label on a CloneSet", CLONE_SET, null, false, ON, ClusterState.replicas(3), ALLOW),
                arguments("42 lower-case always", CLONE_SET, "always", false, ON, ClusterState.replicas(3),
                        "WARN:policy.kruise.io/delete-protection=\"always\" protects nothing: the values are Always and "
                                + "Cascading (case-sensitive)"),
                arguments("43 empty value", NAMESPACE, "", false, ON, ClusterState.namespace(3, 0),
                        "WARN:policy.kruise.io/delete-protection=\"\" protects nothing: the values are Always and "
                                + "Cascading (case-sensitive)"),
                arguments("44 value with spaces", DEPLOYMENT, " Always", false, ON, ClusterState.replicas(1),
                        "WARN:policy.kruise.io/delete-protection=\" Always\" protects nothing: the values are Always "
                                + "and Cascading (case-sensitive)"),
                arguments("45 wrong value, gate off: nothing to say", NAMESPACE, "always", false, OFF, none, ALLOW),
                arguments("46 wrong value on an object being deleted", CLONE_SET, "CASCADING", true, ON, none, ALLOW));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, ProtectedKind kind, String label, boolean deleting, Gates gates, ClusterState state,
                 String expected) {
        Decision d = DeletionProtection.decide(kind, label, deleting, gates, state);
        if (expected.equals(ALLOW)) {
            assertFalse(d.refused(), name + ": " + d.message());
            assertTrue(d.warning().isEmpty(), name + ": unexpected warning " + d.message());
        } else if (expected.startsWith("WARN:")) {
            assertFalse(d.refused(), name);
            assertEquals(expected.substring(5), d.warning().orElse(null), name);
        } else {
            assertTrue(d.refused(), name);
            assertEquals(expected, d.message(), name);
        }
    }

    static Stream<Arguments> lookups() {
        return Stream.of(
                arguments(NAMESPACE, "Cascading", false, ON, Lookup.NAMESPACE_CONTENTS),
                arguments(NAMESPACE, "Always", false, ON, Lookup.NONE),
                arguments(NAMESPACE, "Cascading", true, ON, Lookup.NONE),
                arguments(NAMESPACE, "Cascading", false, OFF, Lookup.NONE),
                arguments(CUSTOM_RESOURCE_DEFINITION, "Cascading", false, ON, Lookup.CUSTOM_RESOURCES),
                arguments(CUSTOM_RESOURCE_DEFINITION, "Cascading", false, NO_CRD_GATE, Lookup.NONE),
                arguments(CLONE_SET, "Cascading", false, ON, Lookup.NONE),
                arguments(SERVICE, "Cascading", false, ON, Lookup.NONE),
                arguments(NAMESPACE, "cascading", false, ON, Lookup.NONE));
    }

    /** The cluster is read only when the decision needs it: never for Always, other kinds or a disabled gate. */
    @ParameterizedTest
    @MethodSource("lookups")
    void readsTheClusterOnlyWhenNeeded(ProtectedKind kind, String label, boolean deleting, Gates gates, Lookup expected) {
        assertEquals(expected, DeletionProtection.lookups(kind, label, deleting, gates));
    }

    @Test
    void kindsAreFoundByGroupAndKind() {
        assertEquals(STATEFUL_SET, ProtectedKind.of("apps", "StatefulSet").orElseThrow());
        assertEquals(ADVANCED_STATEFUL_SET, ProtectedKind.of("apps.kruise.io", "StatefulSet").orElseThrow());
        assertEquals(UNITED_DEPLOYMENT, ProtectedKind.of("apps.kruise.io", "UnitedDeployment").orElseThrow());
        assertEquals(NAMESPACE, ProtectedKind.of(null, "Namespace").orElseThrow());
        assertTrue(ProtectedKind.of("apps", "DaemonSet").isEmpty());
        assertTrue(ProtectedKind.of("apps.kruise.io", "DaemonSet").isEmpty());
        assertTrue(ProtectedKind.of("", "Pod").isEmpty());
        assertTrue(ProtectedKind.of("example.com", "CloneSet").isEmpty());
    }

    @Test
    void warningsShowHostileLabelValuesSafely() {
        String hostile = "x".repeat(300) + "\n\u0000";
        String warning = DeletionProtection.decide(NAMESPACE, hostile, false, ON, ClusterState.EMPTY).warning()
                .orElseThrow();
        assertTrue(warning.length() < 200, warning);
        assertFalse(warning.contains("\n") || warning.contains("\u0000"), warning);
    }
}
