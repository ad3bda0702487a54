package dev.kruisevertx.cloneset;

import dev.kruisevertx.sim.testing.RecordingEnqueuer.Added;
import dev.kruisevertx.sim.testing.RecordingEnqueuer;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
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

class CloneSetEventHandlersTest {
    final ScaleExpectations scale = new ScaleExpectations(Duration.ofMinutes(5), Clock.systemUTC(),
            new SimpleMeterRegistry(), "leak");
    final CloneSetController.EventHandlers handlers = new CloneSetController.EventHandlers(null, scale,
            new ResourceVersionExpectations(Duration.ofMinutes(5), Clock.systemUTC()), null, false);
    final RecordingEnqueuer queue = new RecordingEnqueuer();
    final Request owner = new Request("ns", "web");

    static Pod owned(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("uid-" + name)
                .withResourceVersion("1").withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(CloneSet.API_VERSION).withKind(CloneSet.KIND)
                        .withName("web").withUid("u").withController(true).build()).endMetadata().build();
    }

    @Test
    void podsPresentAtStartEnqueueTheirCloneSetWithAGrowingDelay() {
        handlers.onPod(CacheEvent.added(owned("web-a"), true), queue);
        handlers.onPod(CacheEvent.added(owned("web-b"), true), queue);
        handlers.onPod(CacheEvent.added(owned("web-c"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ofSeconds(3)), new Added(owner, Duration.ofSeconds(6)),
                new Added(owner, Duration.ofSeconds(12))), queue.adds);
    }

    @Test
    void aRealCreationIsObservedEnqueuedAtOnceAndResetsTheDelay() {
        handlers.onPod(CacheEvent.added(owned("web-a"), true), queue);
        scale.expectCreate(owner.key(), "web-new");
        assertFalse(scale.satisfied(owner.key()).satisfied());
        handlers.onPod(CacheEvent.added(owned("web-new"), false), queue);
        assertTrue(scale.satisfied(owner.key()).satisfied());
        handlers.onPod(CacheEvent.added(owned("web-b"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ofSeconds(3)), new Added(owner, Duration.ZERO),
                new Added(owner, Duration.ofSeconds(3))), queue.adds);
    }

    @Test
    void whileExpectationsArePendingInitialPodsEnqueueAtOnce() {
        scale.expectCreate(owner.key(), "web-x");
        handlers.onPod(CacheEvent.added(owned("web-a"), true), queue);
        assertEquals(List.of(new Added(owner, Duration.ZERO)), queue.adds);
    }

    @Test
    void deletionIsObservedWhenTheTimestampAppearsAndPodsOfOtherOwnersAreIgnored() {
        scale.expectDelete(owner.key(), "web-a");
        Pod pod = owned("web-a");
        Pod terminating = new PodBuilder(pod).editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
        handlers.onPod(CacheEvent.updated(pod, terminating), queue);
        assertTrue(scale.satisfied(owner.key()).satisfied());
        Pod foreign = new PodBuilder().withNewMetadata().withName("x").withNamespace("ns")
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("ReplicaSet")
                        .withName("rs").withUid("r").withController(true).build()).endMetadata().build();
        int before = queue.adds.size();
        handlers.onPod(CacheEvent.deleted(foreign), queue);
        assertEquals(before, queue.adds.size());
    }
}
