package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHash;
import dev.kruisevertx.revision.RevisionHistory;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ControllerRevisions of a SidecarSet as OpenKruise v1.9 keeps them: in the manager's namespace (a SidecarSet is
 * cluster-scoped), labelled {@code kruise.io/sidecarset-name} (and {@code apps.kruise.io/sidecarset-custom-version}
 * from {@code spec.customVersion}), carrying the SidecarSet's labels and annotations (so its hashes), owned by the
 * SidecarSet, data {@code {"spec":{"$patch":"replace", containers, imagePullSecrets, initContainers,
 * patchPodMetadata, volumes}}}, named {@code <sidecarset>-<hash>}. The newest revision with the SidecarSet's data is
 * the latest; an older equal one is renumbered (a rollback); otherwise a new one is created. Pure.
 */
final class SidecarSetRevisions {
    static final String NAME_LABEL = "kruise.io/sidecarset-name";
    static final List<String> RECORDED_FIELDS = List.of("containers", "imagePullSecrets", "initContainers",
            "patchPodMetadata", "volumes");

    private SidecarSetRevisions() {
    }

    /**
     * @param latest         the latest revision (as it will exist once created or renumbered)
     * @param toCreate       a revision to create first, or null
     * @param renumber       an existing revision whose number must become {@code latest}'s, or null
     * @param customVersion  the custom-version label value to set on {@code latest} when it lacks it, or null
     * @param collisionCount the collision count for the status
     * @param history        every revision after the change, oldest first
     */
    record Resolution(ControllerRevision latest, ControllerRevision toCreate, ControllerRevision renumber,
                      String customVersion, int collisionCount, List<ControllerRevision> history) {
    }

    static Resolution resolve(SidecarSet set, List<ControllerRevision> existing, String namespace) {
        JsonNode data = dataOf(set);
        List<ControllerRevision> sorted = RevisionData.sorted(existing);
        long next = sorted.isEmpty() || sorted.get(sorted.size() - 1).getRevision() == null ? 1
                : sorted.get(sorted.size() - 1).getRevision() + 1;
        int collisions = set.getStatus() == null || set.getStatus().getCollisionCount() == null ? 0
                : set.getStatus().getCollisionCount();
        ControllerRevision equal = null;
        for (ControllerRevision r : sorted) {
            if (RevisionData.sameData(r, data)) {
                equal = r;
            }
        }
        ControllerRevision latest;
        ControllerRevision toCreate = null;
        ControllerRevision renumber = null;
        List<ControllerRevision> history = new ArrayList<>(sorted);
        if (equal != null && equal == sorted.get(sorted.size() - 1)) {
            latest = equal;
        } else if (equal != null) {
            renumber = equal;
            latest = new ControllerRevisionBuilder(equal).withRevision(next).build();
            history.remove(equal);
            history.add(latest);
        } else {
            Set<String> taken = new HashSet<>();
            existing.forEach(r -> taken.add(r.getMetadata().getName()));
            latest = build(set, data, collisions, next, namespace);
            while (taken.contains(latest.getMetadata().getName())) {
                collisions++;
                latest = build(set, data, collisions, next, namespace);
            }
            toCreate = latest;
            history.add(latest);
        }
        String custom = set.getSpec().getCustomVersion();
        Map<String, String> labels = latest.getMetadata().getLabels();
        String wanted = custom != null && !custom.isEmpty()
                && (labels == null || !custom.equals(labels.get(SidecarSet.CUSTOM_VERSION_LABEL))) ? custom : null;
        return new Resolution(latest, toCreate, renumber, wanted, collisions, List.copyOf(history));
    }

    /** After a 409 on create: the existing revision when it holds the same data, else the next name. */
    static Resolution afterConflict(SidecarSet set, Resolution refused, ControllerRevision existing, String namespace) {
        JsonNode data = dataOf(set);
        List<ControllerRevision> history = new ArrayList<>(refused.history());
        history.remove(refused.toCreate());
        if (existing != null && RevisionData.sameData(existing, data)) {
            history.add(existing);
            return new Resolution(existing, null, null, refused.customVersion(), refused.collisionCount(),
                    List.copyOf(history));
        }
        int collisions = refused.collisionCount() + 1;
        ControllerRevision candidate = build(set, data, collisions, refused.toCreate().getRevision(), namespace);
        history.add(candidate);
        return new Resolution(candidate, candidate, null, refused.customVersion(), collisions, List.copyOf(history));
    }

