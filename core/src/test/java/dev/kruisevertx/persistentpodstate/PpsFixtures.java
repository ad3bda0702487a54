package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateSpec;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Objects for the PersistentPodState tables: OpenKruise's test shapes (zone required, hostname preferred). */
final class PpsFixtures {
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String HOST = "kubernetes.io/hostname";

    private PpsFixtures() {
    }

    static PersistentPodState pps(String name, List<String> required, List<String> preferred,
                                  List<String> annotationKeys, String retention) {
        PersistentPodState pps = new PersistentPodState();
        pps.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").withGeneration(1L).build());
        PersistentPodStateSpec spec = new PersistentPodStateSpec();
        spec.setTargetReference(new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "web"));
        if (required != null) {
            spec.setRequiredPersistentTopology(new NodeTopologyTerm(required));
        }
        if (preferred != null) {
            spec.setPreferredPersistentTopology(List.of(new PreferredTopologyTerm(100, new NodeTopologyTerm(preferred))));
        }
        if (annotationKeys != null) {
            List<PersistentPodAnnotation> keys = new ArrayList<>();
            annotationKeys.forEach(k -> keys.add(new PersistentPodAnnotation(k)));
            spec.setPersistentPodAnnotations(keys);
        }
        spec.setPersistentPodStateRetentionPolicy(retention);
        pps.setSpec(spec);
        return pps;
    }

    static PodState state(String node, Map<String, String> labels, Map<String, String> annotations) {
        return new PodState(node, labels, annotations);
    }

    static Pod pod(String name, String node, boolean ready, Map<String, String> annotations) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default")
                .withAnnotations(annotations).endMetadata()
                .withNewSpec().withNodeName(node).endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready")
                .withStatus(ready ? "True" : "False").endCondition().endStatus().build();
    }
}
