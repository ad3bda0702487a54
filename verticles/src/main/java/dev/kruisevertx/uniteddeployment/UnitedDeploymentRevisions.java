package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.SubsetTemplate;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHash;
import dev.kruisevertx.revision.RevisionHistory;
import dev.kruisevertx.revision.TemplateRevisions;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ControllerRevisions of a UnitedDeployment as OpenKruise v1.9.0's {@code revision.go} keeps them. Pure.
 *
 * <ul>
 *   <li>data: {@code {"spec":{"template":{<spec.template>, "$patch":"replace"}}}} as canonical JSON;</li>
 *   <li>name {@code <ud>-<hash>} (the UnitedDeployment name cut to 223 characters), hash = Kubernetes'
 *       {@code HashControllerRevision} of the data and the collision count ({@link RevisionHash#controllerHistory});
 *       labels: the template's labels plus {@code controller.kubernetes.io/hash: <hash>}; controlled by the
 *       UnitedDeployment;</li>
 *   <li>the history is the revisions the UnitedDeployment controls whose labels its selector matches, in revision
 *       order; before resolving, the oldest are deleted while more than {@code revisionHistoryLimit} (default 10)
 *       exist, never the current or updated revision the status names;</li>
 *   <li>an existing revision with equal data is the update revision (renumbered to be the newest when it is not,
 *       a rollback); otherwise a new one is created, a name taken by other data bumping the collision count;</li>
 *   <li>the current revision is the one the status names when it is still in the history, else the update
 *       revision.</li>
 * </ul>
 */
public final class UnitedDeploymentRevisions {
    /** Kubernetes' controller history label holding a revision's hash. */
    public static final String HASH_LABEL = "controller.kubernetes.io/hash";
    /** The revision history limit when the spec gives none (the webhook defaults it to the same). */
    public static final int DEFAULT_HISTORY_LIMIT = 10;
    private static final int MAX_PREFIX = 223;

    private UnitedDeploymentRevisions() {
    }

    /**
     * The history after pruning and what to delete to get there.
     *
     * @param kept    the history to resolve the update revision in, oldest first
     * @param expired the revisions to delete, oldest first
     */
    public record Cleaned(List<ControllerRevision> kept, List<ControllerRevision> expired) {
    }

    /** The revisions of {@code ud}: controlled by it and matched by its selector. */
    public static List<ControllerRevision> history(UnitedDeployment ud, List<ControllerRevision> controlled) {
        List<ControllerRevision> out = new ArrayList<>();
        for (ControllerRevision r : controlled) {
            Map<String, String> labels = r.getMetadata().getLabels() == null ? Map.of() : r.getMetadata().getLabels();
            if (ud.spec().getSelector() != null && LabelSelectors.matches(ud.spec().getSelector(), labels)) {
                out.add(r);
            }
        }
        return RevisionData.sorted(out);
    }

    /**
     * OpenKruise's cleanExpiredRevision: with {@code n} revisions over the limit, the first {@code n} of the sorted
     * history are dropped from it, and those of them the status does not name as current or updated are deleted.
     */
    public static Cleaned clean(UnitedDeployment ud, List<ControllerRevision> sorted) {
        int exceed = sorted.size() - limit(ud);
        if (exceed <= 0) {
            return new Cleaned(sorted, List.of());
        }
        Set<String> live = new HashSet<>();
        if (ud.getStatus() != null) {
            live.add(ud.getStatus().getCurrentRevision());
            if (ud.getStatus().getUpdateStatus() != null) {
                live.add(ud.getStatus().getUpdateStatus().getUpdatedRevision());
            }
        }
        List<ControllerRevision> expired = new ArrayList<>();
        for (int i = 0; i < exceed; i++) {
            ControllerRevision r = sorted.get(i);
            if (!live.contains(r.getMetadata().getName())) {
                expired.add(r);
            }
        }
        return new Cleaned(List.copyOf(sorted.subList(exceed, sorted.size())), expired);
    }

    /** The revision history limit: the spec's, or 10; a negative limit keeps none. */
    public static int limit(UnitedDeployment ud) {
        Integer limit = ud.spec().getRevisionHistoryLimit();
        return limit == null ? DEFAULT_HISTORY_LIMIT : Math.max(limit, 0);
    }

    /** The update revision of {@code ud} over its cleaned history. */
    public static TemplateRevisions.Resolution resolve(UnitedDeployment ud, List<ControllerRevision> kept) {
        return TemplateRevisions.resolve(dataOf(ud), kept, collisionCount(ud), builder(ud));
    }

    /** After a 409 on create: the existing revision when it holds the same data, else the next name. */
    public static TemplateRevisions.Resolution afterConflict(UnitedDeployment ud, TemplateRevisions.Resolution refused,
                                                             ControllerRevision existing) {
        return TemplateRevisions.afterConflict(dataOf(ud), refused, existing, builder(ud));
    }

    /** The current revision's name: the status's when still in {@code kept}, else the update revision's. */
    public static String currentRevision(UnitedDeployment ud, List<ControllerRevision> kept, String updateRevision) {
        String named = ud.getStatus() == null ? null : ud.getStatus().getCurrentRevision();
        for (ControllerRevision r : kept) {
            if (r.getMetadata().getName().equals(named)) {
                return named;
            }
        }
        return updateRevision;
    }

    /** The revision data: the whole {@code spec.template}, to be replaced (not merged) when applied. */
    public static JsonNode dataOf(UnitedDeployment ud) {
        SubsetTemplate template = ud.spec().getTemplate();
        ObjectNode t = template == null ? JsonNodeFactory.instance.objectNode()
                : ApiJson.serialization().convertValue(template, ObjectNode.class);
        t.put(RevisionHistory.PATCH_DIRECTIVE, "replace");
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.putObject("spec").set("template", t);
        return RevisionData.sortKeys(data);
    }

    /** The name a revision of {@code data} gets with {@code collisionCount}. */
    public static String name(String udName, JsonNode data, int collisionCount) {
        String prefix = udName.length() > MAX_PREFIX ? udName.substring(0, MAX_PREFIX) : udName;
        return prefix + "-" + RevisionHash.controllerHistory(RevisionData.bytes(data), collisionCount);
    }

    static OwnerReference ownerReference(UnitedDeployment ud) {
        return new OwnerReferenceBuilder().withApiVersion(UnitedDeployment.API_VERSION).withKind(UnitedDeployment.KIND)
                .withName(ud.getMetadata().getName()).withUid(ud.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }

    private static int collisionCount(UnitedDeployment ud) {
        Integer c = ud.getStatus() == null ? null : ud.getStatus().getCollisionCount();
        return c == null ? 0 : c;
    }

    private static TemplateRevisions.Builder builder(UnitedDeployment ud) {
        return (data, collisions, number) -> {
            String name = name(ud.getMetadata().getName(), data, collisions);
            Map<String, String> labels = new LinkedHashMap<>(templateLabels(ud));
            labels.put(HASH_LABEL, name.substring(name.lastIndexOf('-') + 1));
            return new ControllerRevisionBuilder()
                    .withNewMetadata().withName(name).withNamespace(ud.getMetadata().getNamespace())
                    .withLabels(labels).withOwnerReferences(ownerReference(ud)).endMetadata()
                    .withData(ApiJson.serialization().convertValue(data, Object.class))
                    .withRevision(number)
                    .build();
        };
    }

    /**
     * The labels of the template's workload metadata. OpenKruise reads them from the StatefulSet, Advanced
     * StatefulSet or Deployment template only, so its CloneSet-template revisions carry no selector labels and
     * escape its own history listing (never pruned); here the CloneSet template's labels count too.
     */
    static Map<String, String> templateLabels(UnitedDeployment ud) {
        SubsetTemplate t = ud.spec().getTemplate();
        ObjectMeta meta = null;
        if (t != null) {
            if (t.getStatefulSetTemplate() != null) {
                meta = t.getStatefulSetTemplate().getMetadata();
            } else if (t.getAdvancedStatefulSetTemplate() != null) {
                meta = t.getAdvancedStatefulSetTemplate().getMetadata();
            } else if (t.getCloneSetTemplate() != null) {
                meta = t.getCloneSetTemplate().getMetadata();
            } else if (t.getDeploymentTemplate() != null) {
                meta = t.getDeploymentTemplate().getMetadata();
            }
        }
        return meta == null || meta.getLabels() == null ? Map.of() : meta.getLabels();
    }
}
