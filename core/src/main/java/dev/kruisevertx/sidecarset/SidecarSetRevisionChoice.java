package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectionStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetSpec;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * Which revision of a SidecarSet a pod being created gets (OpenKruise v1.9's {@code getSuitableRevisionSidecarSet}
 * for CREATE): without {@code injectionStrategy.revision} the SidecarSet as it is; otherwise the pinned revision
 * ({@code revisionName}, or the newest revision carrying the {@code customVersion} label), restored from its
 * ControllerRevision, when the update strategy is paused or the policy is Always; with policy Partial a pod outside
 * {@code updateStrategy.selector} gets the pinned revision, and one inside it gets the pinned revision with the
 * probability of a percent {@code partition} (an integer or no partition: the latest). A pinned revision that does
 * not exist refuses the pod, as in OpenKruise.
 */
public final class SidecarSetRevisionChoice {
    /** Label naming the SidecarSet a ControllerRevision belongs to. */
    public static final String REVISION_OWNER_LABEL = "kruise.io/sidecarset-name";

    /** The ControllerRevisions of SidecarSets (in the kruise namespace), from an in-memory cache. */
    public interface Revisions {
        Optional<ControllerRevision> byName(String name);

        /** The revisions labelled {@code kruise.io/sidecarset-name=<set>}. */
        List<ControllerRevision> of(String sidecarSetName);
    }

    /** A pinned revision that cannot be found: the pod is refused (OpenKruise answers 500 with this text). */
    public static final class MissingRevision extends RuntimeException {
        public MissingRevision(String message) {
            super(message);
        }
    }

    private SidecarSetRevisionChoice() {
    }

    public static SidecarSet forCreate(SidecarSet set, Pod pod, Revisions revisions, DoubleSupplier random) {
        SidecarSetInjectionStrategy injection = set.getSpec().getInjectionStrategy();
        SidecarSetInjectRevision pinned = injection == null ? null : injection.getRevision();
        if (pinned == null || (pinned.getRevisionName() == null && pinned.getCustomVersion() == null)) {
            return set;
        }
        SidecarSet specific = restore(set, find(set, pinned, revisions));
        SidecarSetUpdateStrategy update = set.getSpec().getUpdateStrategy();
        if (update != null && Boolean.TRUE.equals(update.getPaused())) {
            return specific;
        }
        if (!"Partial".equals(pinned.getPolicy())) {
            return specific;
        }
        if (update != null && update.getSelector() != null) {
            Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
            if (!LabelSelectors.matches(update.getSelector(), labels)) {
                return specific;
            }
        }
        IntOrString partition = update == null ? null : update.getPartition();
        if (partition == null || partition.getStrVal() == null) {
            return set;
        }
        String percent = partition.getStrVal();
        if (!percent.endsWith("%")) {
            throw new IllegalArgumentException("invalid type: string is not a percentage");
        }
        double probability = Double.parseDouble(percent.substring(0, percent.length() - 1)) / 100;
        return random.getAsDouble() <= probability ? specific : set;
    }

    private static ControllerRevision find(SidecarSet set, SidecarSetInjectRevision pinned, Revisions revisions) {
        if (pinned.getRevisionName() != null) {
            return revisions.byName(pinned.getRevisionName()).orElseThrow(() -> new MissingRevision(
                    "controllerrevisions.apps \"" + pinned.getRevisionName() + "\" not found"));
        }
        return revisions.of(set.getMetadata().getName()).stream()
                .filter(r -> r.getMetadata().getLabels() != null && pinned.getCustomVersion()
                        .equals(r.getMetadata().getLabels().get(SidecarSet.CUSTOM_VERSION_LABEL)))
                .max(ORDER)
                .orElseThrow(() -> new MissingRevision("ControllerRevision.apps \"" + set.getMetadata().getName()
                        + "\" not found"));
    }

    /** Kubernetes' history order: revision number, then creation time, then name. */
    static final Comparator<ControllerRevision> ORDER = Comparator
            .comparing((ControllerRevision r) -> r.getRevision() == null ? 0L : r.getRevision())
            .thenComparing(r -> r.getMetadata().getCreationTimestamp() == null ? ""
                    : r.getMetadata().getCreationTimestamp())
            .thenComparing(r -> r.getMetadata().getName());

    /**
     * The SidecarSet as a revision recorded it. OpenKruise records {@code {"spec": {"$patch": "replace", volumes,
     * containers, initContainers, imagePullSecrets, patchPodMetadata}}} and applies it as a strategic merge patch,
     * so the restored spec holds those fields only; the hashes come from the revision's annotations (computed when
     * absent) and {@code status.latestRevision} is the revision's name.
     */
    public static SidecarSet restore(SidecarSet set, ControllerRevision revision) {
        ObjectNode whole = ApiJson.serialization().convertValue(set, ObjectNode.class);
        JsonNode data = revision.getData() == null ? null
                : ApiJson.serialization().convertValue(revision.getData(), JsonNode.class);
        JsonNode patch = data == null ? null : data.get("spec");
        if (patch instanceof ObjectNode p) {
            ObjectNode spec = "replace".equals(p.path("$patch").asText()) || !(whole.get("spec") instanceof ObjectNode)
                    ? whole.objectNode() : (ObjectNode) whole.get("spec");
            p.fields().forEachRemaining(e -> {
                if (e.getKey().equals("$patch")) {
                    return;
                }
                if (e.getValue().isNull()) {
                    spec.remove(e.getKey());
                } else {
                    spec.set(e.getKey(), e.getValue());
                }
            });
            whole.set("spec", spec);
        }
        whole.remove("status");
        SidecarSet restored = ApiJson.serialization().convertValue(whole, SidecarSet.class);
        if (restored.getSpec() == null) {
            restored.setSpec(new SidecarSetSpec());
        }
        Map<String, String> annotations = restored.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(restored.getMetadata().getAnnotations());
        Map<String, String> recorded = revision.getMetadata().getAnnotations() == null ? Map.of()
                : revision.getMetadata().getAnnotations();
        String hash = recorded.get(SidecarSetHash.HASH_ANNOTATION);
        annotations.put(SidecarSetHash.HASH_ANNOTATION, hash == null || hash.isEmpty()
                ? SidecarSetHash.of(restored) : hash);
        String withoutImage = recorded.get(SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION);
        annotations.put(SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION, withoutImage == null || withoutImage.isEmpty()
                ? SidecarSetHash.withoutImage(restored) : withoutImage);
        restored.getMetadata().setAnnotations(annotations);
        SidecarSetStatus status = new SidecarSetStatus();
        status.setLatestRevision(revision.getMetadata().getName());
        restored.setStatus(status);
        return restored;
    }
}
