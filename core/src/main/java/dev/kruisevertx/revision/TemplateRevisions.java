package dev.kruisevertx.revision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The update revision of a workload whose ControllerRevisions hold its pod template as Kubernetes' DaemonSet and
 * StatefulSet history keeps them: one per distinct template, data {@code {"spec":{"template":{..., "$patch":
 * "replace"}}}}, named {@code <set>-<hash>}. An existing revision with the same data is reused (and renumbered to be
 * the newest when it is not, which is a rollback); otherwise a new one is named from the hash of the data and the
 * collision count, and a name already taken by a revision with other data bumps the count until the name is free.
 * The kinds differ only in how a new revision is built (its labels). Pure.
 */
public final class TemplateRevisions {
    private TemplateRevisions() {
    }

    /** Builds a kind's new revision of {@code data} for a collision count and revision number. */
    @FunctionalInterface
    public interface Builder {
        ControllerRevision build(JsonNode data, int collisionCount, long number);
    }

    /**
     * @param update         the update revision (as it will exist once {@code toCreate} is created)
     * @param toCreate       a revision to create first, or null
     * @param renumber       an existing revision whose number must become {@code nextNumber} (a rollback), or null
     * @param nextNumber     the number after the newest revision
     * @param collisionCount the collision count to write to status
     */
    public record Resolution(ControllerRevision update, ControllerRevision toCreate, ControllerRevision renumber,
                             long nextNumber, int collisionCount) {
        /** The update revision's hash (see {@link #hashOf}). */
        public String hash() {
            return hashOf(update);
        }
    }

    /**
     * @param data           the template's revision data ({@link #dataOf})
     * @param collisionCount the status's collision count, or null
     */
    public static Resolution resolve(JsonNode data, List<ControllerRevision> history, Integer collisionCount,
                                     Builder builder) {
        List<ControllerRevision> sorted = RevisionData.sorted(history);
        long next = sorted.isEmpty() || sorted.get(sorted.size() - 1).getRevision() == null ? 1
                : sorted.get(sorted.size() - 1).getRevision() + 1;
        int collisions = collisionCount == null ? 0 : collisionCount;
        ControllerRevision equal = null;
        for (ControllerRevision r : sorted) {
            if (GoRevisionData.sameTemplate(r, data)) {
                equal = r;
            }
        }
        if (equal != null) {
            if (equal == sorted.get(sorted.size() - 1)) {
                return new Resolution(equal, null, null, next, collisions);
            }
            ControllerRevision renumbered = new ControllerRevisionBuilder(equal).withRevision(next).build();
            return new Resolution(renumbered, null, equal, next, collisions);
        }
        Set<String> taken = new HashSet<>();
        history.forEach(r -> taken.add(r.getMetadata().getName()));
        ControllerRevision candidate = builder.build(data, collisions, next);
        while (taken.contains(candidate.getMetadata().getName())) {
            collisions++;
            candidate = builder.build(data, collisions, next);
        }
        return new Resolution(candidate, candidate, null, next, collisions);
    }

    /**
     * The resolution after the API refused {@code toCreate} because its name exists: the existing revision when its
     * data is the same (our cache had not seen it yet), else the next free name with the collision count bumped.
     */
    public static Resolution afterConflict(JsonNode data, Resolution refused, ControllerRevision existing,
                                           Builder builder) {
        if (existing != null && GoRevisionData.sameTemplate(existing, data)) {
            return new Resolution(existing, null, null, refused.nextNumber(), refused.collisionCount());
        }
        int collisions = refused.collisionCount() + 1;
        ControllerRevision candidate = builder.build(data, collisions, refused.nextNumber());
        return new Resolution(candidate, candidate, null, refused.nextNumber(), collisions);
    }

    /**
     * A pod template's revision data: {@code {"spec":{"template":{..., "$patch":"replace"}}}} in the form OpenKruise
     * writes ({@link GoRevisionData}).
     */
    public static JsonNode dataOf(PodTemplateSpec template) {
        return GoRevisionData.of(template);
    }

    /**
     * The hash a revision of {@code data} is named by: Kubernetes' {@code HashControllerRevision} of the bytes
     * OpenKruise stores ({@link RevisionHash#of}: a null count adds nothing; OpenKruise always passes one).
     */
    public static String hash(JsonNode data, Integer collisionCount) {
        return RevisionHash.of(GoRevisionData.bytes(data), collisionCount);
    }

    /** Kubernetes' {@code ControllerRevisionName}: the owner's name cut to 223 characters, a dash, the hash. */
    public static String name(String owner, String hash) {
        return (owner.length() > 223 ? owner.substring(0, 223) : owner) + "-" + hash;
    }

    /**
     * A new revision named {@code <setName>-<hash>}, labelled with the set's selector labels and
     * {@code controller-revision-hash: <hashLabel>}.
     */
    public static ControllerRevision build(String setName, String namespace, LabelSelector selector,
                                           OwnerReference owner, JsonNode data, String hash, String hashLabel,
                                           long number) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (selector != null && selector.getMatchLabels() != null) {
            labels.putAll(selector.getMatchLabels());
        }
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, hashLabel);
        return new ControllerRevisionBuilder()
                .withNewMetadata().withName(name(setName, hash)).withNamespace(namespace).withLabels(labels)
                .withOwnerReferences(owner).endMetadata()
                .withData(GoRevisionData.stored(data))
                .withRevision(number)
                .build();
    }

    /** Label Kubernetes' controller history ({@code history.NewControllerRevision}) puts on every revision. */
    public static final String CONTROLLER_HISTORY_HASH_LABEL = "controller.kubernetes.io/hash";

    /**
     * A new revision as Kubernetes' {@code history.NewControllerRevision} builds it and OpenKruise v1.9's CloneSet and
     * Advanced StatefulSet then annotate it: labels are the pod template's labels plus
     * {@value #CONTROLLER_HISTORY_HASH_LABEL}{@code : <hash>}, annotations a copy of the workload's annotations.
     */
    public static ControllerRevision historyRevision(String ownerName, String namespace,
                                                     Map<String, String> templateLabels,
                                                     Map<String, String> ownerAnnotations, OwnerReference owner,
                                                     JsonNode data, String hash, long number) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (templateLabels != null) {
            labels.putAll(templateLabels);
        }
        labels.put(CONTROLLER_HISTORY_HASH_LABEL, hash);
        Map<String, String> annotations = new LinkedHashMap<>();
        if (ownerAnnotations != null) {
            annotations.putAll(ownerAnnotations);
        }
        return new ControllerRevisionBuilder()
                .withNewMetadata().withName(name(ownerName, hash)).withNamespace(namespace).withLabels(labels)
                .withAnnotations(annotations).withOwnerReferences(owner).endMetadata()
                .withData(GoRevisionData.stored(data))
                .withRevision(number)
                .build();
    }

    /** The revision's hash: its {@code controller-revision-hash} label, else what follows the last '-' of its name. */
    public static String hashOf(ControllerRevision r) {
        Map<String, String> labels = r.getMetadata().getLabels();
        String label = labels == null ? null : labels.get(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
        if (label != null && !label.isEmpty()) {
            return label;
        }
        String name = r.getMetadata().getName();
        return name.substring(name.lastIndexOf('-') + 1);
    }
}
