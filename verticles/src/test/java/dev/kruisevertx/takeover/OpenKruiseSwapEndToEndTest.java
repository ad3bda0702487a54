package dev.kruisevertx.takeover;

import dev.kruisevertx.sim.testing.ConflictRetry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.WriteRecorder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30: the manager swapped in for a running OpenKruise v1.9 touches no pod. Fixtures written as OpenKruise
 * writes them ({@code src/test/resources/openkruise-v1.9}, built from its code at v1.9.0): CloneSets with pods
 * updated in place (new and pre-v1.0 state keys), a partitioned rollout half-way with short-form revision labels,
 * lifecycle hooks held in PreparingUpdate and PreparingDelete, an Advanced StatefulSet with a reserved ordinal and
 * PVCs, a ContainerRecreateRequest in flight, and a CloneSet whose template was edited while OpenKruise was stopped.
 * The manager first runs {@code --takeover-dry-run} (every workload classified, the edited one named), then for real:
 * over several resyncs it creates, deletes and changes no pod or PVC and leaves the statuses as they were (or
 * further on); a template change then rolls out normally, under the revision name and bytes OpenKruise would write.
 */
class OpenKruiseSwapEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(150);
    /** Short, so the quiet period below spans several full resyncs. */
    static final String SYNC_PERIOD = "--sync-period=4s";
    static final List<String> FILES = List.of("cloneset-web.json", "cloneset-api.json", "cloneset-hooked.json",
            "asts-db.json", "cloneset-edited.json");

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .flags("--takeover-dry-run", SYNC_PERIOD).build();

    @Test
    void swappingInForOpenKruiseTouchesNoPodAndTheNextTemplateChangeRollsOut() throws Exception {
        String ns = product.namespace();
        List<String> nodes = product.client().nodes().list().getItems().stream()
                .map(n -> n.getMetadata().getName()).sorted().toList();
        OpenKruiseFixtures fixtures = new OpenKruiseFixtures(product.client(), ns, nodes);
        for (String file : FILES) {
            fixtures.load(file);
        }
        int podCount = fixtures.loaded.get("Pod").size();
        awaitPodsRunningAndMarkedInPlaceReady(ns, podCount);
        fixtures.loadDeferred();

        // 3. The dry run classifies every workload loaded: all adopted but the one edited while OpenKruise was
        // stopped, which is named with its reason.
        product.restartManager();
        TakeoverCheck.Report report = product.app().takeover();
        assertNotNull(report, "the check ran at start-up");
        int workloads = fixtures.loaded.get("CloneSet").size() + fixtures.loaded.get("StatefulSet").size();
        assertEquals(workloads - 1, report.adopted(), report.summary(20));
        assertEquals(1, report.wouldRoll().size(), report.summary(20));
        TakeoverCheck.Finding edited = report.wouldRoll().get(0);
        assertEquals(List.of("CloneSet", ns, "edited"), List.of(edited.kind(), edited.namespace(), edited.name()));
        assertEquals("template matches none of its 1 ControllerRevisions; a new update revision would replace "
                + pinned("edited").path("revision").asText(), edited.reason());

        // The edited CloneSet would roll (that is a real rollout): take it out before the quiet period.
        product.client().resources(CloneSet.class).inNamespace(ns).withName("edited").delete();
        Await.waitFor("the edited CloneSet's pod gone", WAIT, () -> product.client().pods().inNamespace(ns)
                .withLabel("app", "edited").list().getItems().isEmpty());
        Map<String, JsonNode> statusesBefore = workloadStatuses(ns);
        Set<String> revisionsBefore = revisionNames(ns);
        String crrPhaseBefore = crr(ns).getStatus().getPhase();

        // 1. Swap in: the manager runs its controllers for several resyncs and writes to no pod or PVC.
        try (WriteRecorder writes = WriteRecorder.start(product.cluster(), ns, "pods", "persistentvolumeclaims")) {
            product.restartManagerWithFlags(SYNC_PERIOD);
            assertNull(product.app().takeover().wouldRoll().stream().filter(f -> f.namespace().equals(ns))
                    .findFirst().orElse(null), "nothing of the swap would roll");
            // No write is the expected outcome, so the test has to give the manager time to make one: its informers
            // sync, every workload is reconciled at start and again at each resync (4s).
            Thread.sleep(16_000);
            List<String> touched = writes.writes().stream()
                    .filter(w -> w.touchesObject() || w.changed().stream().anyMatch(c ->
                            c.equals("status.conditions[InPlaceUpdateReady]")
                                    || c.equals("status.conditions[KruisePodReady]")))
                    .map(WriteRecorder.Write::describe).toList();
            assertEquals(List.of(), touched, "the manager wrote to OpenKruise's pods or PVCs");
            assertEquals(revisionsBefore, revisionNames(ns), "no revision created or deleted");
            Map<String, JsonNode> statusesAfter = workloadStatuses(ns);
            for (Map.Entry<String, JsonNode> e : statusesBefore.entrySet()) {
                JsonNode before = e.getValue();
                JsonNode after = statusesAfter.get(e.getKey());
                for (String field : List.of("updateRevision", "currentRevision", "collisionCount")) {
                    assertEquals(before.path(field), after.path(field), e.getKey() + " status." + field);
                }
                for (String field : List.of("replicas", "updatedReplicas", "readyReplicas")) {
                    assertEquals(before.path(field).asInt(), after.path(field).asInt(), e.getKey() + " status." + field);
                }
            }
            ContainerRecreateRequest crr = crr(ns);
            assertTrue(crr.getStatus().getPhase().equals(crrPhaseBefore) || crr.getStatus().getCompletionTime() != null,
                    "the CRR stays in flight or moves on: " + crr.getStatus().getPhase());
            assertEquals(fixtures.loaded.get("Pod").stream().filter(p -> p.getMetadata().getName().equals("web-t9w5c"))
                    .findFirst().orElseThrow().getMetadata().getUid(),
                    crr.getMetadata().getLabels().get("crr.apps.kruise.io/pod-uid"));

            // Then a template change rolls out as usual, under the revision OpenKruise would write (reverse direction:
            // history.EqualRevision compares the stored bytes).
            ConflictRetry.run(() -> product.client().resources(CloneSet.class).inNamespace(ns).withName("web")
                    .edit(cs -> {
                        cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nginx:1.28");
                        return cs;
                    }));
            ConflictRetry.run(() -> product.client().resources(StatefulSet.class).inNamespace(ns).withName("db")
                    .edit(s -> {
                        s.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nginx:1.28");
                        return s;
                    }));
            // The manager restarted mid-rollout (as a swap back and forth would) picks it up where it was.
            Await.waitFor("web's update revision written", WAIT, () -> pinned("web-next").path("revision").asText()
                    .equals(product.client().resources(CloneSet.class).inNamespace(ns).withName("web").get()
                            .getStatus().getUpdateRevision()));
            product.restartManagerWithFlags(SYNC_PERIOD);
            for (String owner : List.of("web", "db")) {
                JsonNode pin = pinned(owner + "-next");
                String name = pin.path("revision").asText();
                Await.waitFor(owner + "'s pods at " + name, WAIT, () -> {
                    List<Pod> pods = product.client().pods().inNamespace(ns).withLabel("app", owner).list().getItems();
                    return pods.size() == 3 && pods.stream().allMatch(p -> !Pods.isTerminating(p)
                            && Pods.shortHash(name).equals(Pods.shortHash(Pods.label(p, "controller-revision-hash")))
                            && "nginx:1.28".equals(p.getSpec().getContainers().get(0).getImage()) && Pods.isReady(p));
                });
                assertEquals(pin.path("data").asText(), storedData(ns, name), owner + "'s revision bytes");
                ControllerRevision written = product.client().apps().controllerRevisions().inNamespace(ns)
                        .withName(name).get();
                assertEquals(new ObjectMapper().convertValue(pin.path("labels"), Map.class),
                        written.getMetadata().getLabels(), owner + "'s revision labels");
                assertEquals(new ObjectMapper().convertValue(pin.path("annotations"), Map.class),
                        written.getMetadata().getAnnotations(), owner + "'s revision annotations");
            }
            // web rolled in place: the same three pods.
            assertEquals(Set.of("web-k8x2p", "web-m4q7z", "web-t9w5c"), product.client().pods().inNamespace(ns)
                    .withLabel("app", "web").list().getItems().stream().map(p -> p.getMetadata().getName())
                    .collect(Collectors.toSet()));
            // db kept its reserved ordinal free.
            assertEquals(Set.of("db-0", "db-2", "db-3"), product.client().pods().inNamespace(ns)
                    .withLabel("app", "db").list().getItems().stream().map(p -> p.getMetadata().getName())
                    .collect(Collectors.toSet()));

            // The recorder saw the rollout's writes (so its silence above meant something): web's pods changed in
            // place, db's recreated.
            List<WriteRecorder.Write> all = writes.writes();
            assertTrue(all.stream().anyMatch(w -> w.name().startsWith("web-") && w.changed().contains("spec")),
                    "in-place updates recorded");
            assertTrue(all.stream().anyMatch(w -> w.name().equals("db-0") && w.type().equals("DELETED")),
                    "recreations recorded");

            // The hooks OpenKruise was holding are released: the PreparingDelete pod goes, the PreparingUpdate one
            // is updated in place.
            ConflictRetry.run(() -> product.client().pods().inNamespace(ns).withName("hooked-s3t4v").edit(p -> {
                p.getMetadata().getFinalizers().remove("example.io/drain");
                return p;
            }));
            ConflictRetry.run(() -> product.client().pods().inNamespace(ns).withName("hooked-p1q2r").edit(p -> {
                p.getMetadata().getLabels().remove("example.io/serving");
                return p;
            }));
            String hookedUpdate = statusesBefore.get("CloneSet hooked").path("updateRevision").asText();
            Await.waitFor("hooked-s3t4v deleted and hooked-p1q2r updated in place to " + hookedUpdate, WAIT, () -> {
                Pod kept = product.client().pods().inNamespace(ns).withName("hooked-p1q2r").get();
                return product.client().pods().inNamespace(ns).withName("hooked-s3t4v").get() == null
                        && kept != null && "nginx:1.27".equals(kept.getSpec().getContainers().get(0).getImage())
                        && Pods.shortHash(hookedUpdate).equals(Pods.shortHash(Pods.label(kept,
                        "controller-revision-hash")));
            });
        }
    }

    /**
     * Waits for the kubelet to run every pod, then writes the conditions of the pods' readiness gates
     * (InPlaceUpdateReady, KruisePodReady) as OpenKruise's controllers had written them, True, and waits for the
     * pods to be Ready.
     */
    private static void awaitPodsRunningAndMarkedInPlaceReady(String ns, int count) {
        Await.waitFor(count + " fixture pods running", WAIT, () -> {
            List<Pod> pods = product.client().pods().inNamespace(ns).list().getItems();
            return pods.size() == count && pods.stream().allMatch(p -> "Running".equals(Pods.phase(p)));
        });
        for (Pod p : product.client().pods().inNamespace(ns).list().getItems()) {
            if (p.getSpec().getReadinessGates() == null) {
                continue;
            }
            ConflictRetry.run(() -> product.client().pods().inNamespace(ns).withName(p.getMetadata().getName()).editStatus(live -> {
                List<PodCondition> conditions = live.getStatus().getConditions();
                for (var gate : live.getSpec().getReadinessGates()) {
                    if (conditions.stream().noneMatch(c -> gate.getConditionType().equals(c.getType()))) {
                        conditions.add(new PodConditionBuilder().withType(gate.getConditionType())
                                .withStatus("True").withLastTransitionTime("2026-11-24T10:00:00Z").build());
                    }
                }
                return live;
            }));
        }
        Await.waitFor(count + " fixture pods ready", WAIT, () -> product.client().pods().inNamespace(ns).list()
                .getItems().stream().filter(p -> !Pods.isReady(p)).map(p -> p.getMetadata().getName() + " "
                        + p.getStatus().getConditions().stream().map(c -> c.getType() + "=" + c.getStatus()).toList())
                .toList(), List::isEmpty);
    }

    private static Map<String, JsonNode> workloadStatuses(String ns) {
        Map<String, JsonNode> out = new TreeMap<>();
        ObjectMapper m = new ObjectMapper();
        for (CloneSet cs : product.client().resources(CloneSet.class).inNamespace(ns).list().getItems()) {
            out.put("CloneSet " + cs.getMetadata().getName(), m.valueToTree(cs.getStatus()));
        }
        for (StatefulSet s : product.client().resources(StatefulSet.class).inNamespace(ns).list().getItems()) {
            out.put("StatefulSet " + s.getMetadata().getName(), m.valueToTree(s.getStatus()));
        }
        return out;
    }

    private static Set<String> revisionNames(String ns) {
        return product.client().apps().controllerRevisions().inNamespace(ns).list().getItems().stream()
                .map(r -> r.getMetadata().getName()).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static ContainerRecreateRequest crr(String ns) {
        return product.client().resources(ContainerRecreateRequest.class).inNamespace(ns)
                .withName("web-t9w5c-restart").get();
    }

    /** A revision's {@code data} exactly as the API server returns it (key order and escapes kept). */
    private static String storedData(String ns, String name) throws Exception {
        String body = product.client().raw(product.client().getMasterUrl() + "apis/apps/v1/namespaces/" + ns
                + "/controllerrevisions/" + name);
        assertNotNull(body, "revision " + name + " exists");
        return new ObjectMapper().writeValueAsString(new ObjectMapper().readTree(body).path("data"));
    }

    private static JsonNode pinned(String key) throws Exception {
        return OpenKruiseFixtures.read("pinned-revisions.json").path(key);
    }
}
