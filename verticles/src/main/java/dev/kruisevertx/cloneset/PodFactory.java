package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.lifecycle.Lifecycles;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Builds the pods and PVCs of a CloneSet instance, as OpenKruise does: pod {@code <cloneset>-<id>} with the
 * instance-id label, revision labels, the controller ownerReference and the {@code InPlaceUpdateReady}
 * readiness gate; one PVC {@code <template>-<cloneset>-<id>} per volumeClaimTemplate, mounted in place of the
 * template volume of the same name.
 */
public final class PodFactory {
    /** Length of an instance id, the random suffix of pod names. */
    public static final int INSTANCE_ID_LENGTH = 5;
    // Kubernetes' rand.String alphabet: no vowels, no look-alike characters.
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private PodFactory() {
    }

    /** A random instance id that is not in {@code taken}. */
    public static String newInstanceId(Random random, Set<String> taken) {
        while (true) {
            StringBuilder sb = new StringBuilder(INSTANCE_ID_LENGTH);
            for (int i = 0; i < INSTANCE_ID_LENGTH; i++) {
                sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            String id = sb.toString();
            if (!taken.contains(id)) {
                return id;
            }
        }
    }

    /**
     * The revision label value written on pods: the revision name, or only its hash with CloneSetShortHash.
     */
    public static String revisionLabelValue(String revisionName, boolean shortHash) {
        return shortHash ? Pods.shortHash(revisionName) : revisionName;
    }

    /**
     * A new pod of {@code cs} from {@code template} at {@code revisionName}.
     *
     * @param lifecycleState the initial lifecycle state (Normal, or PreparingNormal with a preNormal hook)
     */
    public static Pod newPod(CloneSet cs, PodTemplateSpec template, String revisionName, String instanceId,
                             boolean shortHash, LifecycleState lifecycleState, Instant now) {
        String csName = cs.getMetadata().getName();
        ObjectMeta tm = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = new HashMap<>(tm.getLabels() == null ? Map.of() : tm.getLabels());
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revisionLabelValue(revisionName, shortHash));
        labels.put(WellKnown.POD_TEMPLATE_HASH_LABEL, Pods.shortHash(revisionName));
        labels.put(WellKnown.CLONESET_INSTANCE_ID_LABEL, instanceId);
        PodSpec spec = template.getSpec() == null ? new PodSpec() : new PodBuilder().withSpec(template.getSpec()).build().getSpec();
        PodBuilder pod = new PodBuilder().withNewMetadata()
                .withName(csName + "-" + instanceId)
                .withGenerateName(csName + "-")
                .withNamespace(cs.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(tm.getAnnotations() == null ? null : new HashMap<>(tm.getAnnotations()))
                .withFinalizers(tm.getFinalizers() == null ? null : new ArrayList<>(tm.getFinalizers()))
                .withOwnerReferences(CloneSetRevisions.ownerReference(cs))
                .endMetadata()
                .withSpec(spec);
        Pod built = pod.build();
        Lifecycles.setState(built.getMetadata(), lifecycleState, now);
        InPlaceUpdater.injectReadinessGate(built.getSpec());
        mountClaims(cs, built.getSpec(), instanceId);
        return built;
    }

    private static void mountClaims(CloneSet cs, PodSpec spec, String instanceId) {
        List<PersistentVolumeClaim> templates = cs.getSpec().getVolumeClaimTemplates();
        if (templates == null || templates.isEmpty()) {
            return;
        }
        List<Volume> volumes = new ArrayList<>();
        if (spec.getVolumes() != null) {
            for (Volume v : spec.getVolumes()) {
                boolean replaced = templates.stream().anyMatch(t -> t.getMetadata().getName().equals(v.getName()));
                if (!replaced) {
                    volumes.add(v);
                }
            }
        }
        for (PersistentVolumeClaim t : templates) {
            volumes.add(new VolumeBuilder().withName(t.getMetadata().getName()).withNewPersistentVolumeClaim()
                    .withClaimName(claimName(cs, t, instanceId)).endPersistentVolumeClaim().build());
        }
        spec.setVolumes(volumes);
    }

    public static String claimName(CloneSet cs, PersistentVolumeClaim template, String instanceId) {
        return template.getMetadata().getName() + "-" + cs.getMetadata().getName() + "-" + instanceId;
    }

    /** The PVCs of one instance. */
    public static List<PersistentVolumeClaim> claims(CloneSet cs, String instanceId) {
        List<PersistentVolumeClaim> templates = cs.getSpec().getVolumeClaimTemplates();
        if (templates == null) {
            return List.of();
        }
        List<PersistentVolumeClaim> out = new ArrayList<>();
        for (PersistentVolumeClaim t : templates) {
            Map<String, String> labels = new HashMap<>(t.getMetadata().getLabels() == null ? Map.of() : t.getMetadata().getLabels());
            if (cs.getSpec().getSelector() != null && cs.getSpec().getSelector().getMatchLabels() != null) {
                labels.putAll(cs.getSpec().getSelector().getMatchLabels());
            }
            labels.put(WellKnown.CLONESET_INSTANCE_ID_LABEL, instanceId);
            out.add(new PersistentVolumeClaimBuilder(t).editMetadata()
                    .withName(claimName(cs, t, instanceId))
                    .withNamespace(cs.getMetadata().getNamespace())
                    .withLabels(labels)
                    .withResourceVersion(null).withUid(null).withCreationTimestamp(null)
                    .withOwnerReferences(CloneSetRevisions.ownerReference(cs))
                    .endMetadata().withStatus(null).build());
        }
        return out;
    }
}
