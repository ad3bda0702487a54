package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class StatefulSetClaimsTest {
    static final OwnerReference FOREIGN = new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap")
            .withName("keep").withUid("other").build();

    static StatefulSet set(String whenDeleted, String whenScaled) {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("ns").withUid("set-uid").build());
        StatefulSetSpec spec = new StatefulSetSpec();
        if (whenDeleted != null) {
            StatefulSetPersistentVolumeClaimRetentionPolicy p = new StatefulSetPersistentVolumeClaimRetentionPolicy();
            p.setWhenDeleted(whenDeleted);
            p.setWhenScaled(whenScaled);
            spec.setPersistentVolumeClaimRetentionPolicy(p);
        }
        spec.setVolumeClaimTemplates(List.of(template("data", "1Gi", null)));
        set.setSpec(spec);
        return set;
    }

    static PersistentVolumeClaim template(String name, String size, String storageClass) {
        return new PersistentVolumeClaimBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withAccessModes("ReadWriteOnce").withStorageClassName(storageClass).withNewResources()
                .addToRequests("storage", new Quantity(size)).endResources().endSpec().build();
    }

    static PersistentVolumeClaim claim(String size, String capacity, OwnerReference... refs) {
        PersistentVolumeClaimBuilder b = new PersistentVolumeClaimBuilder().withNewMetadata().withName("data-web-1")
                .withNamespace("ns").withOwnerReferences(refs).endMetadata().withNewSpec()
                .withAccessModes("ReadWriteOnce").withStorageClassName("fast").withNewResources()
                .addToRequests("storage", new Quantity(size)).endResources().endSpec();
        if (capacity != null) {
            b.withNewStatus().addToCapacity("storage", new Quantity(capacity)).endStatus();
        }
        return b.build();
    }

    static final Pod POD = new PodBuilder().withNewMetadata().withName("web-1").withUid("pod-uid").endMetadata()
            .withNewSpec().addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("data-web-1")
            .endPersistentVolumeClaim().endVolume().endSpec().build();

    static Set<String> uids(List<OwnerReference> refs) {
        return refs.stream().map(OwnerReference::getUid).collect(Collectors.toSet());
    }

    @Test
    void ownerReferencesFollowTheRetentionPolicyAsUpstream() {
        OwnerReference setRef = StatefulSetClaims.setReference(set("Delete", "Retain"));
        OwnerReference podRef = new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName("web-1")
                .withUid("pod-uid").build();
        // Retain/Retain: neither the set nor the pod owns a claim.
        assertEquals(Set.of("other"), uids(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null, FOREIGN, setRef,
                podRef), set("Retain", "Retain"), POD, false)));
        assertNull(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null, FOREIGN), set(null, null), POD, true));
        // whenDeleted Delete: the set owns it, whether running or condemned, while whenScaled is Retain.
        assertEquals(Set.of("other", "set-uid"), uids(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null, FOREIGN),
                set("Delete", "Retain"), POD, true)));
        assertNull(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null, setRef), set("Delete", "Retain"), POD, false));
        // whenScaled Delete: the pod owns the claims of a condemned ordinal only.
        assertNull(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null), set("Retain", "Delete"), POD, false));
        assertEquals(Set.of("pod-uid"), uids(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null),
                set("Retain", "Delete"), POD, true)));
        // Both Delete: the set while the ordinal runs, the pod (and no longer the set) once it is condemned.
        assertEquals(Set.of("set-uid"), uids(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null, podRef),
                set("Delete", "Delete"), POD, false)));
        assertEquals(Set.of("pod-uid"), uids(StatefulSetClaims.ownerReferencesFor(claim("1Gi", null, setRef),
                set("Delete", "Delete"), POD, true)));
        OwnerReference added = StatefulSetClaims.ownerReferencesFor(claim("1Gi", null), set("Delete", "Retain"), POD,
                false).get(0);
        assertEquals("apps.kruise.io/v1beta1", added.getApiVersion());
        assertEquals("StatefulSet", added.getKind());
        assertNull(added.getController(), "a plain reference, not a controller");
    }

    @Test
    void storageMatchesOnlyWhenEveryTemplateIsMountedWithItsClaim() {
        StatefulSet s = set(null, null);
        assertTrue(StatefulSetClaims.storageMatches(s, POD, 1));
        assertFalse(StatefulSetClaims.storageMatches(s, POD, 2), "claim of another ordinal");
        s.getSpec().setVolumeClaimTemplates(List.of(template("data", "1Gi", null), template("logs", "1Gi", null)));
        assertFalse(StatefulSetClaims.storageMatches(s, POD, 1), "a template added after the pod was created");
    }

    @Test
    void claimsComparedWithGrownTemplates() {
        PersistentVolumeClaim bigger = template("data", "2Gi", null);
        assertTrue(StatefulSetClaims.matches(claim("1Gi", "1Gi"), template("data", "1Gi", "fast")));
        assertTrue(StatefulSetClaims.needsExpansion(claim("1Gi", "1Gi"), bigger));
        assertFalse(StatefulSetClaims.matches(claim("1Gi", "1Gi"), bigger));
        assertTrue(StatefulSetClaims.matches(claim("3Gi", "3Gi"), bigger), "larger than asked is compatible");
        assertFalse(StatefulSetClaims.compatibleWithoutSize(claim("2Gi", null), template("data", "2Gi", "slow")));
        // Requested 2Gi, the volume still reports 1Gi: expanding.
        assertFalse(StatefulSetClaims.ready(claim("2Gi", "1Gi")));
        assertFalse(StatefulSetClaims.resizeCompleted(claim("2Gi", "1Gi"), bigger));
        PersistentVolumeClaim fsPending = claim("2Gi", "1Gi");
        fsPending.getStatus().setConditions(List.of(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimConditionBuilder()
                .withType("FileSystemResizePending").withStatus("True").build()));
        assertTrue(StatefulSetClaims.resizeCompleted(fsPending, bigger), "only the file system waits for the pod");
        assertTrue(StatefulSetClaims.resizeCompleted(claim("2Gi", "2Gi"), bigger));
    }

    @Test
    void volumeClaimsStatusCountsCompatibleAndReadyReplicas() {
        StatefulSet s = set(null, null);
        s.getSpec().setVolumeClaimTemplates(List.of(template("data", "2Gi", null)));
        Map<String, PersistentVolumeClaim> byName = new HashMap<>();
        PersistentVolumeClaim c0 = claim("2Gi", "2Gi");
        PersistentVolumeClaim c1 = claim("2Gi", "1Gi");
        PersistentVolumeClaim c2 = claim("1Gi", "1Gi");
        byName.put("data-web-0", c0);
        byName.put("data-web-1", c1);
        byName.put("data-web-2", c2);
        List<VolumeClaimStatus> st = StatefulSetClaims.status(s, DesiredOrdinals.range(4, 0), (ns, n) -> byName.get(n),
                () -> fail("four replicas look their claims up by name"));
        assertEquals(List.of(new VolumeClaimStatus("data", 2, 1)), st);
        s.getSpec().setVolumeClaimTemplates(List.of());
        assertNull(StatefulSetClaims.status(s, DesiredOrdinals.range(1, 0), (ns, n) -> null, List::of));
    }

    static PersistentVolumeClaim named(String name, PersistentVolumeClaim c) {
        return new PersistentVolumeClaimBuilder(c).editMetadata().withName(name).endMetadata().build();
    }

    @Test
    void volumeClaimsStatusOfTheLargestSetCountsTheClaimsThatExist() {
        StatefulSet s = set(null, null);
        s.getSpec().setVolumeClaimTemplates(List.of(template("data", "2Gi", null), template("logs", "1Gi", null)));
        // 2147483647 replicas with ordinal 3 reserved: 0-2 and 4-2147483647.
        DesiredOrdinals desired = DesiredOrdinals.of(Integer.MAX_VALUE, 0, List.of(new IntOrString(3)));
        List<PersistentVolumeClaim> namespace = List.of(
                named("data-web-0", claim("2Gi", "2Gi")),
                named("data-web-2147483647", claim("2Gi", "2Gi")),
                named("data-web-7", claim("2Gi", "1Gi")),
                named("data-web-3", claim("2Gi", "2Gi")),       // reserved ordinal
                named("data-web-1", claim("1Gi", "1Gi")),       // too small
                named("data-web-x", claim("2Gi", "2Gi")),       // not an ordinal
                named("data-webapp-1", claim("2Gi", "2Gi")),    // another set's
                named("logs-web-0", claim("1Gi", "1Gi")),
                named("data-web-01", claim("2Gi", "2Gi")));     // not how an ordinal is written
        List<VolumeClaimStatus> st = StatefulSetClaims.status(s, desired,
                (ns, n) -> fail("2147483647 replicas are never looked up one by one"), () -> namespace);
        assertEquals(List.of(new VolumeClaimStatus("data", 3, 2), new VolumeClaimStatus("logs", 1, 1)), st);
    }

    @Test
    void aClaimOfAnEarlierPodOfTheSameNameIsStale() {
        OwnerReference oldPod = new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName("web-1")
                .withUid("gone").build();
        assertTrue(StatefulSetClaims.staleForNewPod(claim("1Gi", null, FOREIGN, oldPod), "web-1"));
        assertFalse(StatefulSetClaims.staleForNewPod(claim("1Gi", null, FOREIGN), "web-1"));
        assertFalse(StatefulSetClaims.staleForNewPod(claim("1Gi", null,
                StatefulSetClaims.setReference(set("Delete", "Delete"))), "web-1"));
    }
}
