package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateType;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** New daemon pods from the template (upstream's CreatePodTemplate plus the node placement). Pure. */
final class DaemonSetPods {
    private DaemonSetPods() {
    }

    /**
     * The pod for {@code node} at revision {@code hash}: the template's labels plus {@code controller-revision-hash},
     * the controller ownerReference, the daemon tolerations, the InPlaceUpdateReady gate for InPlaceIfPossible, and
     * either the required node affinity the scheduler binds by ({@code byScheduler}) or {@code nodeName}.
     */
    static Pod forNode(DaemonSet set, String hash, String node, boolean byScheduler) {
        PodTemplateSpec template = new PodTemplateSpecBuilder(set.getSpec().getTemplate()).build();
        ObjectMeta meta = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = new LinkedHashMap<>(meta.getLabels() == null ? Map.of() : meta.getLabels());
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, hash);
        ObjectMeta podMeta = new ObjectMeta();
        podMeta.setGenerateName(set.getMetadata().getName() + "-");
        podMeta.setNamespace(set.getMetadata().getNamespace());
        podMeta.setLabels(labels);
        podMeta.setAnnotations(meta.getAnnotations());
        podMeta.setFinalizers(meta.getFinalizers());
        podMeta.setOwnerReferences(List.of(DaemonSetRevisions.ownerReference(set)));
        PodSpec spec = template.getSpec() == null ? new PodSpec() : template.getSpec();
        DaemonPlacement.addDaemonTolerations(spec);
        if (byScheduler) {
            DaemonPlacement.pinToNode(spec, node);
        } else {
            spec.setNodeName(node);
        }
        var ru = set.getSpec().getUpdateStrategy() == null ? null : set.getSpec().getUpdateStrategy().getRollingUpdate();
        if (ru != null && ru.rollingUpdateTypeValue().orElse(null) == RollingUpdateType.IN_PLACE_IF_POSSIBLE) {
            InPlaceUpdater.injectReadinessGate(spec);
        }
        Pod pod = new Pod();
        pod.setMetadata(podMeta);
        pod.setSpec(spec);
        return pod;
    }
}
