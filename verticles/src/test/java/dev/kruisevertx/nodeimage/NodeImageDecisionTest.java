package dev.kruisevertx.nodeimage;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** NodeImage lifecycle, label sync and tag expiry: OpenKruise's nodeimage reconcile as a table of facts. */
class NodeImageDecisionTest {
    static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
    static final Duration DELAY = Duration.ofSeconds(30);
    static final NodeImageDecision.Owners NONE_ALIVE = ref -> false;
    static final NodeImageDecision.Owners ALL_ALIVE = ref -> true;

    static Node node(String readyStatus, Instant since, Map<String, String> labels) {
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName("n1").withLabels(labels).endMetadata();
        if (readyStatus != null) {
            b.withNewStatus().addNewCondition().withType("Ready").withStatus(readyStatus)
                    .withLastTransitionTime(since.toString()).endCondition().endStatus();
        }
        return b.build();
    }

    static NodeImage nodeImage(Map<String, String> labels) {
        NodeImage n = new NodeImage();
        n.setMetadata(new ObjectMetaBuilder().withName("n1").withLabels(labels).build());
        n.setSpec(new NodeImageSpec());
        n.getSpec().setImages(new LinkedHashMap<>());
        return n;
    }

    static ObjectReference job(String name) {
        return new ObjectReferenceBuilder().withApiVersion("apps.kruise.io/v1beta1").withKind("ImagePullJob")
                .withNamespace("ns").withName(name).withUid(name + "-uid").build();
    }

    static NodeImage tag(NodeImage n, String image, String tag, Integer ttl, String createdAt, ObjectReference... owners) {
        ImageSpec spec = n.getSpec().getImages().computeIfAbsent(image, k -> new ImageSpec());
        List<ImageTagSpec> tags = new ArrayList<>(spec.tags());
        ImageTagSpec t = new ImageTagSpec();
        t.setTag(tag);
        t.setCreatedAt(createdAt);
        t.setVersion(0L);
        if (ttl != null) {
            t.setPullPolicy(new ImageTagPullPolicy());
            t.getPullPolicy().setTtlSecondsAfterFinished(ttl);
        }
        t.setOwnerReferences(owners.length == 0 ? null : List.of(owners));
        tags.add(t);
        spec.setTags(tags);
        return n;
    }

    static NodeImage completed(NodeImage n, String image, String tag, Instant at) {
        if (n.getStatus() == null) {
            n.setStatus(new NodeImageStatus());
            n.getStatus().setImageStatuses(new HashMap<>());
        }
        ImageStatus s = n.getStatus().getImageStatuses().computeIfAbsent(image, k -> new ImageStatus());
        List<ImageTagStatus> tags = new ArrayList<>(s.tags());
        ImageTagStatus t = new ImageTagStatus();
        t.setTag(tag);
        t.setPhase("Succeeded");
        t.setVersion(0L);
        t.setCompletionTime(at.toString());
        tags.add(t);
        s.setTags(tags);
        return n;
    }

    static final String CREATED = "2026-11-24T10:00:00Z";

