package dev.kruisevertx.cloneset;

import dev.kruisevertx.sim.testing.FixedCache;
import dev.kruisevertx.sim.testing.RecordingEnqueuer;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class OrphanCandidatesTest {
    static final LabelSelector APP_WEB = new LabelSelectorBuilder().addToMatchLabels("app", "web").build();
    static final String KEY = "ns/web";

    @Test
    void theNamespaceIsScannedOnceThenOnlyRecordedOrphansAreLookedAt() {
        OrphanCandidates orphans = new OrphanCandidates();
        orphans.matched(KEY, "early");
        assertNull(orphans.take(KEY, "uid-1", APP_WEB), "first look: scan the namespace");
        orphans.scannedAll(KEY, "uid-1", APP_WEB);
        assertEquals(Set.of(), orphans.take(KEY, "uid-1", APP_WEB), "the scan covered what was recorded before it");

        orphans.matched(KEY, "a");
        orphans.matched(KEY, "b");
        orphans.matched(KEY, "a");
        assertEquals(Set.of("a", "b"), orphans.take(KEY, "uid-1", APP_WEB));
        assertEquals(Set.of(), orphans.take(KEY, "uid-1", APP_WEB), "taken once");
    }

    @Test
    void aNewSelectorUidOrAFailedAdoptionScansAgain() {
        OrphanCandidates orphans = new OrphanCandidates();
        orphans.scannedAll(KEY, "uid-1", APP_WEB);
        LabelSelector other = new LabelSelectorBuilder().addToMatchLabels("app", "api").build();
        assertNull(orphans.take(KEY, "uid-1", other), "selector changed");
        orphans.scannedAll(KEY, "uid-1", other);
        assertNull(orphans.take(KEY, "uid-2", other), "deleted and created again under the same name");
        orphans.scannedAll(KEY, "uid-2", other);
        orphans.rescan(KEY);
        assertNull(orphans.take(KEY, "uid-2", other), "an adoption failed");
        orphans.scannedAll(KEY, "uid-2", other);
        orphans.matched(KEY, "x");
        orphans.forget(KEY);
        assertNull(orphans.take(KEY, "uid-2", other), "forgotten with its CloneSet");
    }

    /** The event handler records orphans for every CloneSet whose selector they match, and only orphans. */
    @Test
    void eventHandlerRecordsMatchingOrphans() {
        CloneSet web = cloneSet("web", APP_WEB);
        CloneSet other = cloneSet("other", new LabelSelectorBuilder().addToMatchLabels("app", "api").build());
        OrphanCandidates orphans = new OrphanCandidates();
        CloneSetController.EventHandlers handlers = new CloneSetController.EventHandlers(FixedCache.of(web, other),
                new ScaleExpectations(Duration.ofMinutes(5), Clock.systemUTC(), new SimpleMeterRegistry(), "leak"),
                new ResourceVersionExpectations(Duration.ofMinutes(5), Clock.systemUTC()), orphans, false);
        RecordingEnqueuer queue = new RecordingEnqueuer();
        for (String name : List.of(web.getMetadata().getName(), other.getMetadata().getName())) {
            orphans.scannedAll("ns/" + name, "uid-" + name, name.equals("web") ? APP_WEB : other.getSpec().getSelector());
        }

        Pod orphan = pod("p1", "web", false);
        handlers.onPod(CacheEvent.added(orphan, false), queue);
        // Relabelled from api to web.
        handlers.onPod(CacheEvent.updated(pod("p2", "api", false), pod("p2", "web", false)), queue);
        // Released by its controller without a label change.
        handlers.onPod(CacheEvent.updated(pod("p3", "web", true), pod("p3", "web", false)), queue);
        // Owned by another controller: never a candidate.
        handlers.onPod(CacheEvent.added(pod("p4", "web", true), false), queue);
        // An orphan that changed nothing relevant is not looked at again.
        handlers.onPod(CacheEvent.updated(orphan, new PodBuilder(orphan).editMetadata().withResourceVersion("9")
                .endMetadata().build()), queue);

        assertEquals(Set.of("p1", "p2", "p3"), orphans.take("ns/web", "uid-web", APP_WEB));
        assertEquals(Set.of(), orphans.take("ns/other", "uid-other", other.getSpec().getSelector()),
                "matching is decided on the new labels, as OpenKruise's handler does");
    }

    static CloneSet cloneSet(String name, LabelSelector selector) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").withUid("uid-" + name).build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setSelector(selector);
        cs.setSpec(spec);
        return cs;
    }

    static Pod pod(String name, String app, boolean ownedByReplicaSet) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("u-" + name)
                .withResourceVersion("1").addToLabels("app", app).endMetadata();
        if (ownedByReplicaSet) {
            b.editMetadata().addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("apps/v1")
                    .withKind("ReplicaSet").withName("rs").withUid("rs-uid").withController(true).build()).endMetadata();
        }
        return b.build();
    }

}
