package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UnitedDeployments of apps/v1 StatefulSets, Advanced StatefulSets and Deployments over the three simulated zones
 * (the embedded cluster runs the built-in StatefulSet and Deployment controllers and the manager our Advanced
 * StatefulSet controller): the split and scaling, a template change rolled through the subset workloads, manual
 * partitions passed to each (Advanced) StatefulSet subset; a switch of the template's kind replacing the subsets;
 * the ControllerRevision history kept within revisionHistoryLimit with a rollback reusing a kept revision; and a
 * subset template's minReadySeconds honoured by the subset workloads.
 */
class UnitedDeploymentSubsetKindsEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(180);
    static final List<String> ZONES = List.of("zone-a", "zone-b", "zone-c");
    static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .build();

    /** The template key of each kind and its extra spec fields. */
    enum TemplateKind {
        STATEFUL_SET("statefulSetTemplate", StatefulSet.class),
        ADVANCED_STATEFUL_SET("advancedStatefulSetTemplate", dev.kruisevertx.api.apps.v1beta1.StatefulSet.class),
        CLONE_SET("cloneSetTemplate", CloneSet.class),
        DEPLOYMENT("deploymentTemplate", Deployment.class);

        final String key;
        final Class<? extends HasMetadata> type;

        TemplateKind(String key, Class<? extends HasMetadata> type) {
            this.key = key;
            this.type = type;
        }
    }

    static ObjectNode template(TemplateKind kind, String name, String image, Integer minReadySeconds) {
        ObjectNode t = JSON.createObjectNode();
        t.putObject("metadata").putObject("labels").put("app", name);
        ObjectNode spec = t.putObject("spec");
        spec.putObject("selector").putObject("matchLabels").put("app", name);
        if (kind == TemplateKind.STATEFUL_SET || kind == TemplateKind.ADVANCED_STATEFUL_SET) {
            spec.put("serviceName", name).put("podManagementPolicy", "Parallel");
        }
        if (minReadySeconds != null) {
            spec.put("minReadySeconds", minReadySeconds);
        }
        ObjectNode pod = spec.putObject("template");
        pod.putObject("metadata").putObject("labels").put("app", name);
        pod.putObject("spec").putArray("containers").addObject().put("name", "main").put("image", image);
        return t;
    }

    static UnitedDeployment create(TemplateKind kind, String name, int replicas, Integer historyLimit,
                                   Integer minReadySeconds) {
        ObjectNode ud = JSON.createObjectNode();
        ud.put("apiVersion", UnitedDeployment.API_VERSION).put("kind", UnitedDeployment.KIND);
        ud.putObject("metadata").put("name", name).put("namespace", product.namespace());
        ObjectNode spec = ud.putObject("spec");
        spec.put("replicas", replicas);
        if (historyLimit != null) {
            spec.put("revisionHistoryLimit", historyLimit);
        }
        spec.putObject("selector").putObject("matchLabels").put("app", name);
        spec.putObject("template").set(kind.key, template(kind, name, "web:1", minReadySeconds));
        var subsets = spec.putObject("topology").putArray("subsets");
        for (String zone : ZONES) {
            ObjectNode s = subsets.addObject().put("name", "subset-" + zone.substring(5));
            ObjectNode req = s.putObject("nodeSelectorTerm").putArray("matchExpressions").addObject();
            req.put("key", "topology.kubernetes.io/zone").put("operator", "In").putArray("values").add(zone);
        }
        return product.client().resource(ApiJson.serialization().convertValue(ud, UnitedDeployment.class)).create();
    }

    static Resource<UnitedDeployment> ud(String name) {
        return product.client().resources(UnitedDeployment.class).inNamespace(product.namespace()).withName(name);
    }

    static void patch(String name, String mergePatch) {
        ud(name).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    static void setImage(TemplateKind kind, String name, String image) {
        patch(name, "{\"spec\":{\"template\":{\"" + kind.key + "\":{\"spec\":{\"template\":{\"spec\":{\"containers\":"
                + "[{\"name\":\"main\",\"image\":\"" + image + "\"}]}}}}}}}");
    }

    static List<? extends HasMetadata> subsetsOf(Class<? extends HasMetadata> type, UnitedDeployment ud) {
        return product.client().resources(type).inNamespace(product.namespace()).list().getItems().stream()
                .filter(w -> Pods.isControlledBy(w, ud.getMetadata().getUid())).toList();
    }

    /** Subset name to the spec.replicas of its workload. */
    static Map<String, Integer> replicasBySubset(TemplateKind kind, UnitedDeployment ud) {
        return subsetsOf(kind.type, ud).stream().collect(Collectors.toMap(
                w -> w.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL),
                w -> JSON.valueToTree(w).path("spec").path("replicas").asInt(-1), (a, b) -> -1, TreeMap::new));
    }

    static UnitedDeployment waitReady(TemplateKind kind, String name, Map<String, Integer> split) {
        int total = split.values().stream().mapToInt(Integer::intValue).sum();
        UnitedDeployment created = ud(name).get();
        Await.waitFor(name + " subsets " + split, WAIT, () -> replicasBySubset(kind, created), split::equals);
        return Await.waitFor(name + " ready " + total, WAIT, () -> ud(name).get(), u -> u.getStatus() != null
                && u.getStatus().getReadyReplicas() == total && u.getStatus().getReplicas() == total
                && split.equals(u.getStatus().getSubsetReplicas()));
    }

    static List<Pod> livePods(String name) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list().getItems()
                .stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    static PodTemplateSpec podTemplateOf(HasMetadata workload) {
        return JSON.convertValue(JSON.valueToTree(workload).path("spec").path("template"), PodTemplateSpec.class);
    }

    /**
     * Create over three zones, scale 3 to 6, then change the image while subset-a is held by a manual partition of
     * 1: every subset workload gets the new template and revision; pods roll except the held one (for kinds with a
     * partition); releasing the partition finishes the rollout and moves currentRevision.
     */
    void scaleRollAndPartition(TemplateKind kind, String name, boolean hasPartition) {
        UnitedDeployment created = create(kind, name, 3, null, null);
        waitReady(kind, name, Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1));
        Map<String, String> zoneOfNode = product.client().nodes().list().getItems().stream().collect(Collectors.toMap(
                n -> n.getMetadata().getName(), n -> n.getMetadata().getLabels().get("topology.kubernetes.io/zone")));
        for (Pod p : livePods(name)) {
            String subset = p.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL);
            assertEquals("zone-" + subset.substring("subset-".length()), zoneOfNode.get(p.getSpec().getNodeName()),
                    p.getMetadata().getName() + " runs in its subset's zone");
        }
        for (HasMetadata w : subsetsOf(kind.type, created)) {
            String subset = w.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL);
            assertTrue(w.getMetadata().getName().startsWith(name + "-" + subset + "-"), w.getMetadata().getName());
        }
        patch(name, "{\"spec\":{\"replicas\":6}}");
        UnitedDeployment six = waitReady(kind, name, Map.of("subset-a", 2, "subset-b", 2, "subset-c", 2));
        String first = six.getStatus().getCurrentRevision();
        assertEquals(first, six.getStatus().getUpdateStatus().getUpdatedRevision());
        assertTrue(product.client().apps().controllerRevisions().inNamespace(product.namespace()).withName(first)
                .get() != null, "the revision the status names exists");

        patch(name, "{\"spec\":{\"updateStrategy\":{\"manualUpdate\":{\"partitions\":{\"subset-a\":1}}}}}");
        setImage(kind, name, "web:2");
        int updatedWanted = hasPartition ? 5 : 6;
        UnitedDeployment rolled = Await.waitFor(name + " rolled", WAIT, () -> ud(name).get(),
                u -> u.getStatus() != null && u.getStatus().getUpdateStatus() != null
                        && !first.equals(u.getStatus().getUpdateStatus().getUpdatedRevision())
                        && u.getStatus().getReplicas() == 6 && u.getStatus().getUpdatedReplicas() == updatedWanted
                        && u.getStatus().getUpdatedReadyReplicas() == updatedWanted);
        String revision = rolled.getStatus().getUpdateStatus().getUpdatedRevision();
        assertTrue(revision.startsWith(name + "-"), revision);
        for (HasMetadata w : subsetsOf(kind.type, created)) {
            String subset = w.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL);
            assertEquals("web:2", podTemplateOf(w).getSpec().getContainers().get(0).getImage(), subset);
            assertEquals(revision, w.getMetadata().getLabels().get(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL));
            if (hasPartition) {
                int partition = JSON.valueToTree(w).path("spec").path("updateStrategy").path("rollingUpdate")
                        .path("partition").asInt(-1);
                assertEquals("subset-a".equals(subset) ? 1 : 0, partition, subset);
            }
        }
        List<Pod> old = Await.waitFor(name + " old pods gone but the held one", WAIT, () -> livePods(name).stream()
                .filter(p -> "web:1".equals(p.getSpec().getContainers().get(0).getImage())).toList(),
                l -> l.size() == (hasPartition ? 1 : 0));
        if (hasPartition) {
            assertEquals("subset-a", old.get(0).getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL));
            assertEquals(first, rolled.getStatus().getCurrentRevision(), "held back: current stays");
            patch(name, "{\"spec\":{\"updateStrategy\":{\"manualUpdate\":{\"partitions\":{\"subset-a\":0}}}}}");
        }
        Await.waitFor(name + " current revision", WAIT, () -> ud(name).get(),
                u -> revision.equals(u.getStatus().getCurrentRevision()) && u.getStatus().getUpdatedReadyReplicas() == 6);
        Await.waitFor(name + " all pods at web:2", WAIT, () -> livePods(name), l -> l.size() == 6 && l.stream()
                .allMatch(p -> "web:2".equals(p.getSpec().getContainers().get(0).getImage())));
        assertEquals(0, ud(name).get().getStatus().getCollisionCount());
    }

    @Test
    void statefulSetSubsetsScaleRollAndHoldTheirPartitions() {
        scaleRollAndPartition(TemplateKind.STATEFUL_SET, "sts", true);
    }

    @Test
    void advancedStatefulSetSubsetsScaleRollAndHoldTheirPartitions() {
        scaleRollAndPartition(TemplateKind.ADVANCED_STATEFUL_SET, "asts", true);
    }

    @Test
    void deploymentSubsetsScaleAndRollWholly() {
        scaleRollAndPartition(TemplateKind.DEPLOYMENT, "deploy", false);
    }

    @Test
    void switchingTheTemplateKindReplacesTheSubsets() {
        String name = "switch";
        UnitedDeployment created = create(TemplateKind.CLONE_SET, name, 3, null, null);
        waitReady(TemplateKind.CLONE_SET, name, Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1));
        ObjectNode patch = JSON.createObjectNode();
        ObjectNode template = patch.putObject("spec").putObject("template");
        template.putNull(TemplateKind.CLONE_SET.key);
        template.set(TemplateKind.DEPLOYMENT.key, template(TemplateKind.DEPLOYMENT, name, "web:1", null));
        patch(name, patch.toString());
        Await.waitFor(name + " CloneSets deleted", WAIT, () -> subsetsOf(CloneSet.class, created), List::isEmpty);
        waitReady(TemplateKind.DEPLOYMENT, name, Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1));
        Await.waitFor(name + " only Deployment pods", WAIT, () -> livePods(name), l -> l.size() == 3 && l.stream()
                .allMatch(p -> p.getMetadata().getLabels().containsKey("pod-template-hash")));
    }

    @Test
    void revisionHistoryStaysWithinTheLimitAndARollbackReusesAKeptRevision() {
        TemplateKind kind = TemplateKind.CLONE_SET;
        String name = "history";
        UnitedDeployment created = create(kind, name, 3, 2, null);
        Map<String, Integer> split = Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1);
        waitReady(kind, name, split);
        Function<Integer, String> rollTo = v -> {
            setImage(kind, name, "web:" + v);
            return Await.waitFor(name + " at web:" + v, WAIT, () -> ud(name).get(), u -> u.getStatus() != null
                    && u.getStatus().getUpdatedReadyReplicas() == 3 && u.getStatus().getReplicas() == 3
                    && u.getStatus().getCurrentRevision().equals(u.getStatus().getUpdateStatus().getUpdatedRevision())
                    && livePods(name).stream().allMatch(p -> ("web:" + v).equals(
                            p.getSpec().getContainers().get(0).getImage())))
                    .getStatus().getUpdateStatus().getUpdatedRevision();
        };
        String r1 = ud(name).get().getStatus().getCurrentRevision();
        String r2 = rollTo.apply(2);
        String r3 = rollTo.apply(3);
        String r4 = rollTo.apply(4);
        assertEquals(4, Set.of(r1, r2, r3, r4).size(), "one revision per template");
        // Limit 2: the oldest go once the rollout no longer needs them.
        List<ControllerRevision> kept = Await.waitFor(name + " history pruned", WAIT, () -> revisionsOf(created),
                l -> l.size() == 2);
        assertEquals(Set.of(r3, r4), kept.stream().map(r -> r.getMetadata().getName()).collect(Collectors.toSet()));
        for (ControllerRevision r : kept) {
            assertEquals("replace", JSON.valueToTree(r.getData()).path("spec").path("template").path("$patch").asText());
            assertEquals(r.getMetadata().getName(), name + "-" + r.getMetadata().getLabels()
                    .get(UnitedDeploymentRevisions.HASH_LABEL));
        }
        // Back to web:3: its kept revision is reused and renumbered as the newest, no new one is made.
        long r3Number = kept.stream().filter(r -> r.getMetadata().getName().equals(r3)).findFirst().orElseThrow()
                .getRevision();
        assertEquals(r3, rollTo.apply(3));
        ControllerRevision reused = product.client().apps().controllerRevisions().inNamespace(product.namespace())
                .withName(r3).get();
        assertTrue(reused.getRevision() > r3Number, "renumbered as the newest");
        assertTrue(revisionsOf(created).stream().map(r -> r.getMetadata().getName()).collect(Collectors.toSet())
                .containsAll(Set.of(r3, r4)));
        assertNotEquals(r1, r3);
    }

    static List<ControllerRevision> revisionsOf(UnitedDeployment ud) {
        return product.client().apps().controllerRevisions().inNamespace(product.namespace()).list().getItems()
                .stream().filter(r -> Pods.isControlledBy(r, ud.getMetadata().getUid())).toList();
    }

    /**
     * minReadySeconds in the subset template reaches every subset workload, and their availability waits for it: no
     * Deployment ever reports more available pods than have been ready that long.
     */
    @Test
    void minReadySecondsOfTheSubsetTemplateIsHonouredBySubsetWorkloads() throws InterruptedException {
        int minReady = 8;
        String name = "minready";
        UnitedDeployment created = create(TemplateKind.DEPLOYMENT, name, 3, null, minReady);
        Await.waitFor(name + " subsets", WAIT, () -> subsetsOf(Deployment.class, created), l -> l.size() == 3);
        for (HasMetadata w : subsetsOf(Deployment.class, created)) {
            assertEquals(minReady, ((Deployment) w).getSpec().getMinReadySeconds(), w.getMetadata().getName());
        }
        Instant deadline = Instant.now().plus(WAIT);
        int available = 0;
        while (available < 3) {
            assertTrue(Instant.now().isBefore(deadline), "all subset pods available in time");
            available = 0;
            for (HasMetadata w : subsetsOf(Deployment.class, created)) {
                Deployment d = (Deployment) w;
                available += d.getStatus() == null || d.getStatus().getAvailableReplicas() == null ? 0
                        : d.getStatus().getAvailableReplicas();
            }
            // Read after the Deployments: a pod ready long enough then is still so now.
            Instant now = Instant.now();
            // A ready pod without a transition time counts as ready long enough (this bound only over-counts).
            long readyLongEnough = livePods(name).stream().filter(p -> Pods.isReady(p) && (Pods.readySince(p) == null
                    || !Pods.readySince(p).plusSeconds(minReady).isAfter(now))).count();
            assertTrue(available <= readyLongEnough, "available " + available + " but only " + readyLongEnough
                    + " pods ready for " + minReady + "s");
            Thread.sleep(250);
        }
        assertEquals(3, ud(name).get().getStatus().getReadyReplicas());
    }
}
