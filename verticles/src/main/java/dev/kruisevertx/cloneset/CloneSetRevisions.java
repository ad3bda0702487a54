package dev.kruisevertx.cloneset;

import dev.kruisevertx.revision.GoRevisionData;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHash;
import dev.kruisevertx.revision.RevisionHistory;
import dev.kruisevertx.revision.TemplateRevisions;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.List;
import java.util.Set;

/**
 * ControllerRevisions of a CloneSet: one per pod template, named {@code <cloneset>-<hash>}, holding the patch
 * {@code {"spec":{"template":{..., "$patch":"replace"}}}} as OpenKruise stores it. Revisions whose data equals
 * the current template (after dropping empty and null fields, so revisions written by OpenKruise's Go serializer
 * are recognised) are reused instead of duplicated.
 */
public final class CloneSetRevisions {
    /** Label Kubernetes' controller history puts on a revision. */
    public static final String HASH_LABEL = "controller.kubernetes.io/hash";

    private static final ObjectMapper SORTED = RevisionData.SORTED;

    private CloneSetRevisions() {
    }

    /**
     * The revision data of the CloneSet's current template as OpenKruise v1.9 builds it ({@link GoRevisionData}),
     * keys sorted.
     */
    public static JsonNode patchOf(CloneSet cs) {
        return sortKeys(GoRevisionData.of(cs.getSpec().getTemplate()));
    }

    /** The bytes OpenKruise stores and hashes for {@code data}. */
    public static byte[] bytes(JsonNode data) {
        return GoRevisionData.bytes(data);
    }

    /**
     * A new revision object (not yet created) of the CloneSet's current template, named as OpenKruise names it:
     * Kubernetes' {@code HashControllerRevision} of the data with the collision count (0 when status has none), the
     * CloneSet's name cut to 223 characters.
     */
    public static ControllerRevision newRevision(CloneSet cs, long revisionNumber, Integer collisionCount) {
        JsonNode data = patchOf(cs);
        String hash = RevisionHash.of(bytes(data), collisionCount == null ? 0 : collisionCount);
        PodTemplateSpec template = cs.getSpec().getTemplate();
        ControllerRevision r = TemplateRevisions.historyRevision(cs.getMetadata().getName(),
                cs.getMetadata().getNamespace(), template.getMetadata() == null ? null
                        : template.getMetadata().getLabels(), cs.getMetadata().getAnnotations(), ownerReference(cs),
                data, hash, revisionNumber);
        if (cs.getSpec().getVolumeClaimTemplates() == null || cs.getSpec().getVolumeClaimTemplates().isEmpty()) {
            // OpenKruise writes an empty hash when there are no volumeClaimTemplates. With templates its value is an
            // FNV hash of go-spew's print of the PVC list in Go's struct-ordered JSON, not reproduced here: the
            // annotation is left out, and OpenKruise treats a revision without it as compatible with any other.
            r.getMetadata().getAnnotations().put(WellKnown.CLONESET_VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION, "");
        }
        return r;
    }

    public static OwnerReference ownerReference(CloneSet cs) {
        return new OwnerReferenceBuilder().withApiVersion(CloneSet.API_VERSION).withKind(CloneSet.KIND)
                .withName(cs.getMetadata().getName()).withUid(cs.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }

    /** Whether a revision holds the same template, read as Go reads it and ignoring null and empty fields. */
    public static boolean sameData(ControllerRevision revision, JsonNode data) {
        return GoRevisionData.sameTemplate(revision, data);
    }

    /** The pod template stored in a revision. */
    public static PodTemplateSpec templateOf(ControllerRevision revision) {
        return RevisionHistory.templateOf(revision);
    }

    /** Revisions in ascending revision number (name breaks ties so the order is total). */
    public static List<ControllerRevision> sorted(List<ControllerRevision> revisions) {
        return RevisionData.sorted(revisions);
    }

    /**
     * Old revisions to delete so that at most {@code limit} non-live revisions remain; live ones (the current and
     * update revisions and any revision a pod is at) are never pruned. Oldest go first.
     */
    public static List<ControllerRevision> toPrune(List<ControllerRevision> revisions, Set<String> live, int limit) {
        // OpenKruise's CloneSet rule: a revision is live by name, or when a pod's revision label (long or short
        // form) names it; oldest by revision number (then name) go first.
        return RevisionHistory.toPrune(sorted(revisions), r -> live.contains(r.getMetadata().getName())
                || live.contains(hashLabel(r)), limit);
    }

    private static String hashLabel(ControllerRevision r) {
        return r.getMetadata().getLabels() == null ? null : r.getMetadata().getLabels().get(HASH_LABEL);
    }

    private static JsonNode sortKeys(JsonNode node) {
        return RevisionData.sortKeys(node);
    }

}
