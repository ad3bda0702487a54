package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pod edits and pod questions of a SidecarSet's in-place and hot upgrade (OpenKruise v1.9's sidecarcontrol). */
class SidecarPodUpgradeTest {
    static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    static SidecarSet set(String containers) {
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'mesh',"
                + "'resourceVersion':'77','annotations':{'kruise.io/sidecarset-hash':'h2',"
                + "'kruise.io/sidecarset-hash-without-image':'w'}},'spec':{'selector':{'matchLabels':{'app':'web'}},"
                + "'containers':" + containers + "},'status':{'latestRevision':'mesh-rev2'}}").replace('\'', '"');
        return ApiJson.serialization().unmarshal(json, SidecarSet.class);
    }

    static final String COLD = "[{'name':'log','image':'log:2'}]";
    static final String HOT = "[{'name':'envoy','image':'envoy:2','upgradeStrategy':{'upgradeType':'HotUpgrade',"
            + "'hotUpgradeEmptyImage':'empty:1'}}]";

    /** A pod: containers name=image, statuses name=image (ready), annotations. */
    static Pod pod(Map<String, String> containers, Map<String, String> running, Map<String, String> annotations) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withResourceVersion("5")
                .addToLabels("app", "web").addToAnnotations(annotations).endMetadata().withNewSpec().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                .endCondition().endStatus();
        containers.forEach((n, i) -> b.editSpec().addNewContainer().withName(n).withImage(i).endContainer().endSpec());
        running.forEach((n, i) -> b.editStatus().addNewContainerStatus().withName(n).withImage(i)
                .withImageID("sha256:" + i.replace(':', '-')).withReady(true).endContainerStatus().endStatus());
        return b.build();
    }

    static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static String image(Pod pod, String name) {
        return pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(name)).map(Container::getImage)
                .findFirst().orElseThrow();
    }

    static JsonNode json(Pod pod, String annotation) {
        return ApiJson.serialization().unmarshal(Pods.annotations(pod).get(annotation), JsonNode.class);
    }

    @Test
    void coldUpgradeChangesOnlyTheImageAndRecordsHashRevisionAndImageIds() {
        Pod before = pod(ordered("log", "log:1", "main", "app:1"), ordered("log", "log:1", "main", "app:1"),
                Map.of("kruise.io/sidecarset-hash", "{\"mesh\":{\"hash\":\"h1\",\"sidecarSetName\":\"mesh\"},"
                        + "\"other\":{\"hash\":\"o\",\"sidecarSetName\":\"other\"}}",
                        "kruise.io/sidecarset-injected-list", "mesh,other"));
        SidecarPodUpgrade.Upgraded up = SidecarPodUpgrade.upgrade(set(COLD), before, NOW);
        assertEquals(List.of("log"), up.changed());
        assertEquals("log:2", image(up.pod(), "log"));
        assertEquals("app:1", image(up.pod(), "main"));
        assertEquals("log:1", image(before, "log"), "the cached pod is never changed");
        JsonNode hash = json(up.pod(), "kruise.io/sidecarset-hash");
        assertEquals("h2", hash.path("mesh").path("hash").asText());
        assertEquals("mesh-rev2", hash.path("mesh").path("controllerRevision").asText());
        assertEquals("2026-11-24T08:00:00Z", hash.path("mesh").path("updateTimestamp").asText());
        assertEquals("[\"log\"]", hash.path("mesh").path("sidecarList").toString());
        assertEquals("o", hash.path("other").path("hash").asText(), "other SidecarSets' entries are kept");
        JsonNode state = json(up.pod(), SidecarPodState.INPLACE_UPDATE_STATE_ANNOTATION);
        assertEquals("sha256:log-1", state.path("mesh").path("lastContainerStatuses").path("log").path("imageID").asText());
        assertEquals("h2", state.path("mesh").path("revision").asText());
        assertEquals("mesh,other", Pods.annotations(up.pod()).get("kruise.io/sidecarset-injected-list"));
    }

    @Test
    void theOlderHashFormIsReadAndAMissingInjectedListIsAdded() {
        Pod before = pod(ordered("log", "log:1"), ordered("log", "log:1"),
                Map.of("kruise.io/sidecarset-hash", "{\"mesh\":\"h1\",\"other\":\"o\"}"));
        Pod after = SidecarPodUpgrade.upgrade(set(COLD), before, NOW).pod();
        JsonNode hash = json(after, "kruise.io/sidecarset-hash");
        assertEquals("h2", hash.path("mesh").path("hash").asText());
        assertEquals("o", hash.path("other").path("hash").asText());
        assertEquals("mesh", Pods.annotations(after).get("kruise.io/sidecarset-injected-list"));
    }

    @Test
    void aPodAlreadyOnTheImageOnlyGetsTheNewHash() {
        Pod before = pod(ordered("log", "log:2"), ordered("log", "log:2"), Map.of());
        SidecarPodUpgrade.Upgraded up = SidecarPodUpgrade.upgrade(set(COLD), before, NOW);
        assertEquals(List.of(), up.changed());
        assertEquals("h2", json(up.pod(), "kruise.io/sidecarset-hash").path("mesh").path("hash").asText());
    }

    /** OpenKruise v1.9's updatePodSidecarAndHash patches the pod's metadata on the upgrade as well. */
    @Test
    void anUpgradeAppliesPatchPodMetadataAgain() {
        SidecarSet set = set(COLD);
        set.getSpec().setPatchPodMetadata(List.of(patch(null, Map.of("keep", "new", "add", "1")),
                patch("Overwrite", Map.of("over", "new")), patch("MergePatchJson", Map.of("cfg", "{\"b\":2}"))));
        Pod before = pod(ordered("log", "log:1"), ordered("log", "log:1"),
                Map.of("keep", "old", "over", "old", "cfg", "{\"a\":1}"));
        Map<String, String> after = Pods.annotations(SidecarPodUpgrade.upgrade(set, before, NOW).pod());
        assertEquals("old", after.get("keep"), "Retain keeps the pod's value");
        assertEquals("1", after.get("add"), "Retain adds a missing key");
        assertEquals("new", after.get("over"));
        assertEquals("{\"a\":1,\"b\":2}", after.get("cfg"));

        Pod notJson = pod(ordered("log", "log:1"), ordered("log", "log:1"), Map.of("cfg", "{x"));
        assertThrows(IllegalArgumentException.class, () -> SidecarPodUpgrade.upgrade(set, notJson, NOW),
                "a pod value that is not JSON fails the upgrade, as OpenKruise returns the merge error");
    }

    static dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPodMetadata patch(String policy, Map<String, String> values) {
        var p = new dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPodMetadata();
        p.setPatchPolicy(policy);
        p.setAnnotations(values);
        return p;
    }

    static Stream<Arguments> hotCases() {
        String working1 = "{\"envoy\":\"envoy-1\"}";
        String working2 = "{\"envoy\":\"envoy-2\"}";
        return Stream.of(
                Arguments.of("the idle container on the empty image takes the new image",
                        ordered("envoy-1", "envoy:1", "envoy-2", "empty:1"), ordered("envoy-1", "envoy:1", "envoy-2", "empty:1"),
                        working1, "envoy-2"),
                Arguments.of("also when -1 is the idle one", ordered("envoy-1", "empty:1", "envoy-2", "envoy:1"),
                        ordered("envoy-1", "empty:1", "envoy-2", "envoy:1"), working2, "envoy-1"),
                Arguments.of("no idle container: the one not ready", ordered("envoy-1", "envoy:1", "envoy-2", "envoy:0"),
                        ordered("envoy-1", "envoy:1"), working1, "envoy-2"),
                Arguments.of("no idle container, both ready: the older (not working) one",
                        ordered("envoy-1", "envoy:1", "envoy-2", "envoy:0"),
                        ordered("envoy-1", "envoy:1", "envoy-2", "envoy:0"), working2, "envoy-1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hotCases")
    void hotUpgradeTarget(String name, Map<String, String> containers, Map<String, String> running, String working,
                          String expected) {
        Pod before = pod(containers, running, Map.of(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION, working,
                "version.sidecarset.kruise.io/envoy-1", "1", "version.sidecarset.kruise.io/envoy-2", "3"));
        SidecarPodUpgrade.Upgraded up = SidecarPodUpgrade.upgrade(set(HOT), before, NOW);
        assertEquals(List.of(expected), up.changed());
        assertEquals("envoy:2", image(up.pod(), expected));
        Map<String, String> a = Pods.annotations(up.pod());
        assertEquals("{\"envoy\":\"" + expected + "\"}", a.get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION));
        String other = expected.equals("envoy-1") ? "envoy-2" : "envoy-1";
        assertEquals("77", a.get("version.sidecarset.kruise.io/" + expected));
        assertEquals(a.get("version.sidecarset.kruise.io/" + other), a.get("versionalt.sidecarset.kruise.io/" + expected));
        assertEquals("77", a.get("versionalt.sidecarset.kruise.io/" + other));
    }

    @Test
    void resetIdlePutsTheEmptyImageBackOnlyWhenNeeded() {
        Pod swapped = pod(ordered("envoy-1", "envoy:1", "envoy-2", "envoy:2"), ordered("envoy-1", "envoy:1", "envoy-2", "envoy:2"),
                Map.of(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION, "{\"envoy\":\"envoy-2\"}"));
        SidecarSet set = set(HOT);
        assertTrue(SidecarPodState.inHotUpgrading(swapped, set));
        assertFalse(SidecarPodState.ready(swapped, set), "an idle container not on the empty image: not ready");
        Pod reset = SidecarPodUpgrade.resetIdle(set, swapped, NOW);
        assertEquals("empty:1", image(reset, "envoy-1"));
        assertEquals("envoy:2", image(reset, "envoy-2"));
        assertEquals("0", Pods.annotations(reset).get("version.sidecarset.kruise.io/envoy-1"));
        assertEquals("0", Pods.annotations(reset).get("versionalt.sidecarset.kruise.io/envoy-2"));
        assertEquals("sha256:envoy-1", json(reset, SidecarPodState.INPLACE_UPDATE_STATE_ANNOTATION).path("mesh")
                .path("lastContainerStatuses").path("envoy-1").path("imageID").asText());
        assertFalse(SidecarPodState.inHotUpgrading(reset, set));
        assertNull(SidecarPodUpgrade.resetIdle(set, reset, NOW), "nothing left to reset");
    }

    @Test
    void upgradableConditionKeepsOneEntryPerSidecarSet() {
        Pod pod = pod(ordered("log", "log:1"), ordered("log", "log:1"), Map.of());
        PodCondition first = SidecarPodUpgrade.upgradableCondition(pod, "mesh", false, NOW);
        assertEquals("False", first.getStatus());
        assertEquals("UpdateImmutableField", first.getReason());
        assertEquals("{\"mesh\":false}", first.getMessage());
        assertEquals("2026-11-24T08:00:00Z", first.getLastTransitionTime());
        Pod withFirst = new PodBuilder(pod).editStatus().addToConditions(first).endStatus().build();
        assertNull(SidecarPodUpgrade.upgradableCondition(withFirst, "mesh", false, NOW.plusSeconds(9)), "no change");
        PodCondition second = SidecarPodUpgrade.upgradableCondition(withFirst, "a-log", true, NOW.plusSeconds(9));
        assertEquals("False", second.getStatus(), "true only when every SidecarSet is upgradable");
        assertEquals("{\"a-log\":true,\"mesh\":false}", second.getMessage());
        assertEquals("2026-11-24T08:00:00Z", second.getLastTransitionTime(), "the status did not change");
        Pod withSecond = new PodBuilder(pod).editStatus().addToConditions(second).endStatus().build();
        PodCondition third = SidecarPodUpgrade.upgradableCondition(withSecond, "mesh", true, NOW.plusSeconds(20));
        assertEquals("True", third.getStatus());
        assertEquals("AllSidecarsetUpgradable", third.getReason());
        assertEquals("2026-11-24T08:00:20Z", third.getLastTransitionTime());
    }

    @Test
    void consistencyFollowsImagesAndRecordedImageIds() {
        SidecarSet set = set(COLD);
        Pod running = pod(ordered("log", "log:2", "main", "app:1"), ordered("log", "docker.io/library/log:2", "main", "app:1"), Map.of());
        assertTrue(SidecarPodState.consistent(running, set, null), "the kubelet's normalised image name is the same image");
        Pod restarting = pod(ordered("log", "log:2", "main", "app:1"), ordered("log", "log:1", "main", "app:1"), Map.of());
        assertFalse(SidecarPodState.consistent(restarting, set, null));
        Pod missingStatus = pod(ordered("log", "log:2", "main", "app:1"), ordered("log", "log:2"), Map.of());
        assertFalse(SidecarPodState.consistent(missingStatus, set, null), "a status for every container, as OpenKruise");
        Pod digest = pod(ordered("log", "log@sha256:abc"), Map.of(), Map.of());
        digest = new PodBuilder(digest).editStatus().addNewContainerStatus().withName("log").withImage("log:2")
                .withImageID("docker.io/library/log@sha256:abc").withReady(true).endContainerStatus().endStatus().build();
        assertTrue(SidecarPodState.consistent(digest, set, Set.of("log")), "a digest is compared with the imageID");
        // The same image name, but the recorded imageID has not changed yet while the status still shows the old name.
        Pod stale = pod(ordered("log", "log:2"), Map.of(), Map.of(SidecarPodState.INPLACE_UPDATE_STATE_ANNOTATION,
                "{\"mesh\":{\"lastContainerStatuses\":{\"log\":{\"imageID\":\"sha256:old\"}}}}"));
        stale = new PodBuilder(stale).editStatus().addNewContainerStatus().withName("log").withImage("log:1")
                .withImageID("sha256:old").withReady(true).endContainerStatus().endStatus().build();
        assertFalse(SidecarPodState.consistent(stale, set, null));
        assertEquals(new SidecarPodState.Upgradable(true, false), SidecarPodState.upgradable(
                new PodBuilder(stale).editMetadata().addToAnnotations("kruise.io/sidecarset-hash-without-image",
                        "{\"mesh\":{\"hash\":\"w\"}}").endMetadata().build(), set));
        assertEquals(new SidecarPodState.Upgradable(false, false), SidecarPodState.upgradable(stale, set),
                "no equal hash-without-image: not upgradable in place");
    }

    @Test
    void matchingHelpers() {
        SidecarSet hot = set(HOT);
        Pod pod = pod(ordered("envoy-1", "envoy:1", "envoy-2", "empty:1"), Map.of(),
                Map.of(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION, "{\"envoy\":\"envoy-1\"}",
                        "kruise.io/sidecarset-injected-list", "a,mesh"));
        assertTrue(SidecarPodState.hasSidecars(pod, hot));
        assertTrue(SidecarPodState.injected(pod, "mesh"));
        assertFalse(SidecarPodState.injected(pod, "mes"));
        assertEquals(Set.of("envoy-1", "envoy-2"), SidecarPodState.sidecarNamesInPod(hot));
        assertEquals(List.of("envoy-1", "envoy-2"), List.of(SidecarPodState.hotUpgradePair("envoy", pod)));
        Pod noAnnotation = new PodBuilder(pod).editMetadata().removeFromAnnotations(
                SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION).endMetadata().build();
        assertFalse(SidecarPodState.hasSidecars(noAnnotation, hot));
        assertEquals(List.of("envoy-2", "envoy-1"), List.of(SidecarPodState.hotUpgradePair("envoy", noAnnotation)),
                "without the annotation -2 counts as working, as OpenKruise");
        assertFalse(SidecarPodState.hasSidecars(pod, set(COLD)));
    }
}