    /** The revision data: the recorded spec fields (absent ones as null, as Go writes them) under {@code $patch: replace}. */
    static JsonNode dataOf(SidecarSet set) {
        ObjectNode spec = ApiJson.serialization().convertValue(set.getSpec(), ObjectNode.class);
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        copy.put(RevisionHistory.PATCH_DIRECTIVE, "replace");
        for (String field : RECORDED_FIELDS) {
            copy.set(field, spec.has(field) ? spec.get(field) : JsonNodeFactory.instance.nullNode());
        }
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.set("spec", copy);
        return RevisionData.sortKeys(data);
    }

    private static ControllerRevision build(SidecarSet set, JsonNode data, int collisions, long number, String namespace) {
        String hash = RevisionHash.of(RevisionData.bytes(data), collisions);
        Map<String, String> labels = new LinkedHashMap<>();
        if (set.getMetadata().getLabels() != null) {
            labels.putAll(set.getMetadata().getLabels());
        }
        String custom = set.getSpec().getCustomVersion();
        if (custom != null && !custom.isEmpty()) {
            labels.put(SidecarSet.CUSTOM_VERSION_LABEL, custom);
        }
        labels.put(NAME_LABEL, set.getMetadata().getName());
        Map<String, String> annotations = set.getMetadata().getAnnotations() == null ? Map.of()
                : new LinkedHashMap<>(set.getMetadata().getAnnotations());
        return new ControllerRevisionBuilder()
                .withNewMetadata().withName(set.getMetadata().getName() + "-" + hash).withNamespace(namespace)
                .withLabels(labels).withAnnotations(annotations)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(SidecarSet.API_VERSION)
                        .withKind(SidecarSet.KIND).withName(set.getMetadata().getName())
                        .withUid(set.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build())
                .endMetadata()
                .withData(ApiJson.serialization().convertValue(data, Object.class))
                .withRevision(number)
                .build();
    }

    /**
     * OpenKruise's truncateHistory: beyond {@code revisionHistoryLimit} (default 10, at least 1), delete the oldest
     * revisions no pod records (its hash annotation's {@code controllerRevision}) and the injection strategy does not
     * name; the latest (last) is never deleted.
     */
    static List<ControllerRevision> toPrune(SidecarSet set, List<ControllerRevision> history, List<Pod> pods) {
        int limit = set.getSpec().getRevisionHistoryLimit() == null ? 10
                : Math.max(1, set.getSpec().getRevisionHistoryLimit());
        if (history.size() <= limit) {
            return List.of();
        }
        Set<String> active = new HashSet<>();
        for (Pod pod : pods) {
            String r = SidecarPodState.controllerRevision(pod, set.getMetadata().getName());
            if (!r.isEmpty()) {
                active.add(r);
            }
        }
        var injection = set.getSpec().getInjectionStrategy();
        if (injection != null && injection.getRevision() != null) {
            if (injection.getRevision().getRevisionName() != null) {
                active.add(injection.getRevision().getRevisionName());
            }
            String custom = injection.getRevision().getCustomVersion();
            if (custom != null) {
                ControllerRevision newest = null;
                for (ControllerRevision r : history) {
                    Map<String, String> l = r.getMetadata().getLabels();
                    if (l != null && custom.equals(l.get(SidecarSet.CUSTOM_VERSION_LABEL))) {
                        newest = r;
                    }
                }
                if (newest != null) {
                    active.add(newest.getMetadata().getName());
                }
            }
        }
        int toDelete = history.size() - limit;
        List<ControllerRevision> out = new ArrayList<>();
        for (int i = 0; i < history.size() - 1 && toDelete > 0; i++) {
            if (!active.contains(history.get(i).getMetadata().getName())) {
                out.add(history.get(i));
                toDelete--;
            }
        }
        return out;
    }
}