    @Test
    void createdOnlyAfterTheDelayOfAReadyNode() {
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(node(null, NOW, null), null, ALL_ALIVE, NOW, DELAY).action());
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(node("False", NOW.minusSeconds(100), null), null, ALL_ALIVE, NOW, DELAY).action());
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(node("Unknown", NOW.minusSeconds(100), null), null, ALL_ALIVE, NOW, DELAY).action());
        NodeImagePlan early = NodeImageDecision.decide(node("True", NOW.minusSeconds(10), null), null, ALL_ALIVE, NOW, DELAY);
        assertEquals(NodeImagePlan.Action.NONE, early.action());
        assertEquals(Duration.ofSeconds(20), early.requeueAfter());
        NodeImagePlan create = NodeImageDecision.decide(node("True", NOW.minusSeconds(30), Map.of("zone", "a")), null, ALL_ALIVE, NOW, DELAY);
        assertEquals(NodeImagePlan.Action.CREATE, create.action());
        assertEquals(Map.of("zone", "a"), create.labels());
        assertEquals(NodeImagePlan.Action.CREATE, NodeImageDecision.decide(node("True", NOW, null), null, ALL_ALIVE, NOW, Duration.ZERO).action());
    }

    @Test
    void deletedWithItsNodeUnlessFake() {
        assertEquals(NodeImagePlan.Action.DELETE, NodeImageDecision.decide(null, nodeImage(null), ALL_ALIVE, NOW, DELAY).action());
        Node deleting = node("True", NOW.minusSeconds(100), null);
        deleting.getMetadata().setDeletionTimestamp(NOW.toString());
        assertEquals(NodeImagePlan.Action.DELETE, NodeImageDecision.decide(deleting, nodeImage(null), ALL_ALIVE, NOW, DELAY).action());
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(null, null, ALL_ALIVE, NOW, DELAY).action());
        NodeImage going = nodeImage(null);
        going.getMetadata().setDeletionTimestamp(NOW.toString());
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(null, going, ALL_ALIVE, NOW, DELAY).action());
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(null,
                nodeImage(Map.of(NodeImageDecision.FAKE_LABEL, "true")), ALL_ALIVE, NOW, DELAY).action());
    }

    @Test
    void labelsFollowTheNode() {
        Node n = node("True", NOW.minusSeconds(100), Map.of("zone", "b"));
        NodeImagePlan plan = NodeImageDecision.decide(n, nodeImage(Map.of("zone", "a")), ALL_ALIVE, NOW, DELAY);
        assertEquals(NodeImagePlan.Action.UPDATE, plan.action());
        assertEquals(Map.of("zone", "b"), plan.labels());
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(node("True", NOW, Map.of("zone", "a")),
                nodeImage(Map.of("zone", "a")), ALL_ALIVE, NOW, DELAY).action());
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(node("True", NOW, Map.of()),
                nodeImage(null), ALL_ALIVE, NOW, DELAY).action(), "no labels and empty labels are the same");
    }

    static Map<String, List<String>> tagsOf(NodeImagePlan plan) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        plan.images().forEach((k, v) -> out.put(k, v.tags().stream().map(ImageTagSpec::getTag).toList()));
        return out;
    }

    @Test
    void tagsWithoutCreatedAtAreDropped() {
        NodeImage ni = tag(tag(nodeImage(null), "nginx", "1", null, null), "nginx", "2", null, CREATED);
        NodeImagePlan plan = NodeImageDecision.decide(node("True", NOW, null), ni, ALL_ALIVE, NOW, DELAY);
        assertEquals(Map.of("nginx", List.of("2")), tagsOf(plan));
        assertEquals(List.of("image nginx:1 has no createAt field"), plan.messages());
    }

    @Test
    void tagsLoseGoneJobOwnersAndGoWithTheLastOne() {
        ObjectReference a = job("a");
        ObjectReference b = job("b");
        NodeImage ni = tag(tag(nodeImage(null), "nginx", "1", null, CREATED, a, b), "redis", "7", null, CREATED, b);
        NodeImagePlan plan = NodeImageDecision.decide(node("True", NOW, null), ni, ref -> ref.getName().equals("a"), NOW, DELAY);
        assertEquals(Map.of("nginx", List.of("1")), tagsOf(plan));
        assertEquals(List.of(a), plan.images().get("nginx").getTags().get(0).getOwnerReferences());
        assertEquals(List.of("image nginx:1 owners changed from 2 to 1", "image redis:7 owners is cleared",
                "no longer has redis image spec"), plan.messages());
        // the cached tag is untouched
        assertEquals(2, ni.getSpec().getImages().get("nginx").getTags().get(0).getOwnerReferences().size());
    }

    @Test
    void ownersOfOtherKindsAreKeptAndTagsWithoutOwnersStay() {
        ObjectReference cloneSet = new ObjectReferenceBuilder().withApiVersion("apps.kruise.io/v1alpha1")
                .withKind("CloneSet").withName("c").withUid("c-uid").build();
        ObjectReference foreignJob = new ObjectReferenceBuilder().withApiVersion("example.com/v1")
                .withKind("ImagePullJob").withName("x").withUid("x-uid").build();
        NodeImage ni = tag(tag(nodeImage(null), "nginx", "1", null, CREATED, cloneSet, foreignJob), "nginx", "2", null, CREATED);
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(node("True", NOW, null), ni, NONE_ALIVE, NOW, DELAY).action());
    }

    @Test
    void ttlCountsFromTheCompletionOfTheSameVersion() {
        NodeImage ni = completed(tag(tag(nodeImage(null), "nginx", "1", 100, CREATED), "nginx", "2", 100, CREATED),
                "nginx", "1", NOW.minusSeconds(100));
        completed(ni, "nginx", "2", NOW.minusSeconds(40));
        NodeImagePlan plan = NodeImageDecision.decide(node("True", NOW, null), ni, ALL_ALIVE, NOW, DELAY);
        assertEquals(Map.of("nginx", List.of("2")), tagsOf(plan));
        assertEquals(Duration.ofSeconds(60), plan.requeueAfter());
        // a newer version of the tag is not expired by the old completion
        ni.getSpec().getImages().get("nginx").getTags().get(0).setVersion(1L);
        NodeImagePlan newer = NodeImageDecision.decide(node("True", NOW, null), ni, ALL_ALIVE, NOW, DELAY);
        assertEquals(NodeImagePlan.Action.NONE, newer.action());
        assertEquals(Duration.ofSeconds(60), newer.requeueAfter());
    }

    @Test
    void aStatusListingATagTwiceCountsTheEntryOfTheSpecsVersion() {
        // Statuses are looked up by tag and version once per image (not scanned per tag): an older entry for the
        // same tag listed first must not hide the one of the current version.
        NodeImage ni = tag(nodeImage(null), "nginx", "1", 100, CREATED);
        ni.getSpec().getImages().get("nginx").getTags().get(0).setVersion(1L);
        completed(ni, "nginx", "1", NOW.minusSeconds(1_000));
        completed(ni, "nginx", "1", NOW.minusSeconds(40));
        ni.getStatus().getImageStatuses().get("nginx").getTags().get(1).setVersion(1L);
        NodeImagePlan plan = NodeImageDecision.decide(node("True", NOW, null), ni, ALL_ALIVE, NOW, DELAY);
        assertEquals(NodeImagePlan.Action.NONE, plan.action(), "version 1 finished 40 s ago: 60 s of its TTL left");
        assertEquals(Duration.ofSeconds(60), plan.requeueAfter());
        ni.getStatus().getImageStatuses().get("nginx").getTags().get(1).setCompletionTime(NOW.minusSeconds(200).toString());
        assertEquals(Map.of(), tagsOf(NodeImageDecision.decide(node("True", NOW, null), ni, ALL_ALIVE, NOW, DELAY)));
    }

    @Test
    void noTtlOrNotCompletedKeepsTheTag() {
        NodeImage ni = completed(tag(nodeImage(null), "nginx", "1", null, CREATED), "nginx", "1", NOW.minusSeconds(1_000_000));
        assertEquals(NodeImagePlan.Action.NONE, NodeImageDecision.decide(node("True", NOW, null), ni, ALL_ALIVE, NOW, DELAY).action());
        NodeImage pulling = tag(nodeImage(null), "nginx", "1", 1, CREATED);
        NodeImagePlan plan = NodeImageDecision.decide(node("True", NOW, null), pulling, ALL_ALIVE, NOW, DELAY);
        assertEquals(NodeImagePlan.Action.NONE, plan.action());
        assertNull(plan.requeueAfter());
    }

    @Test
    void tagsStaySortedAndSecretsAndSandboxAreKept() {
        NodeImage ni = tag(tag(tag(nodeImage(null), "nginx", "b", null, CREATED), "nginx", "a", null, null), "nginx", "c", null, CREATED);
        ni.getSpec().getImages().get("nginx").setPullSecrets(List.of(new dev.kruisevertx.api.apps.v1beta1.ReferenceObject("kruise-daemon-config", "s")));
        NodeImagePlan plan = NodeImageDecision.decide(node("True", NOW, null), ni, ALL_ALIVE, NOW, DELAY);
        assertEquals(List.of("b", "c"), tagsOf(plan).get("nginx"));
        assertEquals(1, plan.images().get("nginx").getPullSecrets().size());
        assertEquals(Set.of("nginx"), plan.images().keySet());
    }
}
