package dev.kruisevertx.api.apps.v1beta1;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * How a PVC compares with a volumeClaimTemplate for OpenKruise's volumeClaimUpdateStrategy, shared by the webhook
 * (which template changes are allowed) and the controller (which PVCs must grow). A missing storage quantity counts as
 * zero, as Kubernetes' {@code ResourceList.Storage()} does.
 */
public final class VolumeClaimComparison {
    private VolumeClaimComparison() {
    }

    /** Same storage class (when both name one) and the same access modes in the same order: all but the size. */
    public static boolean compatibleWithoutSize(PersistentVolumeClaim claim, PersistentVolumeClaim template) {
        String tsc = template.getSpec() == null ? null : template.getSpec().getStorageClassName();
        String csc = claim.getSpec() == null ? null : claim.getSpec().getStorageClassName();
        if (tsc != null && csc != null && !tsc.equals(csc)) {
            return false;
        }
        List<String> cm = claim.getSpec() == null || claim.getSpec().getAccessModes() == null ? List.of()
                : claim.getSpec().getAccessModes();
        List<String> tm = template.getSpec() == null || template.getSpec().getAccessModes() == null ? List.of()
                : template.getSpec().getAccessModes();
        return cm.equals(tm);
    }

    /** spec.resources.requests.storage, zero when absent. */
    public static BigDecimal requestedStorage(PersistentVolumeClaim pvc) {
        return storage(pvc.getSpec() == null || pvc.getSpec().getResources() == null ? null
                : pvc.getSpec().getResources().getRequests());
    }

    /** spec.resources.limits.storage, zero when absent. */
    public static BigDecimal storageLimit(PersistentVolumeClaim pvc) {
        return storage(pvc.getSpec() == null || pvc.getSpec().getResources() == null ? null
                : pvc.getSpec().getResources().getLimits());
    }

    private static BigDecimal storage(Map<String, Quantity> list) {
        Quantity q = list == null ? null : list.get("storage");
        return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
    }
}
