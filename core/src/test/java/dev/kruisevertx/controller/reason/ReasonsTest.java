package dev.kruisevertx.controller.reason;

import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.expectations.ScaleAction;
import dev.kruisevertx.expectations.ScaleExpectations;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The wording and numbers of every reason code: what kubectl kruise why prints. */
class ReasonsTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void everyCodeHasItsTextAndNumbers() {
        assertEquals("Partition: updateStrategy.partition 3 keeps 1 pod at the current revision",
                Reasons.partition("updateStrategy.partition", 3, 1).text());
        assertEquals("Paused: updateStrategy.paused is true: 1 pod waits for the update",
                Reasons.paused("updateStrategy.paused", 1).text());
        BlockReason mu = Reasons.maxUnavailable("updateStrategy.maxUnavailable", 2, List.of("web-a", "web-b"), 2, 3,
                "updated");
        assertEquals("MaxUnavailable: updateStrategy.maxUnavailable 2 reached: 2 unavailable now (web-a, web-b); "
                + "3 pods wait to be updated", mu.text());
        assertEquals(Map.of("maxUnavailable", 2L, "unavailable", 2L, "waiting", 3L), mu.numbers());
        assertEquals("MaxSurge: updateStrategy.maxSurge 1 used: 1 extra pod not available yet (web-n); 4 pods wait "
                + "to be replaced", Reasons.maxSurge("updateStrategy.maxSurge", 1, List.of("web-n"), 1, 4, "replaced").text());
        assertEquals("PodUnavailableBudget: delete pod web-a refused: pub web-pub: 0 of 2 may be unavailable",
                Reasons.podUnavailableBudget("delete", "web-a", "pub web-pub: 0 of 2 may be unavailable").text());
        assertEquals("ImagePreDownload: image pre-download done on 2 of 5 nodes", Reasons.imagePreDownload(2, 5).text());
        assertEquals("ImagePreDownload: image pre-download waits for 1 updated ready pod "
                + "(apps.kruise.io/image-predownload-min-updated-ready-pods), 0 so far",
                Reasons.imagePreDownloadWaiting(1, 0).text());
        assertEquals(java.util.Map.of("minUpdatedReady", 3L, "updatedReady", 2L),
                Reasons.imagePreDownloadWaiting(3, 2).numbers());
        assertEquals("Unschedulable: 2 pods cannot be scheduled (a, b): 0/3 nodes are available",
                Reasons.unschedulable(List.of("a", "b"), 2, "0/3 nodes are available").text());
        assertEquals("MinReadySeconds: 1 ready pod not yet available (a): minReadySeconds 30, the next in 12s",
                Reasons.minReadySeconds(30, List.of("a"), 1, Duration.ofSeconds(12)).text());
        assertEquals("WebhookRejection: create Pod web-a refused: no", Reasons.webhookRejection("create Pod web-a",
                "web-a", "no").text());
    }

    @Test
    void longListsAreCutAndCountedAndQuotesAreBounded() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            many.add("p" + i);
        }
        BlockReason r = Reasons.unschedulable(many, 25, "x".repeat(1000));
        assertEquals(BlockReason.MAX_OBJECTS, r.objects().size());
        assertTrue(r.message().contains("(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, ... 25 in all)"), r.message());
        assertTrue(r.message().endsWith("x".repeat(Reasons.MAX_QUOTED) + "..."), r.message());
    }

    @Test
    void timeLeftIsRoundedUpInStableSteps() {
        assertEquals("1s", Reasons.approx(Duration.ofMillis(200)));
        assertEquals("119s", Reasons.approx(Duration.ofSeconds(119)));
        assertEquals("2m", Reasons.approx(Duration.ofSeconds(120)));
        assertEquals("50m", Reasons.approx(Duration.ofSeconds(2941)));
        assertEquals("120m", Reasons.approx(Duration.ofSeconds(7199)));
        assertEquals("10h", Reasons.approx(Duration.ofSeconds(36000)));
        assertEquals("10h", Reasons.approx(Duration.ofSeconds(32401)));
    }

    @Test
    void expectationsNameThePendingPods() {
        Map<ScaleAction, Set<String>> details = new TreeMap<>();
        details.put(ScaleAction.DELETE, Set.of("web-c"));
        details.put(ScaleAction.CREATE, Set.of("web-b", "web-a"));
        BlockReason r = Reasons.expectations(new ScaleExpectations.Satisfied(false, Duration.ofSeconds(3), details));
        assertEquals("Expectations: waiting for the cache to show this controller's create of 2 pods (web-a, web-b); "
                + "delete of 1 pod (web-c)", r.text());
        assertEquals(List.of("web-a", "web-b", "web-c"), r.objects());
    }

    @Test
    void aHookNamesTheLabelsAndFinalizersStillHeld() {
        LifecycleHook hook = new LifecycleHook();
        hook.setLabelsHandler(Map.of("example.com/hold", "true", "example.com/other", "yes"));
        hook.setFinalizersHandler(List.of("example.com/drain"));
        Pod pod = new PodBuilder().withNewMetadata().withName("web-a")
                .addToLabels("example.com/hold", "true").addToLabels("lifecycle.apps.kruise.io/state", "PreparingDelete")
                .addToFinalizers("example.com/drain").endMetadata().build();
        assertEquals("LifecycleHook: pod web-a waits in PreparingDelete for the preDelete hook to let go of "
                + "finalizer example.com/drain, label example.com/hold=true", HookReasons.of(pod, "preDelete", hook).text());
    }

    @Test
    void podBlockersNameUnschedulableAndNotYetAvailablePods() {
        Pod pending = new PodBuilder().withNewMetadata().withName("web-b").endMetadata().withNewStatus()
                .withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage("0/3 nodes are available: 3 node(s) didn't match Pod's node "
                        + "affinity/selector.").endCondition().endStatus().build();
        Pod warming = ready("web-a", NOW.minusSeconds(10));
        Pod available = ready("web-c", NOW.minusSeconds(100));
        List<BlockReason> reasons = PodBlockers.of(List.of(pending, warming, available), 30, NOW);
        assertEquals(List.of("Unschedulable: 1 pod cannot be scheduled (web-b): 0/3 nodes are available: 3 node(s) "
                        + "didn't match Pod's node affinity/selector.",
                "MinReadySeconds: 1 ready pod not yet available (web-a): minReadySeconds 30, the next in 20s"),
                reasons.stream().map(BlockReason::text).toList());
        assertEquals(20L, reasons.get(1).numbers().get("secondsLeft"));
        assertTrue(PodBlockers.of(List.of(warming, available), 0, NOW).isEmpty(), "no minReadySeconds, no wait");
    }

    static Pod ready(String name, Instant since) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(since.toString())
                .endCondition().endStatus().build();
    }

    @Test
    void webhookRefusalsAreKeptUntilAWriteGoesThrough() {
        KubernetesClientException denied = new KubernetesClientException(new StatusBuilder().withCode(403)
                .withReason("Forbidden").withMessage("admission webhook \"deny.example.com\" denied the request: no")
                .withNewDetails().withKind("pods").withName("web-x").endDetails().build());
        KubernetesClientException pub = new KubernetesClientException(new StatusBuilder().withCode(403)
                .withMessage("admission webhook \"pub.kruise.io\" denied the request: pub web-pub: 0 may be unavailable")
                .withNewDetails().withName("web-y").endDetails().build());
        WriteRejections w = new WriteRejections();
        assertFalse(w.record("ns/web", new KubernetesClientException(new StatusBuilder().withCode(409)
                .withMessage("the object has been modified").build())), "a conflict is no refusal");
        assertTrue(w.record("ns/web", new RuntimeException("wrapped", denied)));
        assertEquals("WebhookRejection: a write pods web-x refused: admission webhook \"deny.example.com\" denied "
                + "the request: no", w.last("ns/web").orElseThrow().text());
        assertEquals(ReasonCode.POD_UNAVAILABLE_BUDGET, WriteRejections.reasonOf(pub).orElseThrow().code());
        w.clear("ns/web");
        assertTrue(w.last("ns/web").isEmpty());
    }

    /** Webhooks seldom fill in the Status details: the pod is named from the request fabric8 sent. */
    @Test
    void aRefusedDeletionNamesThePodFromTheRequest() {
        String denial = "admission webhook \"pub.why.test\" denied the request: podunavailablebudget.policy.kruise.io "
                + "\"web-pub\" is forbidden: pub unavailable allowed is negative";
        try (dev.kruisevertx.cache.MockCluster cluster = dev.kruisevertx.cache.MockCluster.expectations()) {
            cluster.server.expect().delete().withPath("/api/v1/namespaces/ns/pods/web-1").andReturn(403,
                    new StatusBuilder().withStatus("Failure").withCode(403).withMessage(denial).build()).always();
            KubernetesClientException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    KubernetesClientException.class, () -> cluster.client.pods().inNamespace("ns").withName("web-1").delete());
            BlockReason reason = WriteRejections.reasonOf(refused).orElseThrow();
            assertEquals("PodUnavailableBudget: delete pod web-1 refused: " + denial, reason.text());
            assertEquals(List.of("web-1"), reason.objects());
        }
    }
}
