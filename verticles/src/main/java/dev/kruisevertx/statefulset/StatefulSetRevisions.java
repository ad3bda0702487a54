package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.RevisionHash;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ControllerRevisions of an Advanced StatefulSet: one per distinct pod template, named {@code <set>-<hash>}, data
 * {@code {"spec":{"template":{..., "$patch":"replace"}}}} as Kubernetes' StatefulSet stores it, labelled with the
 * set's selector labels and {@code controller-revision-hash}.
 */
final class StatefulSetRevisions {

    private StatefulSetRevisions() {
    }

    /** The revision the current template maps to, and whether it must be created. */
    record Resolution(ControllerRevision update, ControllerRevision toCreate) {
    }

    static Resolution resolve(StatefulSet set, List<ControllerRevision> history) {
        JsonNode data = dataOf(set.getSpec().getTemplate());
        Integer collisions = set.getStatus() == null ? null : set.getStatus().getCollisionCount();
        String name = set.getMetadata().getName() + "-" + hash(data, collisions);
        for (ControllerRevision r : history) {
            if (r.getMetadata().getName().equals(name)) {
                return new Resolution(r, null);
            }
        }
        long next = history.stream().mapToLong(r -> r.getRevision() == null ? 0 : r.getRevision()).max().orElse(0) + 1;
        Map<String, String> labels = new java.util.LinkedHashMap<>();
        if (set.getSpec().getSelector() != null && set.getSpec().getSelector().getMatchLabels() != null) {
            labels.putAll(set.getSpec().getSelector().getMatchLabels());
        }
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, name);
        ControllerRevision r = new ControllerRevisionBuilder()
                .withNewMetadata().withName(name).withNamespace(set.getMetadata().getNamespace()).withLabels(labels)
                .withOwnerReferences(ownerReference(set)).endMetadata()
                .withData(ApiJson.serialization().convertValue(data, Object.class))
                .withRevision(next)
                .build();
        return new Resolution(r, r);
    }

    static JsonNode dataOf(PodTemplateSpec template) {
        ObjectNode t = ApiJson.serialization().convertValue(template, ObjectNode.class);
        t.put("$patch", "replace");
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.putObject("spec").set("template", t);
        return data;
    }

    static String hash(JsonNode data, Integer collisionCount) {
        return RevisionHash.of(data.toString().getBytes(StandardCharsets.UTF_8), collisionCount);
    }

    /** Revisions beyond revisionHistoryLimit that no pod and neither status revision uses, oldest first. */
    static List<ControllerRevision> toPrune(List<ControllerRevision> history, Set<String> live, int limit) {
        List<ControllerRevision> candidates = history.stream().filter(r -> !live.contains(r.getMetadata().getName()))
                .sorted(Comparator.comparingLong(r -> r.getRevision() == null ? 0 : r.getRevision())).toList();
        int excess = candidates.size() - Math.max(limit, 0);
        return excess <= 0 ? List.of() : candidates.subList(0, excess);
    }

    static OwnerReference ownerReference(StatefulSet set) {
        return new OwnerReferenceBuilder().withApiVersion(StatefulSet.API_VERSION).withKind(StatefulSet.KIND)
                .withName(set.getMetadata().getName()).withUid(set.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }
}
