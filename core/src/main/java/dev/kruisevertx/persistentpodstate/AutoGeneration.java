package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodStateSpec;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The PersistentPodState a workload's annotations ask for (OpenKruise's autoGeneratePersistentPodState): with
 * {@code kruise.io/auto-generate-persistent-pod-state: "true"} and a required or preferred topology annotation, one
 * named after the workload, controlled by it, targeting it, with the required keys, one weight-100 preferred term
 * and the persistent annotation keys (each annotation split at ','); created when missing, its spec replaced when it
 * differs. Without {@code "true"} the generated one is deleted.
 */
public final class AutoGeneration {
    /** Request names carrying a workload instead of a PersistentPodState: {@code generate#apiVersion#kind#name}. */
    public static final String REQUEST_PREFIX = "generate#";

    private AutoGeneration() {
    }

    public enum Action { NONE, CREATE, UPDATE, DELETE }

    /** What to do; {@code desired} is set for CREATE and UPDATE. */
    public record Decision(Action action, PersistentPodState desired, String reason) {
    }

    /** The request name for a workload's generation pass. */
    public static String requestName(String apiVersion, String kind, String name) {
        return REQUEST_PREFIX + apiVersion + "#" + kind + "#" + name;
    }

    /** apiVersion, kind and name of a generation request name; null when it is not one. */
    public static TargetReference parseRequestName(String requestName) {
        if (requestName == null || !requestName.startsWith(REQUEST_PREFIX)) {
            return null;
        }
        String[] parts = requestName.split("#", -1);
        return parts.length == 4 ? new TargetReference(parts[1], parts[2], parts[3]) : null;
    }

    /** Whether a workload's annotations ask for a generated PersistentPodState (the create-event filter). */
    public static boolean wanted(HasMetadata workload) {
        Map<String, String> a = Pods.annotations(workload);
        return "true".equals(a.get(PersistentPodState.AUTO_GENERATE_ANNOTATION))
                && (!a.getOrDefault(PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "").isEmpty()
                || !a.getOrDefault(PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION, "").isEmpty());
    }

    /** Whether an update changed one of the annotations generation reads (the update-event filter). */
    public static boolean annotationsChanged(HasMetadata before, HasMetadata after) {
        Map<String, String> a = Pods.annotations(before);
        Map<String, String> b = Pods.annotations(after);
        for (String key : List.of(PersistentPodState.AUTO_GENERATE_ANNOTATION,
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION,
                PersistentPodState.PERSISTENT_POD_ANNOTATIONS_ANNOTATION)) {
            if (!Objects.equals(a.get(key), b.get(key))) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param workload the workload (null when it does not exist: nothing to do, its generated object is collected
     *                 through its owner reference)
     * @param existing the PersistentPodState named after the workload, or null
     */
    public static Decision decide(HasMetadata workload, String apiVersion, String kind, PersistentPodState existing) {
        if (workload == null) {
            return new Decision(Action.NONE, null, "workload not found");
        }
        Map<String, String> a = Pods.annotations(workload);
        if ("true".equals(a.get(PersistentPodState.AUTO_GENERATE_ANNOTATION))) {
            if (a.getOrDefault(PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "").isEmpty()
                    && a.getOrDefault(PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION, "").isEmpty()) {
                return new Decision(Action.NONE, null, "annotations incomplete: neither "
                        + PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION + " nor "
                        + PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION);
            }
            PersistentPodState desired = generated(workload, apiVersion, kind);
            if (existing == null) {
                return new Decision(Action.CREATE, desired, "generated from the workload's annotations");
            }
            if (Objects.equals(existing.getSpec(), desired.getSpec())) {
                return new Decision(Action.NONE, null, "generated spec up to date");
            }
            return new Decision(Action.UPDATE, desired, "workload annotations changed");
        }
        if (existing == null) {
            return new Decision(Action.NONE, null, "not asked for");
        }
        if (!Pods.isControlledBy(existing, workload.getMetadata().getUid())) {
            // OpenKruise deletes any same-named one; one the workload does not control was made by hand: kept.
            return new Decision(Action.NONE, null, "same-named PersistentPodState not generated by the workload: kept");
        }
        return new Decision(Action.DELETE, null, PersistentPodState.AUTO_GENERATE_ANNOTATION + " is not \"true\"");
    }

    /** The generated object (OpenKruise's newStatefulSetPersistentPodState). */
    static PersistentPodState generated(HasMetadata workload, String apiVersion, String kind) {
        Map<String, String> a = Pods.annotations(workload);
        String name = workload.getMetadata().getName();
        PersistentPodState pps = new PersistentPodState();
        pps.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(workload.getMetadata().getNamespace())
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind)
                        .withName(name).withUid(workload.getMetadata().getUid()).withController(true).build())
                .build());
        PersistentPodStateSpec spec = new PersistentPodStateSpec();
        spec.setTargetReference(new TargetReference(apiVersion, kind, name));
        String required = a.getOrDefault(PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "");
        if (!required.isEmpty()) {
            spec.setRequiredPersistentTopology(new NodeTopologyTerm(split(required)));
        }
        String annotations = a.getOrDefault(PersistentPodState.PERSISTENT_POD_ANNOTATIONS_ANNOTATION, "");
        if (!annotations.isEmpty()) {
            List<PersistentPodAnnotation> keys = new ArrayList<>();
            for (String key : split(annotations)) {
                keys.add(new PersistentPodAnnotation(key));
            }
            spec.setPersistentPodAnnotations(keys);
        }
        String preferred = a.getOrDefault(PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION, "");
        if (!preferred.isEmpty()) {
            spec.setPreferredPersistentTopology(List.of(new PreferredTopologyTerm(100,
                    new NodeTopologyTerm(split(preferred)))));
        }
        pps.setSpec(spec);
        return pps;
    }

    /** Go's strings.Split: every ',' separates, empty parts kept. */
    private static List<String> split(String value) {
        return Arrays.asList(value.split(",", -1));
    }
}
