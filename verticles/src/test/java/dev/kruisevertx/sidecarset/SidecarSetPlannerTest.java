package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SidecarSet reconcile decision without an API: revisions, status, and what the pods get (pure). */
class SidecarSetPlannerTest {
    static final String NS = "kruise-system";

    static SidecarSet set(String image, String strategy, String extra) {
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'log','uid':'u1',"
                + "'generation':3,'labels':{'team':'a'},'annotations':{'kruise.io/sidecarset-hash':'h-" + image + "',"
                + "'kruise.io/sidecarset-hash-without-image':'w'}},'spec':{'selector':{'matchLabels':{'app':'web'}},"
                + "'containers':[{'name':'log','image':'" + image + "'}],'updateStrategy':" + strategy + extra + "}}")
                .replace('\'', '"');
        return ApiJson.serialization().unmarshal(json, SidecarSet.class);
    }

    static SidecarSet set(String image) {
        return set(image, "{'type':'RollingUpdate'}", "");
    }

    /** A pod injected by "log", its sidecar on {@code image}, recording hash {@code h-<recorded>}. */
    static Pod pod(String name, String image, String recorded, boolean ready, String revision) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withResourceVersion("1")
                .addToLabels("app", "web")
                .addToAnnotations("kruise.io/sidecarset-injected-list", "log")
                .addToAnnotations("kruise.io/sidecarset-hash", "{\"log\":{\"hash\":\"h-" + recorded
                        + "\",\"sidecarSetName\":\"log\"" + (revision == null ? "" : ",\"controllerRevision\":\""
                        + revision + "\"") + "}}")
                .addToAnnotations("kruise.io/sidecarset-hash-without-image", "{\"log\":{\"hash\":\"w\"}}")
                .endMetadata().withNewSpec().withNodeName("n1")
                .addNewContainer().withName("log").withImage(image).endContainer()
                .addNewContainer().withName("main").withImage("app:1").endContainer().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
                .endCondition()
                .addNewContainerStatus().withName("log").withImage(image).withReady(ready).endContainerStatus()
                .addNewContainerStatus().withName("main").withImage("app:1").withReady(ready).endContainerStatus()
                .endStatus().build();
    }

    static SidecarSetPlan decide(SidecarSet set, List<Pod> pods, List<ControllerRevision> revisions) {
        return SidecarSetPlanner.decide(set, pods, revisions, NS, List.of());
    }

    static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void theFirstReconcileCreatesTheRevisionAndWritesTheStatus() {
        SidecarSetPlan plan = decide(set("log:1"), List.of(pod("a", "log:1", "log:1", true, null)), List.of());
        ControllerRevision created = plan.revisions().toCreate();
        assertNotNull(created);
        assertEquals(NS, created.getMetadata().getNamespace());
        assertTrue(created.getMetadata().getName().startsWith("log-"));
        assertEquals(Map.of("team", "a", "kruise.io/sidecarset-name", "log"), created.getMetadata().getLabels());
        assertEquals("h-log:1", created.getMetadata().getAnnotations().get("kruise.io/sidecarset-hash"));
        assertEquals("SidecarSet", created.getMetadata().getOwnerReferences().get(0).getKind());
        assertEquals("u1", created.getMetadata().getOwnerReferences().get(0).getUid());
        assertEquals(1L, created.getRevision());
        String data = ApiJson.toJson(created.getData());
        assertEquals("{\"spec\":{\"$patch\":\"replace\",\"containers\":[{\"image\":\"log:1\",\"name\":\"log\"}],"
                + "\"imagePullSecrets\":null,\"initContainers\":null,\"patchPodMetadata\":null,\"volumes\":null}}", data);
        SidecarSetStatus status = plan.status();
        assertEquals(created.getMetadata().getName(), status.getLatestRevision());
        assertEquals(1, status.getMatchedPods());
        assertEquals(1, status.getUpdatedReadyPods());
        assertEquals(3L, status.getObservedGeneration());
        assertEquals(0, status.getCollisionCount());
        assertEquals("every matched pod runs the latest sidecars", plan.reason());
    }

    static ControllerRevision stored(SidecarSet set, long number) {
        ControllerRevision r = SidecarSetRevisions.resolve(set, List.of(), NS).latest();
        return new ControllerRevisionBuilder(r).withRevision(number).build();
    }

    @Test
    void anUnchangedSpecReusesTheLatestRevisionAndWritesNothing() {
        SidecarSet set = set("log:1");
        ControllerRevision r = stored(set, 1);
        SidecarSetStatus written = decide(set, List.of(), List.of(r)).status();
        set.setStatus(written);
        SidecarSetPlan again = decide(set, List.of(), List.of(r));
        assertNull(again.revisions().toCreate());
        assertNull(again.revisions().renumber());
        assertNull(again.status(), "an unchanged status is not written");
    }

    @Test
    void anImageChangeMakesANewRevisionAndARollbackRenumbersTheOldOne() {
        ControllerRevision one = stored(set("log:1"), 1);
        SidecarSetPlan changed = decide(set("log:2"), List.of(), List.of(one));
        assertNotNull(changed.revisions().toCreate());
        assertEquals(2L, changed.revisions().toCreate().getRevision());
        ControllerRevision two = changed.revisions().toCreate();
        SidecarSetPlan back = decide(set("log:1"), List.of(), List.of(one, two));
        assertNull(back.revisions().toCreate());
        assertEquals(one.getMetadata().getName(), back.revisions().renumber().getMetadata().getName());
        assertEquals(3L, back.revisions().latest().getRevision());
        assertEquals(one.getMetadata().getName(), back.status().getLatestRevision());
    }

    @Test
    void aTakenNameMovesTheCollisionCountOn() {
        SidecarSet set = set("log:1");
        ControllerRevision squatter = new ControllerRevisionBuilder(stored(set("log:9"), 1)).editMetadata()
                .withName(stored(set, 1).getMetadata().getName()).endMetadata().build();
        SidecarSetPlan plan = decide(set, List.of(), List.of(squatter));
        assertEquals(1, plan.status().getCollisionCount());
        assertFalse(plan.revisions().latest().getMetadata().getName().equals(squatter.getMetadata().getName()));
    }

    @Test
    void customVersionLabelsTheLatestRevision() {
        SidecarSet set = set("log:1", "{'type':'RollingUpdate'}", ",'customVersion':'v7'");
        ControllerRevision created = decide(set, List.of(), List.of()).revisions().toCreate();
        assertEquals("v7", created.getMetadata().getLabels().get("apps.kruise.io/sidecarset-custom-version"));
        ControllerRevision unlabelled = stored(set("log:1"), 1);
        SidecarSetPlan plan = decide(set, List.of(), List.of(unlabelled));
        assertEquals("v7", plan.revisions().customVersion(), "an existing revision gets the label");
    }

    @Test
    void historyIsTruncatedButRevisionsPodsUseStay() {
        List<ControllerRevision> history = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            history.add(stored(set("log:" + i), i));
        }
        SidecarSet limited = set("log:5", "{'type':'RollingUpdate'}", ",'revisionHistoryLimit':2");
        String usedByPod = history.get(0).getMetadata().getName();
        SidecarSetPlan plan = decide(limited, List.of(pod("a", "log:1", "log:1", true, usedByPod)), history);
        // 5 revisions, limit 2: delete 3, oldest first, skipping the one a pod records.
        assertEquals(List.of(history.get(1).getMetadata().getName(), history.get(2).getMetadata().getName(),
                history.get(3).getMetadata().getName()), plan.prune().stream().map(r -> r.getMetadata().getName()).toList());
        SidecarSet pinned = set("log:5", "{'type':'RollingUpdate'}", ",'revisionHistoryLimit':1,'injectionStrategy':"
                .replace('\'', '"') + "{\"revision\":{\"revisionName\":\"" + history.get(3).getMetadata().getName() + "\"}}");
        assertFalse(decide(pinned, List.of(), history).prune().stream()
                .anyMatch(r -> r.getMetadata().getName().equals(history.get(3).getMetadata().getName())),
                "the injection strategy's revision stays");
    }

    @Test
    void podsAreUpgradedOneAtATimeByDefault() {
        SidecarSet set = set("log:2");
        List<Pod> pods = List.of(pod("a", "log:1", "log:1", true, null), pod("b", "log:1", "log:1", true, null));
        SidecarSetPlan plan = decide(set, pods, List.of());
        assertEquals(List.of("a"), names(plan.upgrades()));
        assertEquals("MaxUnavailable", plan.reasons().get(0).code().wireName());
        assertTrue(plan.debugSummary().actions().contains("upgrade the sidecars of pod a in place"),
                plan.debugSummary().actions().toString());
        // The planned set carries the new status: pods record its latest revision.
        assertEquals(plan.status().getLatestRevision(), plan.set().getStatus().getLatestRevision());
    }

    @Test
    void podWritesNotYetInTheCacheHoldEverythingButTheStatus() {
        SidecarSetPlan plan = SidecarSetPlanner.decide(set("log:2"), List.of(pod("a", "log:1", "log:1", true, null)),
                List.of(), NS, List.of("a"));
        assertEquals(List.of(), plan.upgrades());
        assertNotNull(plan.status());
        assertEquals(SidecarSetPlanner.EXPECTATION_RECHECK, plan.requeueAfter());
        assertEquals("Expectations", plan.reasons().get(0).code().wireName());
        assertEquals(List.of("a"), plan.reasons().get(0).objects());
    }

    @Test
    void pausedAndNotUpdateUpgradeNothingAndSayWhy() {
        List<Pod> pods = List.of(pod("a", "log:1", "log:1", true, null));
        SidecarSetPlan paused = decide(set("log:2", "{'type':'RollingUpdate','paused':true}", ""), pods, List.of());
        assertEquals(List.of(), paused.upgrades());
        assertEquals("updateStrategy.paused is true: 1 pod waits for the update", paused.reasons().get(0).message());
        SidecarSetPlan notUpdate = decide(set("log:2", "{'type':'NotUpdate'}", ""), pods, List.of());
        assertEquals(List.of(), notUpdate.upgrades());
        assertEquals("updateStrategy.type is NotUpdate: 1 pod keeps the old sidecars", notUpdate.reasons().get(0).message());
        assertTrue(notUpdate.reasons().get(0).code().intended());
    }

    @Test
    void aPodWhoseOtherFieldsChangedIsNotUpgradable() {
        Pod changed = new PodBuilder(pod("a", "log:1", "log:1", true, null)).editMetadata()
                .addToAnnotations("kruise.io/sidecarset-hash-without-image", "{\"log\":{\"hash\":\"other\"}}")
                .endMetadata().build();
        SidecarSetPlan plan = decide(set("log:2"), List.of(changed), List.of());
        assertEquals(List.of(), plan.upgrades());
        assertEquals(List.of("a"), names(plan.notUpgradable()));
    }

    @Test
    void aFinishedHotUpgradeResetsTheIdleContainerBeforeAnythingElse() {
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'log',"
                + "'annotations':{'kruise.io/sidecarset-hash':'h2','kruise.io/sidecarset-hash-without-image':'w'}},"
                + "'spec':{'selector':{'matchLabels':{'app':'web'}},'containers':[{'name':'envoy','image':'envoy:2',"
                + "'upgradeStrategy':{'upgradeType':'HotUpgrade','hotUpgradeEmptyImage':'empty:1'}}]}}").replace('\'', '"');
        SidecarSet set = ApiJson.serialization().unmarshal(json, SidecarSet.class);
        Pod swapped = new PodBuilder().withNewMetadata().withName("a").withNamespace("ns")
                .addToAnnotations(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION, "{\"envoy\":\"envoy-2\"}")
                .addToAnnotations("kruise.io/sidecarset-hash", "{\"log\":{\"hash\":\"h2\"}}").endMetadata()
                .withNewSpec().addNewContainer().withName("envoy-1").withImage("envoy:1").endContainer()
                .addNewContainer().withName("envoy-2").withImage("envoy:2").endContainer().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addNewContainerStatus().withName("envoy-1").withImage("envoy:1").withReady(true).endContainerStatus()
                .addNewContainerStatus().withName("envoy-2").withImage("envoy:2").withReady(true).endContainerStatus()
                .endStatus().build();
        SidecarSetPlan plan = decide(set, List.of(swapped), List.of());
        assertEquals(List.of("a"), names(plan.resets()));
        assertEquals(0, plan.status().getReadyPods(), "not ready until the idle container is on the empty image");
        Pod stillStarting = new PodBuilder(swapped).editStatus().editContainerStatus(1).withImage("envoy:1")
                .endContainerStatus().endStatus().build();
        assertEquals(List.of(), decide(set, List.of(stillStarting), List.of()).resets(),
                "the new working container does not run its image yet");
    }

    @Test
    void statusChangesAsOpenKruiseComparesThem() {
        SidecarSetStatus old = new SidecarSetStatus();
        old.setObservedGeneration(3L);
        old.setMatchedPods(1);
        old.setUpdatedPods(1);
        old.setReadyPods(1);
        old.setUpdatedReadyPods(1);
        old.setLatestRevision("r");
        old.setCollisionCount(0);
        SidecarSetStatus same = ApiJson.serialization().clone(old);
        assertFalse(SidecarSetPlanner.changed(old, same));
        same.setObservedGeneration(2L);
        assertFalse(SidecarSetPlanner.changed(old, same), "an older generation never goes back");
        same.setObservedGeneration(4L);
        assertTrue(SidecarSetPlanner.changed(old, same));
        SidecarSetStatus moved = ApiJson.serialization().clone(old);
        moved.setLatestRevision("r2");
        assertTrue(SidecarSetPlanner.changed(old, moved));
        assertTrue(SidecarSetPlanner.changed(null, old));
    }
}
