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
        UnitedDeployment object = ApiJson.serialization().convertValue(ud, UnitedDeployment.class);
        return product.client().resource(object).create();
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
}
