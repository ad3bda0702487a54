package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSubsetStatus;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Adaptive schedule strategy in the manager against the embedded cluster: a subset whose zone has no node
 * cannot schedule its pods. In the default mode it turns Schedulable=False and hands its replicas to the next subset,
 * recovers after unschedulableDuration and takes pods again once a node of its zone joined; with
 * {@code reserveUnschedulablePods} its pods stay reserved while temporary pods run in the next subset, and the
 * temporary pods go once the reserved ones have run Ready long enough. {@code kubectl kruise why ud/NAME} names the
 * unschedulable subset.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class UnitedDeploymentAdaptiveEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .build();

    /** Two subsets: {@code first} in a zone with no node yet (at most 2 replicas), {@code second} in zone-a. */
    static void create(String name, int replicas, String emptyZone, int critical, int hold, boolean reserve) {
        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: UnitedDeployment
                metadata: {name: %s, namespace: %s}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    cloneSetTemplate:
                      metadata: {labels: {app: %s}}
                      spec:
                        selector: {matchLabels: {app: %s}}
                        template:
                          metadata: {labels: {app: %s}}
                          spec:
                            containers: [{name: main, image: "web:1"}]
                  topology:
                    scheduleStrategy:
                      type: Adaptive
                      adaptive: {rescheduleCriticalSeconds: %d, unschedulableDuration: %d, reserveUnschedulablePods: %s}
                    subsets:
                    - name: first
                      maxReplicas: 2
                      nodeSelectorTerm:
                        matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [%s]}]
                    - name: second
                      nodeSelectorTerm:
                        matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                """.formatted(name, product.namespace(), replicas, name, name, name, name, critical, hold, reserve,
                emptyZone));
    }

    static Resource<UnitedDeployment> ud(String name) {
        return product.client().resources(UnitedDeployment.class).inNamespace(product.namespace()).withName(name);
    }

    /** Subset name to the spec.replicas of its CloneSet. */
    static Map<String, Integer> replicasBySubset(String name) {
        String uid = ud(name).get().getMetadata().getUid();
        return product.client().resources(CloneSet.class).inNamespace(product.namespace()).list().getItems().stream()
                .filter(c -> c.getMetadata().getOwnerReferences() != null && c.getMetadata().getOwnerReferences()
                        .stream().anyMatch(r -> r.getUid().equals(uid)))
                .collect(Collectors.toMap(c -> c.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL),
                        c -> c.getSpec().getReplicas(), (a, b) -> -1, TreeMap::new));
    }

    static UnitedDeploymentSubsetCondition schedulable(UnitedDeployment u, String subset) {
        if (u.getStatus() == null || u.getStatus().getSubsetStatuses() == null) {
            return null;
        }
        for (UnitedDeploymentSubsetStatus ss : u.getStatus().getSubsetStatuses()) {
            if (subset.equals(ss.getName()) && ss.getConditions() != null) {
                return ss.getConditions().stream().filter(c -> "Schedulable".equals(c.getType())).findFirst()
                        .orElse(null);
            }
        }
        return null;
    }

    static List<Pod> livePods(String app, String subset) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app)
                .withLabel(UnitedDeployment.SUBSET_NAME_LABEL, subset).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    static boolean running(Pod p) {
        return p.getStatus() != null && "Running".equals(p.getStatus().getPhase());
    }

    static void awaitWhy(String target, java.util.function.Supplier<String> expected) {
        UnitedDeploymentWhy.awaitWhy(product, target, expected, WAIT);
    }

    @Test
    void anUnschedulableSubsetHandsItsReplicasOnAndTakesPodsAgainAfterItRecovers() throws Exception {
        String name = "adaptive";
        create(name, 4, "zone-d", 2, 30, false);
        // Both of the first subset's pods stay Pending: no node in zone-d. After 2s the subset is unschedulable,
        // held at its 0 ready pods, and the second subset runs all four.
        UnitedDeployment moved = Await.waitFor(name + " moved to the second subset", WAIT, () -> ud(name).get(),
                u -> schedulable(u, "first") != null && "False".equals(schedulable(u, "first").getStatus())
                        && u.getStatus().getReadyReplicas() == 4
                        && Map.of("first", 0, "second", 4).equals(u.getStatus().getSubsetReplicas()));
        UnitedDeploymentSubsetCondition c = schedulable(moved, "first");
        assertEquals("reschedule", c.getReason());
        assertEquals("timeout pending pods found", c.getMessage());
        assertEquals(Map.of("first", 0, "second", 4), replicasBySubset(name));
        Await.waitFor("the pending pods gone", WAIT, () -> livePods(name, "first"), List::isEmpty);
        assertEquals(4, livePods(name, "second").stream().filter(UnitedDeploymentAdaptiveEndToEndTest::running).count());
        // OpenKruise's status conditions: provisioned, updated, at one revision.
        for (String type : List.of(UnitedDeploymentCondition.SUBSET_PROVISIONED, UnitedDeploymentCondition.SUBSET_UPDATED,
                UnitedDeploymentCondition.UNITED_DEPLOYMENT_UPDATED)) {
            assertTrue(moved.getStatus().getConditions().stream().anyMatch(x -> type.equals(x.getType())
                    && "True".equals(x.getStatus())), type + " in " + moved.getStatus().getConditions());
        }
        Instant retry = Instant.parse(c.getLastTransitionTime()).plusSeconds(30);
        awaitWhy("ud/" + name, () -> "uniteddeployment.apps.kruise.io/" + name + " in namespace "
                + product.namespace() + "\n"
                + "  rollout: united deployment \"" + name + "\" successfully rolled out: 4 of 4 ready, 4 updated and "
                + "ready, over 2 subsets\n"
                + "  held by Unschedulable: subset first is unschedulable (pods were pending longer than "
                + "rescheduleCriticalSeconds 2): held at its 0 ready, the rest goes to the other subsets; tried again "
                + "at " + retry + " (unschedulableDuration 30s)\n");

        // A node joins zone-d; after unschedulableDuration the subset recovers (requeued at that time, nothing
        // else changes), and a scale-up gives it pods again, which run there.
        product.cluster().nodes().addNode("zone-d-node", Map.of("topology.kubernetes.io/zone", "zone-d"));
        UnitedDeployment recovered = Await.waitFor(name + " recovered", WAIT, () -> ud(name).get(),
                u -> "True".equals(schedulable(u, "first").getStatus()));
        UnitedDeploymentSubsetCondition r = schedulable(recovered, "first");
        assertEquals("recover", r.getReason());
        assertEquals("unschedulable subset recovered after 30.000000 seconds", r.getMessage());
        assertTrue(!Instant.parse(r.getLastTransitionTime()).isBefore(retry), r.getLastTransitionTime());
        ud(name).scale(6);
        Await.waitFor(name + " back in the first subset", WAIT, () -> ud(name).get(),
                u -> u.getStatus().getReadyReplicas() == 6
                        && Map.of("first", 2, "second", 4).equals(u.getStatus().getSubsetReplicas()));
        List<Pod> first = livePods(name, "first");
        assertEquals(2, first.size());
        first.forEach(p -> assertEquals("zone-d-node", p.getSpec().getNodeName()));
    }

    @Test
    void reservedPodsStayWhileTemporaryPodsStandInAndTheTemporaryPodsGoOnceTheyRun() throws Exception {
        String name = "reserve";
        create(name, 4, "zone-e", 2, 4, true);
        // The first subset keeps its 2 pods, reserved; the second runs 2 + 2 temporary pods.
        UnitedDeployment reserved = Await.waitFor(name + " reserved", WAIT, () -> ud(name).get(),
                u -> u.getStatus() != null && u.getStatus().getReservedPods() == 2
                        && u.getStatus().getReadyReplicas() == 4
                        && Map.of("first", 2, "second", 4).equals(u.getStatus().getSubsetReplicas()));
        UnitedDeploymentSubsetCondition c = schedulable(reserved, "first");
        assertNotNull(c);
        assertEquals("False", c.getStatus());
        assertEquals("reschedule", c.getReason());
        assertEquals("reserved pods found", c.getMessage());
        assertEquals(4, reserved.getStatus().getReplicas(), "reserved pods do not count as replicas");
        assertEquals("app=" + name + "," + UnitedDeployment.RESERVED_POD_LABEL + "=false",
                reserved.getStatus().getLabelSelector());
        Await.waitFor("reserved labels", WAIT, () -> livePods(name, "first"), pods -> pods.size() == 2
                && pods.stream().allMatch(p -> "true".equals(p.getMetadata().getLabels()
                .get(UnitedDeployment.RESERVED_POD_LABEL))));
        Await.waitFor("temporary pods labelled as counting", WAIT, () -> livePods(name, "second"), pods -> pods.size() == 4
                && pods.stream().allMatch(p -> "false".equals(p.getMetadata().getLabels()
                .get(UnitedDeployment.RESERVED_POD_LABEL))));
        awaitWhy("ud/" + name, () -> "uniteddeployment.apps.kruise.io/" + name + " in namespace "
                + product.namespace() + "\n"
                + "  rollout: united deployment \"" + name + "\" successfully rolled out: 4 of 4 ready, 4 updated and "
                + "ready, over 2 subsets\n"
                + "  held by Unschedulable: subset first has 2 pods reserved (not running within "
                + "rescheduleCriticalSeconds 2, or Ready for less than unschedulableDuration 4s): temporary pods stand "
                + "in for them in the other subsets\n");

        // A node joins zone-e: the reserved pods run, leave the reservation after 4s Ready, and the temporary pods
        // in the second subset go.
        product.cluster().nodes().addNode("zone-e-node", Map.of("topology.kubernetes.io/zone", "zone-e"));
        UnitedDeployment back = Await.waitFor(name + " back", WAIT, () -> ud(name).get(),
                u -> u.getStatus().getReservedPods() == 0 && u.getStatus().getReadyReplicas() == 4
                        && Map.of("first", 2, "second", 2).equals(u.getStatus().getSubsetReplicas()));
        assertEquals("True", schedulable(back, "first").getStatus());
        assertEquals("no reserved pods", schedulable(back, "first").getMessage());
        Await.waitFor(name + " temporary pods gone", WAIT, () -> replicasBySubset(name),
                Map.of("first", 2, "second", 2)::equals);
        Await.waitFor("two pods each", WAIT, () -> livePods(name, "second").size() == 2
                && livePods(name, "first").stream().filter(UnitedDeploymentAdaptiveEndToEndTest::running).count() == 2);
        livePods(name, "first").forEach(p -> assertEquals("false",
                p.getMetadata().getLabels().get(UnitedDeployment.RESERVED_POD_LABEL), p.getMetadata().getName()));
    }

    /**
     * A Deployment subset's pods are owned by its ReplicaSets, not by the Deployment: Adaptive still finds them
     * (through the Deployment's selector), marks the subset unschedulable and hands its replicas to the next subset.
     */
    @Test
    void aDeploymentSubsetThatCannotScheduleHandsItsReplicasOn() {
        String name = "adaptive-deploy";
        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: UnitedDeployment
                metadata: {name: %s, namespace: %s}
                spec:
                  replicas: 4
                  selector: {matchLabels: {app: %s}}
                  template:
                    deploymentTemplate:
                      metadata: {labels: {app: %s}}
                      spec:
                        selector: {matchLabels: {app: %s}}
                        template:
                          metadata: {labels: {app: %s}}
                          spec:
                            containers: [{name: main, image: "web:1"}]
                  topology:
                    scheduleStrategy:
                      type: Adaptive
                      adaptive: {rescheduleCriticalSeconds: 2, unschedulableDuration: 300}
                    subsets:
                    - name: first
                      maxReplicas: 2
                      nodeSelectorTerm:
                        matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-e]}]
                    - name: second
                      nodeSelectorTerm:
                        matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
                """.formatted(name, product.namespace(), name, name, name, name));
        UnitedDeployment moved = Await.waitFor(name + " moved to the second subset", WAIT, () -> ud(name).get(),
                u -> schedulable(u, "first") != null && "False".equals(schedulable(u, "first").getStatus())
                        && u.getStatus().getReadyReplicas() == 4
                        && Map.of("first", 0, "second", 4).equals(u.getStatus().getSubsetReplicas()));
        assertEquals("reschedule", schedulable(moved, "first").getReason());
        Await.waitFor("the pending pods gone", WAIT, () -> livePods(name, "first"), List::isEmpty);
        assertEquals(4, livePods(name, "second").stream().filter(UnitedDeploymentAdaptiveEndToEndTest::running).count());
    }
}
