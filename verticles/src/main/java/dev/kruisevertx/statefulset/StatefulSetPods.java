package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.inplace.InPlaceUpdater;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the pod and the PVCs of one ordinal, with the identity Kubernetes' StatefulSet gives them. */
final class StatefulSetPods {
    /** Label with the pod's own name, which a per-pod Service can select. */
    static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    /** Upstream pod index label (gate PodIndexLabel). */
    static final String K8S_POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    /** Kruise pod index label (gate PodIndexLabel). */
    static final String KRUISE_POD_INDEX_LABEL = "apps.kruise.io/pod-index";

    private StatefulSetPods() {
    }

    static Pod newPod(StatefulSet set, PodTemplateSpec template, int ordinal, String revision, boolean podIndexLabel,
                      boolean inPlaceReadinessGate) {
        String name = PodOrdinals.podName(set.getMetadata().getName(), ordinal);
        ObjectMeta tm = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = new LinkedHashMap<>();
        if (tm.getLabels() != null) {
            labels.putAll(tm.getLabels());
        }
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision);
        labels.put(POD_NAME_LABEL, name);
        if (podIndexLabel) {
            labels.put(K8S_POD_INDEX_LABEL, Integer.toString(ordinal));
            labels.put(KRUISE_POD_INDEX_LABEL, Integer.toString(ordinal));
        }
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        meta.setNamespace(set.getMetadata().getNamespace());
        meta.setLabels(labels);
        meta.setAnnotations(tm.getAnnotations() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(tm.getAnnotations()));
        if (tm.getFinalizers() != null && !tm.getFinalizers().isEmpty()) {
            meta.setFinalizers(new ArrayList<>(tm.getFinalizers()));
        }
        meta.setOwnerReferences(List.of(StatefulSetRevisions.ownerReference(set)));

        PodSpec spec = template.getSpec() == null ? new PodSpec()
                : dev.kruisevertx.api.common.ApiJson.serialization().clone(template.getSpec());
        spec.setHostname(name);
        if (set.getSpec().getServiceName() != null && !set.getSpec().getServiceName().isEmpty()) {
            spec.setSubdomain(set.getSpec().getServiceName());
        }
        List<PersistentVolumeClaim> claims = set.getSpec().getVolumeClaimTemplates();
        if (claims != null && !claims.isEmpty()) {
            List<Volume> volumes = new ArrayList<>();
            for (PersistentVolumeClaim c : claims) {
                String claim = c.getMetadata().getName();
                volumes.add(new VolumeBuilder().withName(claim).withNewPersistentVolumeClaim()
                        .withClaimName(PodOrdinals.claimName(claim, set.getMetadata().getName(), ordinal))
                        .endPersistentVolumeClaim().build());
            }
            if (spec.getVolumes() != null) {
                for (Volume v : spec.getVolumes()) {
                    if (volumes.stream().noneMatch(x -> x.getName().equals(v.getName()))) {
                        volumes.add(v);
                    }
                }
            }
            spec.setVolumes(volumes);
        }
        if (inPlaceReadinessGate) {
            InPlaceUpdater.injectReadinessGate(spec);
        }
        Pod pod = new Pod();
        pod.setMetadata(meta);
        pod.setSpec(spec);
        return pod;
    }

    /**
     * The PVCs of one ordinal: labelled with the set's selector labels; referencing the set when
     * {@code whenDeleted: Delete} (so they go with it), else unowned and retained.
     */
    static List<PersistentVolumeClaim> newClaims(StatefulSet set, int ordinal, boolean ownedBySet) {
        List<PersistentVolumeClaim> out = new ArrayList<>();
        List<PersistentVolumeClaim> templates = set.getSpec().getVolumeClaimTemplates();
        if (templates == null) {
            return out;
        }
        Map<String, String> selectorLabels = set.getSpec().getSelector() == null
                || set.getSpec().getSelector().getMatchLabels() == null ? Map.of()
                : set.getSpec().getSelector().getMatchLabels();
        for (PersistentVolumeClaim t : templates) {
            Map<String, String> labels = new LinkedHashMap<>();
            if (t.getMetadata().getLabels() != null) {
                labels.putAll(t.getMetadata().getLabels());
            }
            labels.putAll(selectorLabels);
            PersistentVolumeClaimBuilder b = new PersistentVolumeClaimBuilder()
                    .withNewMetadata()
                    .withName(PodOrdinals.claimName(t.getMetadata().getName(), set.getMetadata().getName(), ordinal))
                    .withNamespace(set.getMetadata().getNamespace())
                    .withLabels(labels)
                    .withAnnotations(t.getMetadata().getAnnotations())
                    .endMetadata()
                    .withSpec(t.getSpec());
            if (ownedBySet) {
                b.editMetadata().withOwnerReferences(StatefulSetClaims.setReference(set)).endMetadata();
            }
            out.add(b.build());
        }
        return out;
    }
}
