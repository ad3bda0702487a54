package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

import static dev.kruisevertx.workloadspread.Fixtures.entry;
import static dev.kruisevertx.workloadspread.Fixtures.pod;
import static dev.kruisevertx.workloadspread.Fixtures.unschedulable;
import static dev.kruisevertx.workloadspread.Fixtures.withSubsetStatuses;
import static dev.kruisevertx.workloadspread.Fixtures.withVersioned;
import static dev.kruisevertx.workloadspread.Fixtures.ws;
import static dev.kruisevertx.workloadspread.WorkloadSpreads.VERSION_IGNORED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subset choice at pod admission, case by case as OpenKruise's webhook decides (its updateSubsetForPod and
 * acquireSuitableSubset): order, int and percentage limits, missing replicas, the creating/deleting records, the
 * versioned entries, and the StatefulSet ordinal rule.
 */
class SubsetChoiceTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:00:10Z");
    static final IntSupplier NO_REPLICAS_NEEDED = () -> {
        throw new AssertionError("the workload's replicas must only be read for a percentage limit");
    };

    /**
     * @param expectMissing   missingReplicas of the chosen subset in the written version entries; null: no write
     * @param expectRecordKey key recorded under the chosen subset (creating for create, deleting for delete)
     */
    record Case(String name, WorkloadSpread ws, Pod pod, String op, String injectedSubset, IntSupplier replicas,
                String expectSubset, Integer expectMissing, String expectRecordKey, String version) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case create(String name, WorkloadSpread ws, Pod pod, String subset, Integer missing, String key) {
        return new Case(name, ws, pod, "create", null, NO_REPLICAS_NEEDED, subset, missing, key, VERSION_IGNORED);
    }

    static Stream<Case> cases() {
        Pod p = pod("p1");
        return Stream.of(
                create("single subset without limit takes every pod, no record", ws("CloneSet", "a"), p, "a", null,
                        null),
                create("single limited subset is recorded", ws("CloneSet", "a:2"), p, "a", 1, "p1"),
                create("first subset with room, status starts from the spec", ws("CloneSet", "a:1", "b"), p, "a", 0,
                        "p1"),
                create("full subset is skipped; unlimited next subset is not recorded",
                        withVersioned(ws("CloneSet", "a:1", "b"), VERSION_IGNORED, entry("a", 0), entry("b", -1)),
                        p, "b", null, null),
                create("full subset is skipped; limited next subset counts down",
                        withVersioned(ws("CloneSet", "a:1", "b:3"), VERSION_IGNORED, entry("a", 0), entry("b", 3)),
                        p, "b", 2, "p1"),
                create("every subset full: no subset, nothing written",
                        withVersioned(ws("CloneSet", "a:1", "b:1"), VERSION_IGNORED, entry("a", 0), entry("b", 0)),
                        p, null, null, null),
                create("subset marked unschedulable is skipped",
                        withVersioned(ws("CloneSet", "a:2", "b:2"), VERSION_IGNORED,
                                unschedulable(entry("a", 2), "False"), entry("b", 2)), p, "b", 1, "p1"),
                create("Schedulable=True does not skip",
                        withVersioned(ws("CloneSet", "a:2", "b:2"), VERSION_IGNORED,
                                unschedulable(entry("a", 2), "True"), entry("b", 2)), p, "a", 1, "p1"),
                create("unschedulable unlimited subset is skipped too",
                        withVersioned(ws("CloneSet", "a", "b:2"), VERSION_IGNORED,
                                unschedulable(entry("a", -1), "False"), entry("b", 2)), p, "b", 1, "p1"),
                create("pod already recorded as creating keeps its subset, no write",
                        withVersioned(ws("CloneSet", "a:2", "b:2"), VERSION_IGNORED, entry("a", 2),
                                entry("b", 0, 1, List.of("p1"), List.of())), p, "b", null, null),
                create("pod recorded as deleting keeps that subset, no write",
                        withVersioned(ws("CloneSet", "a:2", "b:2"), VERSION_IGNORED,
                                entry("a", 0, 1, List.of(), List.of("p1")), entry("b", 2)), p, "a", null, null),
                create("other records are kept beside the new one",
                        withVersioned(ws("CloneSet", "a:3"), VERSION_IGNORED,
                                entry("a", 0, 2, List.of("p0"), List.of())), p, "a", 1, "p1"),
                create("missing 0 with records is full", withVersioned(ws("CloneSet", "a:1", "b:1"),
                        VERSION_IGNORED, entry("a", 0, 0, List.of("p0"), List.of()), entry("b", 1)), p, "b", 0, "p1"),
                create("unlimited first subset takes the pod unrecorded although later ones are limited",
                        ws("CloneSet", "a", "b:2"), p, "a", null, null),
                create("maxReplicas 0 subset never takes pods", ws("CloneSet", "a:0", "b:1"), p, "b", 0, "p1"),
                new Case("50% of 4 replicas is 2", ws("CloneSet", "a:50%", "b"), p, "create", null, () -> 4, "a", 1,
                        "p1", VERSION_IGNORED),
                new Case("50% of 3 replicas rounds up to 2", ws("CloneSet", "a:50%", "b"), p, "create", null,
                        () -> 3, "a", 1, "p1", VERSION_IGNORED),
                new Case("0% takes nothing", ws("CloneSet", "a:0%", "b:100%"), p, "create", null, () -> 6, "b", 5,
                        "p1", VERSION_IGNORED),
                new Case("percentage of 0 replicas (workload not found) is 0", ws("CloneSet", "a:50%", "b"), p,
                        "create", null, () -> 0, "b", null, null, VERSION_IGNORED),
                new Case("an unreadable limit counts as 0 missing", ws("CloneSet", "a:abc", "b:2"), p, "create",
                        null, () -> 5, "b", 1, "p1", VERSION_IGNORED),
                create("subsetStatuses alone are not used: version entries start from the spec",
                        withSubsetStatuses(ws("CloneSet", "a:1", "b"), entry("a", 0), entry("b", -1)), p, "a", 0,
                        "p1"),
                create("an empty version entry starts from the spec",
                        withVersioned(ws("CloneSet", "a:1", "b"), VERSION_IGNORED), p, "a", 0, "p1"),
                new Case("Deployment pod: its pod-template-hash is its version, a new version starts from the spec",
                        withVersioned(ws("Deployment", "a:1", "b:1"), "v1", entry("a", 0), entry("b", 0)),
                        pod("d1", "ReplicaSet", Map.of("pod-template-hash", "v2")), "create", null,
                        NO_REPLICAS_NEEDED, "a", 0, "d1", "v2"),
                new Case("Deployment pod: its version entry is used",
                        withVersioned(ws("Deployment", "a:1", "b:1"), "v2", entry("a", 0), entry("b", 1)),
                        pod("d1", "ReplicaSet", Map.of("pod-template-hash", "v2")), "create", null,
                        NO_REPLICAS_NEEDED, "b", 0, "d1", "v2"),
                new Case("CloneSet pod: versioned status is off, revision label ignored",
                        withVersioned(ws("CloneSet", "a:1", "b:1"), VERSION_IGNORED, entry("a", 0), entry("b", 1)),
                        pod("c1", "CloneSet", Map.of("controller-revision-hash", "cs-abc")), "create", null,
                        NO_REPLICAS_NEEDED, "b", 0, "c1", VERSION_IGNORED),
                create("StatefulSet pod ordinal 0 goes to the first subset", ws("StatefulSet", "a:2", "b:2", "c"),
                        pod("web-0"), "a", null, null),
                create("StatefulSet ordinal 1 is still within the first 2", ws("StatefulSet", "a:2", "b:2", "c"),
                        pod("web-1"), "a", null, null),
                create("StatefulSet ordinal 2 goes to the second subset", ws("StatefulSet", "a:2", "b:2", "c"),
                        pod("web-2"), "b", null, null),
                create("StatefulSet ordinal past the limits goes to the unlimited subset",
                        ws("StatefulSet", "a:2", "b:2", "c"), pod("web-40"), "c", null, null),
                create("StatefulSet skips an unschedulable subset (overall subsetStatuses)",
                        withSubsetStatuses(ws("StatefulSet", "a:2", "b:2", "c"),
                                unschedulable(entry("a", 2), "False")), pod("web-0"), "b", null, null),
                create("StatefulSet name without ordinal counts as -1", ws("StatefulSet", "a:0", "b:2"), pod("web"),
                        "a", null, null),
                create("StatefulSet ordinal past every limit gets no subset", ws("StatefulSet", "a:1", "b:1"),
                        pod("web-5"), null, null, null),
                create("StatefulSet percentage limit counts as 0", ws("StatefulSet", "a:50%", "b:2"), pod("web-0"),
                        "b", null, null),
                new Case("delete records the pod in its subset, which misses one more",
                        withVersioned(ws("CloneSet", "a:2", "b"), VERSION_IGNORED, entry("a", 0), entry("b", -1)),
                        p, "delete", "a", NO_REPLICAS_NEEDED, "a", 1, "p1", VERSION_IGNORED),
                new Case("delete from an unlimited subset writes nothing",
                        withVersioned(ws("CloneSet", "a:2", "b"), VERSION_IGNORED, entry("a", 0), entry("b", -1)),
                        p, "delete", "b", NO_REPLICAS_NEEDED, "b", null, null, VERSION_IGNORED),
                new Case("delete naming an unknown subset writes nothing",
                        withVersioned(ws("CloneSet", "a:2", "b"), VERSION_IGNORED, entry("a", 0), entry("b", -1)),
                        p, "delete", "zz", NO_REPLICAS_NEEDED, null, null, null, VERSION_IGNORED),
                new Case("delete of a pod still recorded as creating writes nothing",
                        withVersioned(ws("CloneSet", "a:2", "b"), VERSION_IGNORED,
                                entry("a", 0, 0, List.of("p1"), List.of()), entry("b", -1)),
                        p, "delete", "a", NO_REPLICAS_NEEDED, null, null, null, VERSION_IGNORED),
                new Case("delete of a StatefulSet pod writes nothing", ws("StatefulSet", "a:2", "b"), pod("web-0"),
                        "delete", "a", NO_REPLICAS_NEEDED, "a", null, null, VERSION_IGNORED),
                new Case("delete with the single unlimited subset writes nothing", ws("CloneSet", "a"), p, "delete",
                        "a", NO_REPLICAS_NEEDED, "a", null, null, VERSION_IGNORED),
                new Case("delete without a version entry starts from the spec",
                        ws("CloneSet", "a:2", "b"), p, "delete", "a", NO_REPLICAS_NEEDED, "a", 3, "p1",
                        VERSION_IGNORED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(Case c) {
        String before = dev.kruisevertx.api.common.ApiJson.toJson(c.ws());
        SubsetChoice.Decision d = c.op().equals("create")
                ? SubsetChoice.forCreate(c.ws(), c.pod(), PodVersions.defaults(), c.replicas(), NOW, () -> "uid-x")
                : SubsetChoice.forDeletion(c.ws(), c.pod(), new MatchedWorkloadSpread("ws", c.injectedSubset(), ""),
                PodVersions.defaults(), c.replicas(), NOW);
        assertEquals(c.expectSubset(), d.subset());
        assertEquals(before, dev.kruisevertx.api.common.ApiJson.toJson(c.ws()), "the input object is not changed");
        if (c.expectMissing() == null) {
            assertFalse(d.statusChanged());
            assertNull(d.status());
            return;
        }
        assertTrue(d.statusChanged());
        List<WorkloadSpreadSubsetStatus> entries = d.status().getVersionedSubsetStatuses().get(c.version());
        WorkloadSpreadSubsetStatus chosen = WorkloadSpreads.statusNamed(entries, c.expectSubset());
        assertEquals(c.expectMissing(), chosen.getMissingReplicas());
        Map<String, String> records = c.op().equals("create") ? chosen.creatingPods() : chosen.deletingPods();
        assertEquals("2026-01-01T00:00:10Z", records.get(c.expectRecordKey()));
        assertEquals(c.ws().spec().subsets().size(), entries.size());
    }

    @Test
    void aNamelessPodIsRecordedUnderAGeneratedId() {
        Pod nameless = pod(null);
        nameless.getMetadata().setGenerateName("cs-");
        SubsetChoice.Decision d = SubsetChoice.forCreate(ws("CloneSet", "a:1", "b"), nameless,
                PodVersions.defaults(), NO_REPLICAS_NEEDED, NOW, () -> "3f6c-uid");
        assertEquals("a", d.subset());
        assertEquals("3f6c-uid", d.generatedUid());
        assertEquals(Map.of("3f6c-uid", "2026-01-01T00:00:10Z"), d.status().getVersionedSubsetStatuses()
                .get(VERSION_IGNORED).get(0).creatingPods());
    }

    @Test
    void aNamedPodGetsNoGeneratedId() {
        SubsetChoice.Decision d = SubsetChoice.forCreate(ws("CloneSet", "a:1"), pod("p"), PodVersions.defaults(),
                NO_REPLICAS_NEEDED, NOW, () -> {
                    throw new AssertionError("no id for a named pod");
                });
        assertEquals("", d.generatedUid());
    }

    @Test
    void theReplicasLookupFailureReachesTheCaller() {
        assertThrows(IllegalStateException.class, () -> SubsetChoice.forCreate(ws("CloneSet", "a:10%", "b"),
                pod("p"), PodVersions.defaults(), () -> {
                    throw new IllegalStateException("workload read failed");
                }, NOW, () -> "u"));
    }

    @Test
    void ordinalsAsOpenKruiseParsesThem() {
        assertEquals(0, SubsetChoice.ordinal("web-0"));
        assertEquals(12, SubsetChoice.ordinal("a-b-12"));
        assertEquals(-1, SubsetChoice.ordinal("web"));
        assertEquals(-1, SubsetChoice.ordinal("web-"));
        assertEquals(-1, SubsetChoice.ordinal("web-99999999999"));
    }

    @Test
    void versionedStatusFlag() {
        PodVersions rsOnly = PodVersions.of("Deployment");
        assertTrue(rsOnly.enabled("replicaset"));
        PodVersions cloneSets = PodVersions.of("cloneset");
        assertEquals("abc", cloneSets.of(pod("c", "CloneSet", Map.of("controller-revision-hash", "cs-abc"))));
        assertEquals(VERSION_IGNORED, cloneSets.of(pod("c", "CloneSet", Map.of())));
        assertEquals(VERSION_IGNORED, PodVersions.defaults().of(pod("d", "ReplicaSet", Map.of())));
    }
}
