package dev.kruisevertx.agent.containermeta;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.inplace.EnvFromMetadataHash;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The env-from-metadata hash and the container-meta decisions, as kruise-daemon's containermeta controller. */
class ContainerMetaDecisionTest {

    static Container app(String name) {
        return new ContainerBuilder().withName(name).withImage("app:1")
                .addNewEnv().withName("PLAIN").withValue("x").endEnv()
                .addNewEnv().withName("VERSION").withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.labels['version']").endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("CONFIG").withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.annotations['config']").endFieldRef().endValueFrom().endEnv()
                .build();
    }

    static Pod pod(String version, String meta, String inPlaceReady, String... ids) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withUid("u1")
                .addToLabels("version", version).addToAnnotations("config", "c1")
                .addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet").withName("cs")
                .withUid("o1").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().addToContainers(app("main")).endSpec().withNewStatus().endStatus();
        if (meta != null) {
            b.editMetadata().addToAnnotations(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION, meta).endMetadata();
        }
        if (inPlaceReady != null) {
            b.editStatus().addNewCondition().withType("InPlaceUpdateReady").withStatus(inPlaceReady).endCondition()
                    .endStatus();
        }
        for (String id : ids) {
            b.editStatus().addNewContainerStatus().withName("main").withContainerID(id).withRestartCount(0)
                    .endContainerStatus().endStatus();
        }
        return b.build();
    }

    static String meta(String id, long envHash) {
        return "{\"containers\":[{\"name\":\"main\",\"containerID\":\"" + id + "\",\"restartCount\":0,"
                + "\"hashes\":{\"plainHash\":0" + (envHash == 0 ? "" : ",\"extractedEnvFromMetadataHash\":" + envHash)
                + "}}]}";
    }

    static long expectedFor(String version) {
        return EnvFromMetadataHash.expected(app("main"), Map.of("version", version), Map.of("config", "c1"));
    }

    static Map<String, ContainerMetaPlanner.Observed> running(String id, Map<String, String> env) {
        return Map.of("main", new ContainerMetaPlanner.Observed(id, true, 7, env));
    }

    // ---- hash ----

    @Test
    void hashOfNoReferencesIsTheHashOfGoNull() {
        // FNV-1a 32 of "[]byte{0x6e, 0x75, 0x6c, 0x6c}", i.e. Go's %#v of json "null".
        long h = EnvFromMetadataHash.expected(new ContainerBuilder().withName("c").build(), Map.of(), Map.of());
        int f = 0x811c9dc5;
        for (char ch : "[]byte{0x6e, 0x75, 0x6c, 0x6c}".toCharArray()) {
            f ^= ch;
            f *= 0x01000193;
        }
        assertEquals(Integer.toUnsignedLong(f), h);
    }

    @Test
    void expectedEqualsCurrentWhenTheContainerHasThePodsValues() {
        assertEquals(expectedFor("v1"), EnvFromMetadataHash.current(app("main"),
                Map.of("VERSION", "v1", "CONFIG", "c1", "PLAIN", "x")::get));
    }

    @Test
    void aChangedLabelChangesTheHash() {
        assertNotEquals(expectedFor("v1"), expectedFor("v2"));
    }

    @Test
    void literalValuesAndOtherFieldRefsDoNotCount() {
        Container c = new ContainerBuilder().withName("c").addNewEnv().withName("A").withValue("1").endEnv()
                .addNewEnv().withName("N").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name")
                .endFieldRef().endValueFrom().endEnv().build();
        assertFalse(EnvFromMetadataHash.referencesMetadata(c));
        assertEquals(EnvFromMetadataHash.expected(new ContainerBuilder().withName("c").build(), Map.of(), Map.of()),
                EnvFromMetadataHash.expected(c, Map.of(), Map.of()));
    }

    @Test
    void sidecarSetVersionVariablesAreExcluded() {
        Container c = new ContainerBuilder().withName("c").addNewEnv().withName("SIDECARSET_VERSION").withNewValueFrom()
                .withNewFieldRef().withFieldPath("metadata.annotations['v']").endFieldRef().endValueFrom().endEnv()
                .build();
        assertFalse(EnvFromMetadataHash.referencesMetadata(c));
        assertEquals(EnvFromMetadataHash.expected(c, Map.of(), Map.of("v", "1")),
                EnvFromMetadataHash.expected(c, Map.of(), Map.of("v", "2")));
    }

    @Test
    void envOrderDoesNotMatter() {
        Container a = app("main");
        Container b = new ContainerBuilder(a).withEnv(a.getEnv().get(2), a.getEnv().get(1)).build();
        assertEquals(EnvFromMetadataHash.expected(a, Map.of("version", "v"), Map.of("config", "c")),
                EnvFromMetadataHash.expected(b, Map.of("version", "v"), Map.of("config", "c")));
    }

    @Test
    void aMissingLabelHashesAsAnEmptyValue() {
        assertEquals(EnvFromMetadataHash.expected(app("main"), Map.of(), Map.of("config", "c1")),
                EnvFromMetadataHash.current(app("main"), Map.of("CONFIG", "c1")::get));
    }

    @Test
    void envOutputIsParsedByFirstEquals() {
        assertEquals(Map.of("A", "1=2", "B", ""), EnvFromMetadataHash.parseEnvOutput("A=1=2\nB=\nnoequals\n"));
    }

    // ---- which events are worth a sync ----

    @Test
    void podsNotManagedByKruiseAreIgnored() {
        Pod plain = new PodBuilder(pod("v1", null, null, "containerd://a")).editMetadata().withOwnerReferences()
                .endMetadata().build();
        assertFalse(ContainerMetaPlanner.worthSync(plain, plain, true));
    }

    @Test
    void anAddedPodWithoutMetaWaitsForItsNextUpdate() {
        assertFalse(ContainerMetaPlanner.worthSync(null, pod("v1", null, null, "containerd://a"), true));
        assertTrue(ContainerMetaPlanner.worthSync(pod("v1", null, null), pod("v1", null, null, "containerd://a"), true));
    }

    @Test
    void aNewContainerIdIsWorthASync() {
        Pod now = pod("v1", meta("containerd://a", expectedFor("v1")), null, "containerd://b");
        assertTrue(ContainerMetaPlanner.worthSync(now, now, true));
    }

    @Test
    void anUpToDatePodIsNotWorthASync() {
        Pod now = pod("v1", meta("containerd://a", expectedFor("v1")), null, "containerd://a");
        assertFalse(ContainerMetaPlanner.worthSync(now, now, true));
    }

    @Test
    void aChangedLabelIsWorthASyncOnlyWithTheGate() {
        Pod old = pod("v1", meta("containerd://a", expectedFor("v1")), null, "containerd://a");
        Pod now = pod("v2", meta("containerd://a", expectedFor("v1")), null, "containerd://a");
        assertTrue(ContainerMetaPlanner.worthSync(old, now, true));
        assertFalse(ContainerMetaPlanner.worthSync(old, now, false));
    }

    // ---- plans ----

    @Test
    void firstReportReadsEnvAndRecordsItsHash() {
        Pod p = pod("v1", null, null, "containerd://a");
        assertEquals(List.of("main"), ContainerMetaPlanner.needEnv(p, running("containerd://a", null), true));
        ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(p,
                running("containerd://a", Map.of("VERSION", "v1", "CONFIG", "c1")), true);
        assertTrue(plan.changed());
        assertEquals(expectedFor("v1"), plan.metaSet().getContainers().get(0).getHashes().getExtractedEnvFromMetadataHash());
        assertEquals(7, plan.metaSet().getContainers().get(0).getHashes().getPlainHash());
        assertEquals(List.of(), plan.restart());
    }

    @Test
    void withoutTheGateNoEnvIsReadAndNoHashKept() {
        Pod p = pod("v1", null, "False", "containerd://a");
        assertEquals(List.of(), ContainerMetaPlanner.needEnv(p, running("containerd://a", null), false));
        ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(p, running("containerd://a", null), false);
        assertEquals(0, plan.metaSet().getContainers().get(0).getHashes().getExtractedEnvFromMetadataHash());
        assertEquals(List.of(), plan.restart());
    }

    @Test
    void aKnownHashIsKeptWithoutReadingEnvAgain() {
        Pod p = pod("v1", meta("containerd://a", expectedFor("v1")), null, "containerd://a");
        assertEquals(List.of(), ContainerMetaPlanner.needEnv(p, running("containerd://a", null), true));
        assertFalse(ContainerMetaPlanner.plan(p, running("containerd://a", null), true).changed());
    }

    @Test
    void aStaleHashDuringAnInPlaceUpdateRestartsTheContainer() {
        Pod p = pod("v2", meta("containerd://a", expectedFor("v1")), "False", "containerd://a");
        assertEquals(List.of("containerd://a"), ContainerMetaPlanner.plan(p, running("containerd://a", null), true)
                .restart());
    }

    @Test
    void aStaleHashOutsideAnInPlaceUpdateIsLeftAlone() {
        Pod ready = pod("v2", meta("containerd://a", expectedFor("v1")), "True", "containerd://a");
        Pod noCondition = pod("v2", meta("containerd://a", expectedFor("v1")), null, "containerd://a");
        assertEquals(List.of(), ContainerMetaPlanner.plan(ready, running("containerd://a", null), true).restart());
        assertEquals(List.of(), ContainerMetaPlanner.plan(noCondition, running("containerd://a", null), true).restart());
    }

    @Test
    void theRestartedContainerGetsAFreshEntryWithItsNewValues() {
        Pod p = pod("v2", meta("containerd://a", expectedFor("v1")), "False", "containerd://b");
        assertEquals(List.of("main"), ContainerMetaPlanner.needEnv(p, running("containerd://b", null), true));
        ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(p,
                running("containerd://b", Map.of("VERSION", "v2", "CONFIG", "c1")), true);
        assertEquals("containerd://b", plan.metaSet().getContainers().get(0).getContainerID());
        assertEquals(expectedFor("v2"), plan.metaSet().getContainers().get(0).getHashes().getExtractedEnvFromMetadataHash());
        assertEquals(List.of(), plan.restart());
        assertTrue(plan.changed());
    }

    @Test
    void anUnreadableEnvIsRetriedAndNeverRestarts() {
        Pod p = pod("v2", null, "False", "containerd://a");
        ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(p, running("containerd://a", null), true);
        assertTrue(plan.retry());
        assertEquals(0, plan.metaSet().getContainers().get(0).getHashes().getExtractedEnvFromMetadataHash());
        assertEquals(List.of(), plan.restart());
    }

    @Test
    void aStoppedContainerIsReportedWithoutEnvHash() {
        Pod p = pod("v1", null, "False", "containerd://a");
        Map<String, ContainerMetaPlanner.Observed> exited =
                Map.of("main", new ContainerMetaPlanner.Observed("containerd://a", false, 0, null));
        assertEquals(List.of(), ContainerMetaPlanner.needEnv(p, exited, true));
        ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(p, exited, true);
        assertFalse(plan.retry());
        assertEquals(List.of(), plan.restart());
        assertEquals(1, plan.metaSet().getContainers().size());
    }

    @Test
    void containersTheRuntimeDoesNotKnowAreLeftOut() {
        ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(pod("v1", null, null, "containerd://a"), Map.of(), true);
        assertEquals(0, plan.metaSet().getContainers().size());
    }

    @Test
    void anUnreadableAnnotationIsReplaced() {
        Pod p = pod("v1", "{not json", null, "containerd://a");
        ContainerMetaPlanner.Plan plan = ContainerMetaPlanner.plan(p,
                running("containerd://a", Map.of("VERSION", "v1", "CONFIG", "c1")), true);
        assertTrue(plan.changed());
        assertEquals(1, plan.metaSet().getContainers().size());
    }
}
