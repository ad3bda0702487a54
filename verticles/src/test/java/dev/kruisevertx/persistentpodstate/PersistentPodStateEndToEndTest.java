package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategy;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PersistentPodState in the manager against the embedded cluster (six simulated nodes over three zones, admission
 * through the product's webhook configuration): ready pods' zones are recorded, pods deleted and created again land
 * back in their zone (required nodeSelector) and on their node when it has room (preferred), WhenScaled and
 * WhenDeleted, PersistentPodStates generated from StatefulSet annotations, minReadySeconds, a preDelete hook holding a
 * pod, a manager restart mid-operation, the owner deleted mid-operation, a conflicting writer and hostile specs.
 */
class PersistentPodStateEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String HOST = "kubernetes.io/hostname";
    static final String PROTECT = "example.io/protect";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(6))
            // Advanced StatefulSet pods carry the KruisePodReady gate: podreadiness makes them Ready.
            .controllers(() -> List.of(new dev.kruisevertx.statefulset.StatefulSetController(),
                    new dev.kruisevertx.podreadiness.PodReadinessController(), new PersistentPodStateController()))
            .build();

    static String ns() {
        return product.namespace();
    }

    static StatefulSet asts(String name, int replicas) {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns()).build());
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setReplicas(replicas);
        spec.setServiceName(name);
        spec.setPodManagementPolicy("Parallel");
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name)
                .addToAnnotations("example.io/ip", "ip-of-" + name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build());
        set.setSpec(spec);
        return set;
    }

    static PersistentPodState pps(String name, String target, String retention) {
        PersistentPodState pps = new PersistentPodState();
        pps.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns()).build());
        PersistentPodStateSpec spec = new PersistentPodStateSpec();
        spec.setTargetReference(new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", target));
        spec.setRequiredPersistentTopology(new NodeTopologyTerm(List.of(ZONE)));
        spec.setPreferredPersistentTopology(List.of(new PreferredTopologyTerm(100, new NodeTopologyTerm(List.of(HOST)))));
        spec.setPersistentPodStateRetentionPolicy(retention);
        pps.setSpec(spec);
        return pps;
    }

    static Resource<StatefulSet> set(String name) {
        return product.client().resources(StatefulSet.class).inNamespace(ns()).withName(name);
    }

    static Resource<PersistentPodState> state(String name) {
        return product.client().resources(PersistentPodState.class).inNamespace(ns()).withName(name);
    }

    static Map<String, PodState> states(String name) {
        PersistentPodState p = state(name).get();
        return p == null ? Map.of() : p.status().states();
    }

    static Map<String, PodState> waitStates(String name, String what, java.util.function.Predicate<Map<String, PodState>> done) {
        return Await.waitFor(name + ": " + what, WAIT, () -> states(name), done);
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(ns()).withLabel("app", app).list().getItems();
    }

    static String zoneOf(String node) {
        Node n = product.client().nodes().withName(node).get();
        return n.getMetadata().getLabels().get(ZONE);
    }

    static void editSet(String name, Consumer<StatefulSetSpec> change) {
        retry(() -> set(name).edit(s -> {
            change.accept(s.getSpec());
            return s;
        }));
    }

    static void retry(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 30) {
                    throw e;
                }
            }
        }
    }

    static List<Pod> waitReady(String app, int count) {
        return Await.waitFor(app + ": " + count + " ready pods", WAIT, () -> pods(app), ps -> ps.size() == count
                && ps.stream().allMatch(p -> Pods.isReady(p) && p.getMetadata().getDeletionTimestamp() == null));
    }

    /** Every recorded pod's state holds its node's zone and name. */
    static void assertRecordsMatchNodes(String app, Map<String, PodState> states) {
        for (Pod p : pods(app)) {
            PodState s = states.get(p.getMetadata().getName());
            assertEquals(p.getSpec().getNodeName(), s.getNodeName(), p.getMetadata().getName());
            assertEquals(Map.of(ZONE, zoneOf(p.getSpec().getNodeName()), HOST, p.getSpec().getNodeName()), s.labels());
        }
    }

    @Test
    void podsCreatedAgainLandBackInTheirZoneAndOnTheirNode() {
        set("web").create(asts("web", 3));
        state("web").create(pps("web", "web", null));
        waitReady("web", 3);
        Map<String, PodState> recorded = waitStates("web", "3 pods recorded", s -> s.size() == 3);
        assertRecordsMatchNodes("web", recorded);
        // The first pods were created before any state: nothing injected.
        for (Pod p : pods("web")) {
            assertNull(Pods.annotations(p).get(PersistentPodState.INJECTED_ANNOTATION));
        }
        Map<String, String> uids = new HashMap<>();
        pods("web").forEach(p -> uids.put(p.getMetadata().getName(), p.getMetadata().getUid()));

        product.client().pods().inNamespace(ns()).withLabel("app", "web").delete();
        List<Pod> again = Await.waitFor("web: 3 new ready pods", WAIT, () -> pods("web"), ps -> ps.size() == 3
                && ps.stream().allMatch(p -> Pods.isReady(p) && !uids.get(p.getMetadata().getName())
                .equals(p.getMetadata().getUid())));
        for (Pod p : again) {
            PodState before = recorded.get(p.getMetadata().getName());
            assertEquals("web", Pods.annotations(p).get(PersistentPodState.INJECTED_ANNOTATION));
            assertEquals(before.labels().get(ZONE), p.getSpec().getNodeSelector().get(ZONE));
            assertEquals(before.labels().get(ZONE), zoneOf(p.getSpec().getNodeName()), p.getMetadata().getName());
            var preferred = p.getSpec().getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution();
            assertEquals(100, preferred.get(0).getWeight());
            assertEquals(List.of(before.getNodeName()), preferred.get(0).getPreference().getMatchExpressions().get(0)
                    .getValues());
            // Each node has room for every pod here, so the preferred node wins.
            assertEquals(before.getNodeName(), p.getSpec().getNodeName(), p.getMetadata().getName());
        }
    }

    @Test
    void whenScaledForgetsScaledAwayPodsAndWhenDeletedKeepsThem() {
        set("scaled").create(asts("scaled", 3));
        state("scaled").create(pps("scaled", "scaled", "WhenScaled"));
        set("kept").create(asts("kept", 3));
        state("kept").create(pps("kept", "kept", "WhenDeleted"));
        waitStates("scaled", "3 recorded", s -> s.size() == 3);
        waitStates("kept", "3 recorded", s -> s.size() == 3);

        editSet("scaled", s -> s.setReplicas(1));
        editSet("kept", s -> s.setReplicas(1));
        waitStates("scaled", "only scaled-0 left", s -> s.keySet().equals(Set.of("scaled-0")));
        waitReady("kept", 1);
        // The scaled-away pods' deletions were seen by the controller (the other set's states moved meanwhile).
        Await.waitFor("kept states observed after the scale-down", WAIT, () -> {
            state("kept").edit(p -> {
                p.getSpec().setPersistentPodAnnotations(List.of(new PersistentPodAnnotation("example.io/ip")));
                return p;
            });
            return true;
        });
        Map<String, PodState> kept = waitStates("kept", "annotation recorded for kept-0",
                s -> "ip-of-kept".equals(s.getOrDefault("kept-0", new PodState()).annotations().get("example.io/ip")));
        assertEquals(Set.of("kept-0", "kept-1", "kept-2"), kept.keySet(), "WhenDeleted keeps scaled-away states");

        Map<String, PodState> before = states("scaled");
        editSet("scaled", s -> s.setReplicas(3));
        waitReady("scaled", 3);
        Map<String, PodState> after = waitStates("scaled", "3 recorded again", s -> s.size() == 3);
        assertEquals(before.get("scaled-0"), after.get("scaled-0"));
    }

    @Test
    void generatedFromStatefulSetAnnotationsFollowsThemAndGoesWithTheSet() {
        var sts = new StatefulSetBuilder().withNewMetadata().withName("gen").withNamespace(ns())
                .addToAnnotations(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true")
                .addToAnnotations(PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, ZONE)
                .addToAnnotations(PersistentPodState.PERSISTENT_POD_ANNOTATIONS_ANNOTATION, "example.io/ip")
                .endMetadata().withNewSpec().withReplicas(2).withServiceName("gen").withNewSelector()
                .addToMatchLabels("app", "gen").endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "gen")
                .addToAnnotations("example.io/ip", "10.1.1.1").endMetadata().withNewSpec().addNewContainer()
                .withName("main").withImage("nginx:1").endContainer().endSpec().endTemplate().endSpec().build();
        var created = product.client().apps().statefulSets().inNamespace(ns()).resource(sts).create();
        PersistentPodState generated = Await.waitFor("generated PersistentPodState", WAIT, () -> state("gen").get(),
                p -> p != null);
        assertEquals(created.getMetadata().getUid(), generated.getMetadata().getOwnerReferences().get(0).getUid());
        assertEquals(new TargetReference("apps/v1", "StatefulSet", "gen"), generated.getSpec().getTargetReference());
        assertEquals(List.of(ZONE), generated.getSpec().getRequiredPersistentTopology().getNodeTopologyKeys());
        Map<String, PodState> s = waitStates("gen", "2 recorded", m -> m.size() == 2);
        assertEquals("10.1.1.1", s.get("gen-0").annotations().get("example.io/ip"));

        retry(() -> product.client().apps().statefulSets().inNamespace(ns()).withName("gen").edit(x -> {
            x.getMetadata().getAnnotations().put(PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION, HOST);
            return x;
        }));
        Await.waitFor("preferred term generated", WAIT, () -> state("gen").get(), p -> p.getSpec()
                .getPreferredPersistentTopology() != null && p.getSpec().getPreferredPersistentTopology().get(0)
                .getWeight() == 100);
        retry(() -> product.client().apps().statefulSets().inNamespace(ns()).withName("gen").edit(x -> {
            x.getMetadata().getAnnotations().put(PersistentPodState.AUTO_GENERATE_ANNOTATION, "false");
            return x;
        }));
        Await.waitFor("generated PersistentPodState deleted", WAIT, () -> state("gen").get() == null);

        // Generated again, then the set deleted: the garbage collector takes it with the set.
        retry(() -> product.client().apps().statefulSets().inNamespace(ns()).withName("gen").edit(x -> {
            x.getMetadata().getAnnotations().put(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true");
            return x;
        }));
        Await.waitFor("generated again", WAIT, () -> state("gen").get() != null);
        product.client().apps().statefulSets().inNamespace(ns()).withName("gen").delete();
        Await.waitFor("generated PersistentPodState collected with its set", WAIT, () -> state("gen").get() == null);
    }

    @Test
    void minReadySecondsDoesNotDelayRecordingReadyPods() {
        StatefulSet set = asts("slow", 2);
        set.getSpec().setUpdateStrategy(new StatefulSetUpdateStrategy());
        set.getSpec().getUpdateStrategy().setRollingUpdate(new RollingUpdateStatefulSetStrategy());
        set.getSpec().getUpdateStrategy().getRollingUpdate().setMinReadySeconds(290);
        set("slow").create(set);
        state("slow").create(pps("slow", "slow", null));
        // OpenKruise records at Ready, not at available: both pods long before their 290 s.
        waitStates("slow", "2 recorded", s -> s.size() == 2);
        StatefulSet now = set("slow").get();
        assertTrue(now.getStatus() == null || now.getStatus().getAvailableReplicas() == 0,
                "not available yet: " + now.getStatus());
    }

    @Test
    void aPodHeldByAPreDeleteHookKeepsItsStateUntilItIsGone() {
        StatefulSet set = asts("hook", 2);
        LifecycleHook hook = new LifecycleHook();
        hook.setFinalizersHandler(List.of(PROTECT));
        Lifecycle lifecycle = new Lifecycle();
        lifecycle.setPreDelete(hook);
        set.getSpec().setLifecycle(lifecycle);
        set("hook").create(set);
        state("hook").create(pps("hook", "hook", null));
        waitStates("hook", "2 recorded", s -> s.size() == 2);
        retry(() -> product.client().pods().inNamespace(ns()).withName("hook-1").edit(p -> {
            p.getMetadata().getFinalizers().add(PROTECT);
            return p;
        }));
        editSet("hook", s -> s.setReplicas(1));
        Await.waitFor("hook-1 PreparingDelete", WAIT, () -> product.client().pods().inNamespace(ns())
                .withName("hook-1").get(), p -> "PreparingDelete".equals(Pods.lifecycleState(p)));
        // Still there: a pod that exists keeps its state even beyond the replicas.
        assertTrue(states("hook").containsKey("hook-1"));
        retry(() -> product.client().pods().inNamespace(ns()).withName("hook-1").edit(p -> {
            p.getMetadata().getFinalizers().remove(PROTECT);
            return p;
        }));
        waitStates("hook", "hook-1 forgotten once gone", s -> s.keySet().equals(Set.of("hook-0")));
    }

    @Test
    void managerRestartMidOperationRecordsAndInjectsAfterwards() throws Exception {
        set("rs").create(asts("rs", 3));
        state("rs").create(pps("rs", "rs", null));
        product.restartManager();
        Map<String, PodState> recorded = waitStates("rs", "3 recorded after the restart", s -> s.size() == 3);
        assertRecordsMatchNodes("rs", recorded);
        String uid = product.client().pods().inNamespace(ns()).withName("rs-1").get().getMetadata().getUid();
        product.client().pods().inNamespace(ns()).withName("rs-1").delete();
        Pod again = Await.waitFor("rs-1 created again", WAIT, () -> product.client().pods().inNamespace(ns())
                .withName("rs-1").get(), p -> p != null && !uid.equals(p.getMetadata().getUid()) && Pods.isReady(p));
        assertEquals("rs", Pods.annotations(again).get(PersistentPodState.INJECTED_ANNOTATION));
        assertEquals(recorded.get("rs-1").labels().get(ZONE), zoneOf(again.getSpec().getNodeName()));
    }

    @Test
    void ownerDeletedMidOperationDropsEveryState() {
        set("gone").create(asts("gone", 3));
        state("gone").create(pps("gone", "gone", "WhenDeleted"));
        waitStates("gone", "some recorded", s -> !s.isEmpty());
        set("gone").delete();
        waitStates("gone", "all states dropped", Map::isEmpty);
        assertNotEquals(null, state("gone").get(), "a PersistentPodState made by hand stays");
    }

    @Test
    void conflictingWriterOnTheSpecStillGetsEveryPodRecorded() throws Exception {
        set("busy").create(asts("busy", 3));
        state("busy").create(pps("busy", "busy", null));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        Thread writer = new Thread(() -> {
            int i = 0;
            while (!stop.get() && i < 200) {
                int n = i++;
                try {
                    state("busy").edit(p -> {
                        p.getMetadata().setLabels(Map.of("writer", String.valueOf(n)));
                        return p;
                    });
                    writes.incrementAndGet();
                } catch (KubernetesClientException e) {
                    // 409s are the point: the controller writes the status meanwhile.
                }
            }
        });
        writer.start();
        try {
            Map<String, PodState> recorded = waitStates("busy", "3 recorded despite the writer", s -> s.size() == 3);
            assertRecordsMatchNodes("busy", recorded);
        } finally {
            stop.set(true);
            writer.join(60_000);
        }
        assertTrue(writes.get() > 0);
    }

    @Test
    void hostileSpecsAreRefusedWithTheirReason() {
        Map<String, UnaryOperator<PersistentPodState>> cases = new TreeMap<>();
        cases.put("no target", p -> {
            p.getSpec().setTargetReference(new TargetReference());
            return p;
        });
        cases.put("a Deployment", p -> {
            p.getSpec().setTargetReference(new TargetReference("apps/v1", "Deployment", "d"));
            return p;
        });
        cases.put("no topology", p -> {
            p.getSpec().setRequiredPersistentTopology(null);
            p.getSpec().setPreferredPersistentTopology(null);
            return p;
        });
        cases.put("weight 0", p -> {
            p.getSpec().getPreferredPersistentTopology().get(0).setWeight(0);
            return p;
        });
        cases.put("weight negative", p -> {
            p.getSpec().getPreferredPersistentTopology().get(0).setWeight(-7);
            return p;
        });
        cases.put("weight huge", p -> {
            p.getSpec().getPreferredPersistentTopology().get(0).setWeight(Integer.MAX_VALUE);
            return p;
        });
        cases.put("bad key", p -> {
            p.getSpec().setRequiredPersistentTopology(new NodeTopologyTerm(List.of("not a key")));
            return p;
        });
        cases.put("huge key list", p -> {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                keys.add("k" + i);
            }
            p.getSpec().setRequiredPersistentTopology(new NodeTopologyTerm(keys));
            return p;
        });
        cases.put("unknown retention", p -> {
            p.getSpec().setPersistentPodStateRetentionPolicy("Forever");
            return p;
        });
        Map<String, String> answers = new TreeMap<>();
        for (var c : cases.entrySet()) {
            PersistentPodState p = c.getValue().apply(pps("bad-" + answers.size(), "target", null));
            KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> state(p.getMetadata()
                    .getName()).create(p), c.getKey());
            answers.put(c.getKey(), e.getMessage());
        }
        assertTrue(answers.get("no target").contains("empty TargetReference is not valid"), answers.toString());
        assertTrue(answers.get("a Deployment").contains("TargetReference.Kind must be StatefulSet"), answers.toString());
        assertTrue(answers.get("no topology").contains("cannot be empty at the same time"), answers.toString());
        for (String w : List.of("weight 0", "weight negative", "weight huge")) {
            assertTrue(answers.get(w).contains("must be in the range 1-100"), answers.toString());
        }
        assertTrue(answers.get("bad key").contains("nodeTopologyKeys[0]"), answers.toString());
        assertTrue(answers.get("huge key list").contains("at most 64 node label keys"), answers.toString());
        assertTrue(answers.get("unknown retention").contains("Unsupported value: \"Forever\""), answers.toString());

        // Wrong type: refused by the API server's schema or the webhook, never stored.
        var raw = new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                .withApiVersion(PersistentPodState.API_VERSION).withKind(PersistentPodState.KIND)
                .withNewMetadata().withName("typed").withNamespace(ns()).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("targetRef", Map.of("apiVersion", "apps/v1",
                        "kind", "StatefulSet", "name", "t"), "preferredPersistentTopology", List.of(Map.of(
                        "weight", "heavy", "preference", Map.of("nodeTopologyKeys", List.of(HOST)))))))
                .build();
        assertThrows(KubernetesClientException.class, () -> product.client().genericKubernetesResources(
                PersistentPodState.API_VERSION, PersistentPodState.KIND).inNamespace(ns()).resource(raw).create());

        // A second one on the same workload, and a changed target on update.
        // The webhook reads the others from its watch cache (as OpenKruise's does): a create racing the first one's
        // arrival there may pass; once the cache has it, the second is refused.
        state("first").create(pps("first", "target", null));
        String dup = Await.waitFor("a second PersistentPodState on the same workload refused", WAIT, () -> {
            try {
                state("second").create(pps("second", "target", null));
                state("second").delete();
                return "";
            } catch (KubernetesClientException e) {
                return e.getMessage();
            }
        }, m -> m.contains("targetReference is in conflict with other PersistentPodState first"));
        assertTrue(dup.contains("400") || dup.contains("denied"), dup);
        KubernetesClientException moved = assertThrows(KubernetesClientException.class, () -> retry(() -> state("first").edit(p -> {
            p.getSpec().setTargetReference(new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "elsewhere"));
            return p;
        })));
        assertTrue(moved.getMessage().contains("targetRef cannot be modified"), moved.getMessage());
        assertFalse(product.app() == null, "the manager is still running");
    }

    /**
     * Issue 26: a whitelisted custom kind's pods are recorded (its own informer, from the shared cache), and a gone
     * pod's ordinal beyond the kind's spec.replicas loses its state (WhenScaled).
     */
    @Test
    void aWhitelistedCustomWorkloadsPodsAreRecorded() throws Exception {
        var client = product.client();
        dev.kruisevertx.sim.testing.ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: gameserversets.pps.example.com}
                spec:
                  group: pps.example.com
                  scope: Namespaced
                  names: {plural: gameserversets, singular: gameserverset, kind: GameServerSet, listKind: GameServerSetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """);
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("kruise-system").endMetadata().build())
                .createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
        client.configMaps().inNamespace("kruise-system").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("kruise-configuration").endMetadata()
                .addToData("PPS_Watch_Custom_Workload_WhiteList", "{\"workloads\":[{\"Group\":"
                        + "\"pps.example.com\",\"Version\":\"v1\",\"Kind\":\"GameServerSet\"}]}")
                .build()).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
        // The webhook reads the whitelist at start-up.
        product.restartManager();
        var games = client.genericKubernetesResources("pps.example.com/v1", "GameServerSet").inNamespace(ns());
        var game = Await.waitFor("gameserversets served", WAIT, () -> {
            try {
                return games.resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                        .withApiVersion("pps.example.com/v1").withKind("GameServerSet").withNewMetadata()
                        .withName("game").withNamespace(ns()).endMetadata()
                        .addToAdditionalProperties("spec", Map.of("replicas", 2)).build()).create();
            } catch (KubernetesClientException e) {
                return null;
            }
        }, java.util.Objects::nonNull);
        PersistentPodState pps = pps("game", "game", null);
        pps.getSpec().setTargetReference(new TargetReference("pps.example.com/v1", "GameServerSet", "game"));
        Await.waitFor("the PersistentPodState admitted", WAIT, () -> {
            try {
                return state("game").create(pps);
            } catch (KubernetesClientException e) {
                return null;
            }
        }, java.util.Objects::nonNull);
        for (int i = 0; i < 2; i++) {
            client.pods().inNamespace(ns()).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                    .withName("game-" + i).addToLabels("app", "game").addNewOwnerReference()
                    .withApiVersion("pps.example.com/v1").withKind("GameServerSet").withName("game")
                    .withUid(game.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("game:1").endContainer().endSpec()
                    .build()).create();
        }
        waitReady("game", 2);
        Map<String, PodState> recorded = waitStates("game", "2 pods recorded", s -> s.size() == 2);
        assertRecordsMatchNodes("game", recorded);

        // Scaled to 1 and game-1 gone: its ordinal is outside spec.replicas, so its state goes (WhenScaled).
        games.withName("game").patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":1}}");
        client.pods().inNamespace(ns()).withName("game-1").withGracePeriod(0).delete();
        Map<String, PodState> after = waitStates("game", "game-1's state dropped", s -> s.size() == 1);
        assertEquals(Set.of("game-0"), after.keySet());
        assertEquals(recorded.get("game-0"), after.get("game-0"));
    }
}
