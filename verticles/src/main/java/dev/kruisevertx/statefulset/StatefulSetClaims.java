package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimComparison;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimStatus;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import static dev.kruisevertx.api.apps.v1beta1.PersistentVolumeClaimRetentionPolicyType.DELETE;

/**
 * Pure rules about the PVCs of an Advanced StatefulSet's pods: which ownerReferences the retention policy asks for,
 * whether a pod mounts every template's claim, and how a PVC compares with its (possibly grown) template.
 */
final class StatefulSetClaims {
    /** Set on a PVC the controller resized, with the set's name, as OpenKruise does. */
    static final String OWNED_BY_ASTS_ANNOTATION = "apps.kruise.io/owned-by-asts";
    static final String FILE_SYSTEM_RESIZE_PENDING = "FileSystemResizePending";
    /** Up to this many replicas, status looks each desired ordinal's claims up by name. */
    static final int LOOKUP_BY_NAME_LIMIT = 1_000;

    private StatefulSetClaims() {
    }

    /**
     * The ownerReferences a claim of {@code pod} should carry under the retention policy (gate
     * StatefulSetAutoDeletePVC), as Kubernetes' StatefulSet keeps them: whenDeleted=Delete puts a reference to the set
     * on the claims of running ordinals; whenScaled=Delete puts a reference to the pod on the claims of condemned
     * ordinals (both Delete: the set for running ordinals, the pod for condemned ones). References to other owners
     * are kept; null when the claim already matches.
     */
    static List<OwnerReference> ownerReferencesFor(PersistentVolumeClaim claim, StatefulSet set, Pod pod,
                                                   boolean condemned) {
        StatefulSetPersistentVolumeClaimRetentionPolicy policy = set.getSpec().getPersistentVolumeClaimRetentionPolicy();
        boolean deleteWithSet = policy != null && policy.whenDeletedValue().orElse(null) == DELETE;
        boolean deleteOnScale = policy != null && policy.whenScaledValue().orElse(null) == DELETE;
        boolean wantSet;
        boolean wantPod;
        if (deleteOnScale) {
            wantPod = condemned;
            wantSet = deleteWithSet && !condemned;
        } else {
            wantPod = false;
            wantSet = deleteWithSet;
        }
        String setUid = set.getMetadata().getUid();
        String podUid = pod.getMetadata().getUid();
        List<OwnerReference> refs = claim.getMetadata().getOwnerReferences() == null ? List.of()
                : claim.getMetadata().getOwnerReferences();
        boolean hasSet = refs.stream().anyMatch(r -> Objects.equals(setUid, r.getUid()));
        boolean hasPod = podUid != null && refs.stream().anyMatch(r -> Objects.equals(podUid, r.getUid()));
        if (hasSet == wantSet && hasPod == wantPod) {
            return null;
        }
        List<OwnerReference> out = new ArrayList<>();
        for (OwnerReference r : refs) {
            if (!Objects.equals(setUid, r.getUid()) && !(podUid != null && podUid.equals(r.getUid()))) {
                out.add(r);
            }
        }
        if (wantSet) {
            out.add(setReference(set));
        }
        if (wantPod && podUid != null) {
            out.add(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod")
                    .withName(pod.getMetadata().getName()).withUid(podUid).build());
        }
        return out;
    }

    /**
     * A claim still referencing an earlier pod of the same name (upstream PodClaimIsStale, whenScaled=Delete): the
     * pod about to be created must wait until the garbage collector removes it, or it would lose the claim.
     */
    static boolean staleForNewPod(PersistentVolumeClaim claim, String podName) {
        return claim.getMetadata().getOwnerReferences() != null && claim.getMetadata().getOwnerReferences().stream()
                .anyMatch(r -> "Pod".equals(r.getKind()) && podName.equals(r.getName()));
    }

    /** A plain (non-controller) reference to the set, as Kubernetes puts on claims for garbage collection. */
    static OwnerReference setReference(StatefulSet set) {
        return new OwnerReferenceBuilder().withApiVersion(StatefulSet.API_VERSION).withKind(StatefulSet.KIND)
                .withName(set.getMetadata().getName()).withUid(set.getMetadata().getUid()).build();
    }

