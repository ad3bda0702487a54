package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A UnitedDeployment of CloneSets over the three simulated zones, in the manager against the embedded cluster:
 * the allocator's split, scaling, a template change reaching every subset, manual partitions passed to the subsets,
 * and the UnitedDeployment deleted mid-operation taking its subsets with it.
 */
class UnitedDeploymentEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final List<String> ZONES = List.of("zone-a", "zone-b", "zone-c");

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .build();

    static UnitedDeployment create(String name, int replicas) {
        return product.client().resource(template(name, replicas)).create();
    }

    static UnitedDeployment template(String name, int replicas) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode ud = json.createObjectNode();
        ud.put("apiVersion", UnitedDeployment.API_VERSION).put("kind", UnitedDeployment.KIND);
        ud.putObject("metadata").put("name", name).put("namespace", product.namespace());
        ObjectNode spec = ud.putObject("spec");
        spec.put("replicas", replicas);
        spec.putObject("selector").putObject("matchLabels").put("app", name);
        ObjectNode cs = spec.putObject("template").putObject("cloneSetTemplate");
        cs.putObject("metadata").putObject("labels").put("app", name);
        ObjectNode csSpec = cs.putObject("spec");
        csSpec.putObject("selector").putObject("matchLabels").put("app", name);
        ObjectNode pod = csSpec.putObject("template");
        pod.putObject("metadata").putObject("labels").put("app", name);
        pod.putObject("spec").putArray("containers").addObject().put("name", "main").put("image", "web:1");
        var subsets = spec.putObject("topology").putArray("subsets");
        for (String zone : ZONES) {
            ObjectNode s = subsets.addObject().put("name", "subset-" + zone.substring(5));
            ObjectNode req = s.putObject("nodeSelectorTerm").putArray("matchExpressions").addObject();
            req.put("key", "topology.kubernetes.io/zone").put("operator", "In").putArray("values").add(zone);
        }
        return ApiJson.serialization().convertValue(ud, UnitedDeployment.class);
    }

    static Resource<UnitedDeployment> ud(String name) {
        return product.client().resources(UnitedDeployment.class).inNamespace(product.namespace()).withName(name);
    }

    static List<CloneSet> subsetsOf(UnitedDeployment ud) {
        return product.client().resources(CloneSet.class).inNamespace(product.namespace()).list().getItems().stream()
                .filter(c -> c.getMetadata().getOwnerReferences() != null && c.getMetadata().getOwnerReferences()
                        .stream().anyMatch(r -> r.getUid().equals(ud.getMetadata().getUid())))
                .toList();
    }

    /** Subset name to the spec.replicas of its CloneSet. */
    static Map<String, Integer> replicasBySubset(UnitedDeployment ud) {
        return subsetsOf(ud).stream().collect(Collectors.toMap(
                c -> c.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL),
                c -> c.getSpec().getReplicas(), (a, b) -> -1, TreeMap::new));
    }

    static void patch(String name, String mergePatch) {
        ud(name).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    static UnitedDeployment waitReady(String name, Map<String, Integer> split) {
        int total = split.values().stream().mapToInt(Integer::intValue).sum();
        UnitedDeployment created = ud(name).get();
        Await.waitFor(name + " subsets " + split, WAIT, () -> replicasBySubset(created), split::equals);
        return Await.waitFor(name + " ready " + total, WAIT, () -> ud(name).get(), u -> u.getStatus() != null
                && u.getStatus().getReadyReplicas() == total && u.getStatus().getReplicas() == total
                && split.equals(u.getStatus().getSubsetReplicas()));
    }

    @Test
    void cloneSetsOverThreeZonesFollowTheAllocatorTemplateAndPartitions() throws Exception {
        String name = "web";
        UnitedDeployment created = create(name, 6);
        // Six replicas over three subsets without fixed counts: two each.
        UnitedDeployment ready = waitReady(name, Map.of("subset-a", 2, "subset-b", 2, "subset-c", 2));
        assertEquals(3, subsetsOf(created).size());
        Map<String, String> zoneOfNode = product.client().nodes().list().getItems().stream().collect(Collectors.toMap(
                n -> n.getMetadata().getName(), (Node n) -> n.getMetadata().getLabels().get("topology.kubernetes.io/zone")));
        List<Pod> pods = product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list().getItems();
        assertEquals(6, pods.size());
        for (Pod p : pods) {
            String subset = p.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL);
            assertEquals("zone-" + subset.substring("subset-".length()), zoneOfNode.get(p.getSpec().getNodeName()),
                    p.getMetadata().getName() + " runs in its subset's zone");
        }
        for (CloneSet c : subsetsOf(created)) {
            String subset = c.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL);
            assertTrue(c.getMetadata().getName().startsWith(name + "-" + subset + "-"), c.getMetadata().getName());
        }
        String firstRevision = ready.getStatus().getCurrentRevision();

        // Scale up to 7: the allocator's split (remainder to the first subset by name among equals).
        patch(name, "{\"spec\":{\"replicas\":7}}");
        Map<String, Integer> seven = ReplicaAllocator.allocate(ud(name).get().spec(), Map.of(
                "subset-a", new SubsetState(2, 2, false, false, 0), "subset-b", new SubsetState(2, 2, false, false, 0),
                "subset-c", new SubsetState(2, 2, false, false, 0)));
        assertEquals(7, seven.values().stream().mapToInt(Integer::intValue).sum());
        waitReady(name, new TreeMap<>(seven));
        // Scale down to 3: one each.
        patch(name, "{\"spec\":{\"replicas\":3}}");
        waitReady(name, Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1));

        // Back to 6, hold subset-a at the old revision for 1 pod, and change the image.
        patch(name, "{\"spec\":{\"replicas\":6,\"updateStrategy\":{\"manualUpdate\":{\"partitions\":{\"subset-a\":1}}},"
                + "\"template\":{\"cloneSetTemplate\":{\"spec\":{\"template\":{\"spec\":{\"containers\":"
                + "[{\"name\":\"main\",\"image\":\"web:2\"}]}}}}}}}");
        UnitedDeployment rolled = Await.waitFor(name + " rolled", WAIT, () -> ud(name).get(),
                u -> u.getStatus() != null && u.getStatus().getUpdateStatus() != null
                        && !firstRevision.equals(u.getStatus().getUpdateStatus().getUpdatedRevision())
                        && u.getStatus().getReplicas() == 6 && u.getStatus().getUpdatedReplicas() == 5
                        && u.getStatus().getUpdatedReadyReplicas() == 5);
        String revision = rolled.getStatus().getUpdateStatus().getUpdatedRevision();
        assertEquals(Map.of("subset-a", 1, "subset-b", 0, "subset-c", 0),
                rolled.getStatus().getUpdateStatus().getCurrentPartitions());
        for (CloneSet c : subsetsOf(created)) {
            String subset = c.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL);
            assertEquals("web:2", c.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(), subset);
            assertEquals(revision, c.getMetadata().getLabels().get(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL));
            int partition = c.getSpec().getUpdateStrategy().getPartition().getIntVal();
            assertEquals("subset-a".equals(subset) ? 1 : 0, partition, subset);
        }
        // kubectl kruise why names the partition that holds subset-a's pod.
        UnitedDeploymentWhy.awaitWhy(product, "ud/" + name, () -> "uniteddeployment.apps.kruise.io/" + name
                + " in namespace " + product.namespace() + "\n"
                + "  rollout: Waiting for united deployment \"" + name + "\": 6 of 6 ready, 5 updated and ready, over 3 "
                + "subsets\n"
                + "  held by Partition: updateStrategy.manualUpdate.partitions.subset-a 1 keeps 1 pod at the current "
                + "revision\n", WAIT);
        List<Pod> old = product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list()
                .getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
                        && "web:1".equals(p.getSpec().getContainers().get(0).getImage())).toList();
        assertEquals(1, old.size(), "one pod held at the old revision");
        assertEquals("subset-a", old.get(0).getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL));
        // Releasing the partition finishes the rollout and moves currentRevision.
        patch(name, "{\"spec\":{\"updateStrategy\":{\"manualUpdate\":{\"partitions\":{\"subset-a\":0}}}}}");
        Await.waitFor(name + " current revision", WAIT, () -> ud(name).get(),
                u -> revision.equals(u.getStatus().getCurrentRevision()) && u.getStatus().getUpdatedReadyReplicas() == 6);
    }

    @Test
    void scaledThroughTheScaleSubresourceThenDeletedMidScaleTakesItsSubsetsWithIt() {
        String name = "gone";
        UnitedDeployment created = create(name, 3);
        waitReady(name, Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1));
        // Scaled through the scale subresource, as `kubectl scale ud` does.
        ud(name).scale(9);
        assertEquals(9, ud(name).get().getSpec().getReplicas());
        Await.waitFor(name + " scaling", WAIT, () -> replicasBySubset(created),
                m -> m.values().stream().mapToInt(Integer::intValue).sum() > 3);
        ud(name).delete();
        Await.waitFor(name + " subsets collected", WAIT, () -> subsetsOf(created), List::isEmpty);
        Await.waitFor(name + " pods collected", WAIT, () -> product.client().pods().inNamespace(product.namespace())
                .withLabel("app", name).list().getItems(), List::isEmpty);
    }

    /** The same UnitedDeployment with its CloneSet template edited by {@code template} (JSON of its spec). */
    static UnitedDeployment createWith(String name, int replicas, java.util.function.Consumer<ObjectNode> cloneSetSpec) {
        ObjectNode tree = new ObjectMapper().valueToTree(ApiJson.serialization().convertValue(template(name, replicas),
                java.util.Map.class));
        cloneSetSpec.accept((ObjectNode) tree.path("spec").path("template").path("cloneSetTemplate").path("spec"));
        return product.client().resource(ApiJson.serialization().convertValue(tree, UnitedDeployment.class)).create();
    }

    @Test
    void minReadySecondsPacesTheSubsetsAndAManagerRestartMidRolloutFinishesIt() throws Exception {
        String name = "restart";
        createWith(name, 6, cs -> {
            cs.put("minReadySeconds", 2);
            cs.putObject("updateStrategy").put("maxUnavailable", 1);
        });
        UnitedDeployment ready = waitReady(name, Map.of("subset-a", 2, "subset-b", 2, "subset-c", 2));
        for (CloneSet c : subsetsOf(ready)) {
            assertEquals(2, c.getSpec().getMinReadySeconds(), "the template's minReadySeconds reaches every subset");
        }
        String first = ready.getStatus().getCurrentRevision();
        patch(name, "{\"spec\":{\"template\":{\"cloneSetTemplate\":{\"spec\":{\"template\":{\"spec\":"
                + "{\"containers\":[{\"name\":\"main\",\"image\":\"web:2\"}]}}}}}}}");
        // Mid-rollout: some pods updated, not all (each subset updates one pod at a time, 2s apart at least).
        UnitedDeployment mid = Await.waitFor(name + " mid-rollout", WAIT, () -> ud(name).get(),
                u -> u.getStatus().getUpdateStatus() != null
                        && !first.equals(u.getStatus().getUpdateStatus().getUpdatedRevision())
                        && u.getStatus().getUpdatedReplicas() >= 1);
        assertEquals(first, mid.getStatus().getCurrentRevision(), "currentRevision moves only when all are updated");
        assertTrue(mid.getStatus().getConditions().stream().anyMatch(c -> "UnitedDeploymentUpdated".equals(c.getType())
                && "False".equals(c.getStatus()) && "UnitedDeploymentRevisionUpdating".equals(c.getReason())),
                String.valueOf(mid.getStatus().getConditions()));
        product.restartManager();
        String revision = mid.getStatus().getUpdateStatus().getUpdatedRevision();
        UnitedDeployment done = Await.waitFor(name + " rolled out after the restart", WAIT, () -> ud(name).get(),
                u -> revision.equals(u.getStatus().getCurrentRevision()) && u.getStatus().getUpdatedReadyReplicas() == 6
                        && u.getStatus().getReplicas() == 6);
        assertTrue(done.getStatus().getConditions().stream().anyMatch(c -> "UnitedDeploymentUpdated".equals(c.getType())
                && "True".equals(c.getStatus()) && ("updated to revision " + revision).equals(c.getMessage())),
                String.valueOf(done.getStatus().getConditions()));
        assertEquals(3, subsetsOf(done).size(), "the restarted manager adopted the subsets instead of adding more");
        List<Pod> pods = product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list()
                .getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
        assertEquals(6, pods.size());
        pods.forEach(p -> assertEquals("web:2", p.getSpec().getContainers().get(0).getImage()));
    }

    @Test
    void aConflictingWriterOnASubsetCloneSetIsPutBack() {
        String name = "conflict";
        UnitedDeployment created = create(name, 4);
        // The remainder goes to the last subset by name among equals.
        Map<String, Integer> split = Map.of("subset-a", 1, "subset-b", 1, "subset-c", 2);
        waitReady(name, split);
        CloneSet c = subsetsOf(created).stream().filter(x -> "subset-c".equals(x.getMetadata().getLabels()
                .get(UnitedDeployment.SUBSET_NAME_LABEL))).findFirst().orElseThrow();
        // Someone else scales the subset and sets a partition on it (it stays the biggest, so the split stands).
        product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(c.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"replicas\":5,\"updateStrategy\":{\"partition\":3}}}");
        Await.waitFor("subset-c put back", WAIT, () -> product.client().resources(CloneSet.class)
                .inNamespace(product.namespace()).withName(c.getMetadata().getName()).get(),
                x -> x.getSpec().getReplicas() == 2 && x.getSpec().getUpdateStrategy().getPartition() != null
                        && x.getSpec().getUpdateStrategy().getPartition().getIntVal() == 0);
        waitReady(name, split);
        // A subset CloneSet deleted by someone else is made again (the split may move the remainder: the allocator
        // gives it to the subsets that have the most replicas when it decides).
        product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(c.getMetadata().getName())
                .delete();
        Await.waitFor("subset-c made again", WAIT, () -> subsetsOf(created).stream()
                .filter(x -> x.getMetadata().getDeletionTimestamp() == null)
                .map(x -> x.getMetadata().getLabels().get(UnitedDeployment.SUBSET_NAME_LABEL)).sorted().toList(),
                List.of("subset-a", "subset-b", "subset-c")::equals);
        // Settled: the status's split is the subsets' replicas, every subset has a pod, all four ready.
        UnitedDeployment after = Await.waitFor(name + " ready again", WAIT, () -> ud(name).get(),
                u -> u.getStatus().getReadyReplicas() == 4 && u.getStatus().getReplicas() == 4
                        && u.getStatus().getSubsetReplicas().values().stream().allMatch(n -> n >= 1)
                        && u.getStatus().getSubsetReplicas().equals(replicasBySubset(created)));
        assertEquals(4, after.getStatus().getSubsetReplicas().values().stream().mapToInt(Integer::intValue).sum());
    }

    /** The API server's answer to creating {@code yaml}: its message, or "created". */
    static String tryCreate(String json) {
        try {
            // Raw JSON: a value of the wrong type must reach the API server as it is.
            io.fabric8.kubernetes.api.model.GenericKubernetesResource object = ApiJson.serialization().unmarshal(json,
                    io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
            product.client().genericKubernetesResources(UnitedDeployment.API_VERSION, UnitedDeployment.KIND)
                    .inNamespace(product.namespace()).resource(object).create();
            return "created";
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            return e.getCode() + " " + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
        }
    }

    static String json(String name, String spec) {
        return ("{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"UnitedDeployment\",\"metadata\":{\"name\":\""
                + name + "\",\"namespace\":\"" + product.namespace() + "\"},\"spec\":" + spec + "}");
    }

    static String spec(String replicas, String subsets, String cloneSetSpecExtra) {
        return "{\"replicas\":" + replicas + ",\"selector\":{\"matchLabels\":{\"app\":\"h\"}},\"template\":{\"cloneSetTemplate\":"
                + "{\"metadata\":{\"labels\":{\"app\":\"h\"}},\"spec\":{" + cloneSetSpecExtra
                + "\"selector\":{\"matchLabels\":{\"app\":\"h\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"h\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"web:1\"}]}}}}},\"topology\":{\"subsets\":"
                + subsets + "}}";
    }

    @Test
    void hostileSpecsAreRefusedWithTheFieldOrHandledWithoutHarm() {
        // Refused by the webhook or the API server, each with the field and the rule.
        assertTrue(tryCreate(json("neg", spec("-1", "[{\"name\":\"a\"}]", ""))).contains("spec.replicas"),
                "negative replicas");
        String pct = tryCreate(json("pct", spec("10", "[{\"name\":\"a\",\"replicas\":\"150%\"},{\"name\":\"b\"}]", "")));
        assertTrue(pct.startsWith("422") && pct.contains("spec.topology.subsets[0].replicas") && pct.contains("150%"), pct);
        String type = tryCreate(json("type", spec("\"many\"", "[{\"name\":\"a\"}]", "")));
        assertTrue(type.startsWith("4") && type.contains("spec.replicas"), type);
        String dup = tryCreate(json("dup", spec("2", "[{\"name\":\"a\"},{\"name\":\"a\"}]", "")));
        assertTrue(dup.startsWith("422") && dup.contains("duplicated subset name a"), dup);
        assertEquals(List.of(), product.client().resources(UnitedDeployment.class).inNamespace(product.namespace())
                .list().getItems(), "nothing refused was stored");

        // Huge replicas: split without overflow; the template's scaleStrategy.maxUnavailable 0 keeps the CloneSets
        // from creating pods, so only the numbers are checked.
        String max = String.valueOf(Integer.MAX_VALUE);
        assertEquals("created", tryCreate(json("huge", spec(max, "[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]",
                "\"scaleStrategy\":{\"maxUnavailable\":0},"))));
        UnitedDeployment huge = Await.waitFor("huge split", WAIT, () -> ud("huge").get(), u -> u.getStatus() != null
                && u.getStatus().getSubsetReplicas() != null && u.getStatus().getSubsetReplicas().size() == 3);
        assertEquals((long) Integer.MAX_VALUE, huge.getStatus().getSubsetReplicas().values().stream()
                .mapToLong(Integer::longValue).sum());
        Await.waitFor("huge subsets", WAIT, () -> replicasBySubset(huge).values().stream().mapToLong(Integer::longValue)
                .sum() == Integer.MAX_VALUE);
        ud("huge").delete();

        // A thousand subsets with no replicas: a thousand empty CloneSets, the status lists them all.
        StringBuilder subsets = new StringBuilder("[");
        for (int i = 0; i < 1000; i++) {
            subsets.append(i == 0 ? "" : ",").append("{\"name\":\"s").append(i).append("\"}");
        }
        assertEquals("created", tryCreate(json("many", spec("0", subsets.append(']').toString(), ""))));
        UnitedDeployment many = Await.waitFor("a thousand subsets", Duration.ofMinutes(5), () -> ud("many").get(),
                u -> u.getStatus() != null && u.getStatus().getSubsetStatuses() != null
                        && u.getStatus().getSubsetStatuses().size() == 1000 && u.getStatus().getObservedGeneration() == 1
                        && u.getStatus().getSubsetReplicas().size() == 1000);
        assertEquals(1000, subsetsOf(many).size());
        assertEquals(0, many.getStatus().getReplicas());
        ud("many").delete();

        // The manager still works.
        create("after", 3);
        waitReady("after", Map.of("subset-a", 1, "subset-b", 1, "subset-c", 1));
    }
}
