package dev.kruisevertx.statefulset;

import dev.kruisevertx.sim.testing.FixedCache;
import dev.kruisevertx.sim.testing.RecordingEnqueuer.Added;
import dev.kruisevertx.sim.testing.RecordingEnqueuer;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the StatefulSet controller maps cache events to keys, in particular the delayed start-up enqueue. */
class StatefulSetEventHandlersTest {
    final ScaleExpectations scale = new ScaleExpectations(Duration.ofMinutes(5), Clock.systemUTC(),
            new SimpleMeterRegistry(), "leak");
    final StatefulSetController.EventHandlers handlers = new StatefulSetController.EventHandlers(null, scale,
            new ResourceVersionExpectations(Duration.ofMinutes(5), Clock.systemUTC()));
    final RecordingEnqueuer queue = new RecordingEnqueuer();
    final Request owner = new Request("ns", "db");

    static Pod owned(String name, String apiVersion) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("uid-" + name)
                .withResourceVersion("1").withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(apiVersion)
                        .withKind(StatefulSet.KIND).withName("db").withUid("u").withController(true).build())
                .endMetadata().build();
    }

    static Pod owned(String name) {
        return owned(name, StatefulSet.API_VERSION);
    }

    static StatefulSet set() {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName("db").withNamespace("ns").withUid("u").build());
        return set;
    }

    @Test
    void podsPresentAtStartEnqueueTheirSetWithAGrowingDelay() {
        handlers.onPod(CacheEvent.added(owned("db-0"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-1"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-2"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-3"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-4"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-5"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ofSeconds(3)), new Added(owner, Duration.ofSeconds(6)),
                new Added(owner, Duration.ofSeconds(12)), new Added(owner, Duration.ofSeconds(24)),
                new Added(owner, Duration.ofSeconds(30)), new Added(owner, Duration.ofSeconds(30))), queue.adds);
    }

    @Test
    void theDelayIsPerSet() {
        handlers.onPod(CacheEvent.added(owned("db-0"), true), queue);
        Pod other = new PodBuilder(owned("cache-0")).editMetadata().editFirstOwnerReference().withName("cache")
                .endOwnerReference().endMetadata().build();
        handlers.onPod(CacheEvent.added(other, true), queue);
        assertEquals(List.of(new Added(owner, Duration.ofSeconds(3)),
                new Added(new Request("ns", "cache"), Duration.ofSeconds(3))), queue.adds);
    }

    @Test
    void theSetItselfIsEnqueuedAtOnceEvenFromTheInitialList() {
        handlers.onSet(CacheEvent.added(set(), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-0"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ZERO), new Added(owner, Duration.ofSeconds(3))), queue.adds);
    }

    @Test
    void aRealCreationIsObservedEnqueuedAtOnceAndResetsTheDelay() {
        handlers.onPod(CacheEvent.added(owned("db-0"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-1"), true), queue);
        scale.expectCreate(owner.key(), "db-2");
        assertFalse(scale.satisfied(owner.key()).satisfied());
        handlers.onPod(CacheEvent.added(owned("db-2"), false), queue);
        assertTrue(scale.satisfied(owner.key()).satisfied(), "the creation was observed");
        handlers.onPod(CacheEvent.added(owned("db-3"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ofSeconds(3)), new Added(owner, Duration.ofSeconds(6)),
                new Added(owner, Duration.ZERO), new Added(owner, Duration.ofSeconds(3))), queue.adds);
    }

    @Test
    void whileExpectationsArePendingInitialPodsAreObservedAndEnqueuedAtOnce() {
        scale.expectCreate(owner.key(), "db-0");
        handlers.onPod(CacheEvent.added(owned("db-0"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ZERO)), queue.adds);
        assertTrue(scale.satisfied(owner.key()).satisfied(), "the pending creation was observed");
    }

    @Test
    void aTerminatingPodInTheInitialListObservesItsDeletionAndEnqueuesAtOnce() {
        scale.expectDelete(owner.key(), "db-1");
        Pod terminating = new PodBuilder(owned("db-1")).editMetadata()
                .withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
        handlers.onPod(CacheEvent.added(terminating, true), queue);
        assertEquals(List.of(new Added(owner, Duration.ZERO)), queue.adds);
        assertTrue(scale.satisfied(owner.key()).satisfied());
    }

    @Test
    void deletingTheSetForgetsItsDelay() {
        handlers.onPod(CacheEvent.added(owned("db-0"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-1"), true), queue);
        handlers.onSet(CacheEvent.deleted(set()), queue);
        handlers.onPod(CacheEvent.added(owned("db-0"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ofSeconds(3)), new Added(owner, Duration.ofSeconds(6)),
                new Added(owner, Duration.ZERO), new Added(owner, Duration.ofSeconds(3))), queue.adds);
    }

    @Test
    void podsOfUpstreamStatefulSetsAndOtherKindsAreIgnored() {
        // apps/v1 StatefulSet has the same kind name: only the apps.kruise.io group is ours.
        handlers.onPod(CacheEvent.added(owned("db-0", "apps/v1"), true), queue);
        handlers.onPod(CacheEvent.added(owned("db-1", "apps/v1"), false), queue);
        handlers.onPod(CacheEvent.deleted(owned("db-2", "apps/v1")), queue);
        assertEquals(List.of(), queue.adds);
    }

    @Test
    void v1alpha1OwnerReferencesStillMapToTheSet() {
        handlers.onPod(CacheEvent.added(owned("db-0", "apps.kruise.io/v1alpha1"), false), queue);
        assertEquals(List.of(new Added(owner, Duration.ZERO)), queue.adds);
    }

    @Test
    void updatesAndDeletionsEnqueueAtOnce() {
        Pod pod = owned("db-0");
        Pod relabelled = new PodBuilder(pod).editMetadata().addToLabels("x", "y").withResourceVersion("2")
                .endMetadata().build();
        handlers.onPod(CacheEvent.updated(pod, relabelled), queue);
        scale.expectDelete(owner.key(), "db-0");
        handlers.onPod(CacheEvent.deleted(relabelled), queue);
        assertTrue(scale.satisfied(owner.key()).satisfied(), "the deletion was observed");
        assertEquals(List.of(new Added(owner, Duration.ZERO), new Added(owner, Duration.ZERO)), queue.adds);
    }

    @Test
    void orphansNamedLikeAnOrdinalEnqueueTheSetOfThatNameOnly() {
        StatefulSet myDb = set();
        myDb.getMetadata().setName("my-db");
        StatefulSetController.EventHandlers withSets = new StatefulSetController.EventHandlers(
                FixedCache.of(set(), myDb), scale,
                new ResourceVersionExpectations(Duration.ofMinutes(5), Clock.systemUTC()));
        Pod orphan = new PodBuilder().withNewMetadata().withName("my-db-3").withNamespace("ns").endMetadata().build();
        withSets.onPod(CacheEvent.added(orphan, true), queue);
        Pod notAnOrdinal = new PodBuilder(orphan).editMetadata().withName("db-x").endMetadata().build();
        withSets.onPod(CacheEvent.added(notAnOrdinal, false), queue);
        Pod foreign = new PodBuilder(owned("db-1", "apps/v1")).build();
        withSets.onPod(CacheEvent.added(foreign, false), queue);
        assertEquals(List.of(new Added(new Request("ns", "my-db"), Duration.ZERO)), queue.adds);
    }

    @Test
    void claimStatusChangesEnqueueTheSetExpandingThem() {
        io.fabric8.kubernetes.api.model.PersistentVolumeClaim expanding = new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data-db-0").withNamespace("ns")
                .addToAnnotations(StatefulSetClaims.OWNED_BY_ASTS_ANNOTATION, "db").endMetadata()
                .withNewStatus().addToCapacity("storage", new io.fabric8.kubernetes.api.model.Quantity("1Gi")).endStatus().build();
        io.fabric8.kubernetes.api.model.PersistentVolumeClaim grown = new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder(expanding)
                .editStatus().addToCapacity("storage", new io.fabric8.kubernetes.api.model.Quantity("2Gi")).endStatus().build();
        io.fabric8.kubernetes.api.model.PersistentVolumeClaim relabelled = new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder(grown)
                .editMetadata().addToLabels("x", "y").endMetadata().build();
        io.fabric8.kubernetes.api.model.PersistentVolumeClaim unannotated = new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data-other-0").withNamespace("ns").endMetadata().build();
        io.fabric8.kubernetes.api.model.PersistentVolumeClaim unannotatedGrown = new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder(unannotated)
                .withNewStatus().withPhase("Bound").endStatus().build();

        handlers.onClaim(CacheEvent.updated(expanding, grown), queue);
        handlers.onClaim(CacheEvent.updated(grown, relabelled), queue); // no status change: nothing to decide
        handlers.onClaim(CacheEvent.updated(unannotated, unannotatedGrown), queue); // not ours
        handlers.onClaim(CacheEvent.added(expanding, false), queue); // our own creation
        assertEquals(List.of(new Added(owner, Duration.ZERO)), queue.adds);
    }
}