    /** Whether the pod mounts, under each template's name, the claim of its ordinal (upstream storageMatches). */
    static boolean storageMatches(StatefulSet set, Pod pod, int ordinal) {
        List<PersistentVolumeClaim> templates = set.getSpec().getVolumeClaimTemplates();
        if (templates == null || templates.isEmpty()) {
            return true;
        }
        List<Volume> volumes = pod.getSpec() == null || pod.getSpec().getVolumes() == null ? List.of()
                : pod.getSpec().getVolumes();
        for (PersistentVolumeClaim t : templates) {
            String want = PodOrdinals.claimName(t.getMetadata().getName(), set.getMetadata().getName(), ordinal);
            boolean found = volumes.stream().anyMatch(v -> t.getMetadata().getName().equals(v.getName())
                    && v.getPersistentVolumeClaim() != null && want.equals(v.getPersistentVolumeClaim().getClaimName()));
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** Same storage class (when both name one) and the same access modes in the same order: all but the size. */
    static boolean compatibleWithoutSize(PersistentVolumeClaim claim, PersistentVolumeClaim template) {
        return VolumeClaimComparison.compatibleWithoutSize(claim, template);
    }

    /** The claim requests less storage than its template: it must be expanded. */
    static boolean needsExpansion(PersistentVolumeClaim claim, PersistentVolumeClaim template) {
        return requested(claim).compareTo(requested(template)) < 0;
    }

    /** Compatible and at least as large as the template: nothing to patch (upstream IsClaimsCompatible per claim). */
    static boolean matches(PersistentVolumeClaim claim, PersistentVolumeClaim template) {
        return compatibleWithoutSize(claim, template) && !needsExpansion(claim, template);
    }

    /** The capacity the volume reports has reached what the claim requests. */
    static boolean ready(PersistentVolumeClaim claim) {
        Quantity cap = claim.getStatus() == null || claim.getStatus().getCapacity() == null ? null
                : claim.getStatus().getCapacity().get("storage");
        return amount(cap).compareTo(requested(claim)) >= 0;
    }

    /** A resize is done for the rolling update once the volume grew, or only the file system waits for the pod. */
    static boolean resizeCompleted(PersistentVolumeClaim claim, PersistentVolumeClaim template) {
        if (!matches(claim, template)) {
            return false;
        }
        if (ready(claim)) {
            return true;
        }
        return claim.getStatus() != null && claim.getStatus().getConditions() != null && claim.getStatus()
                .getConditions().stream().anyMatch(c -> FILE_SYSTEM_RESIZE_PENDING.equals(c.getType()));
    }

    /**
     * status.volumeClaims: per template, the replicas whose existing (not terminating) claim is compatible, and of
     * those the ones whose volume is ready. A small set looks its claims up by name ({@code claimOf}); a large one
     * walks the claims of its namespace instead ({@code namespaceClaims}), so the cost is bounded by the claims that
     * exist, never by {@code replicas}.
     */
    static List<VolumeClaimStatus> status(StatefulSet set, DesiredOrdinals desired,
                                          BiFunction<String, String, PersistentVolumeClaim> claimOf,
                                          Supplier<List<PersistentVolumeClaim>> namespaceClaims) {
        List<PersistentVolumeClaim> templates = set.getSpec().getVolumeClaimTemplates();
        if (templates == null || templates.isEmpty()) {
            return null;
        }
        String setName = set.getMetadata().getName();
        int[] compatible = new int[templates.size()];
        int[] ready = new int[templates.size()];
        if (desired.size() <= LOOKUP_BY_NAME_LIMIT) {
            for (int i = 0; i < templates.size(); i++) {
                PersistentVolumeClaim t = templates.get(i);
                for (int ordinal : desired) {
                    count(claimOf.apply(set.getMetadata().getNamespace(),
                            PodOrdinals.claimName(t.getMetadata().getName(), setName, ordinal)), t, i, compatible, ready);
                }
            }
        } else {
            for (PersistentVolumeClaim c : namespaceClaims.get()) {
                for (int i = 0; i < templates.size(); i++) {
                    PersistentVolumeClaim t = templates.get(i);
                    // Claim names are <template>-<set>-<ordinal>: the prefix parses like a pod name's.
                    int ordinal = PodOrdinals.ordinalOf(t.getMetadata().getName() + "-" + setName,
                            c.getMetadata().getName());
                    if (ordinal >= 0 && desired.contains(ordinal)) {
                        count(c, t, i, compatible, ready);
                    }
                }
            }
        }
        List<VolumeClaimStatus> out = new ArrayList<>();
        for (int i = 0; i < templates.size(); i++) {
            out.add(new VolumeClaimStatus(templates.get(i).getMetadata().getName(), compatible[i], ready[i]));
        }
        return out;
    }

    private static void count(PersistentVolumeClaim c, PersistentVolumeClaim template, int i, int[] compatible,
                              int[] ready) {
        if (c == null || c.getMetadata().getDeletionTimestamp() != null || !matches(c, template)) {
            return;
        }
        compatible[i]++;
        if (ready(c)) {
            ready[i]++;
        }
    }

    private static BigDecimal requested(PersistentVolumeClaim claim) {
        return VolumeClaimComparison.requestedStorage(claim);
    }

    private static BigDecimal amount(Quantity q) {
        return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
    }
}
