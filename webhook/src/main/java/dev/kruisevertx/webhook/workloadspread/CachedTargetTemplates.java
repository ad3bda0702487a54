package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.cache.WatchCache;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;

import java.util.List;
import java.util.function.BiFunction;

/**
 * The pod template of a WorkloadSpread's built-in target (CloneSet, Deployment, ReplicaSet, Job, StatefulSet of
 * apps or apps.kruise.io) from the shared watch cache, for the subset patch check; a CloneSet's or StatefulSet's
 * volumeClaimTemplates become volumes of the template, as OpenKruise adds them. Null for a workload the cache does
 * not hold and for custom kinds (OpenKruise checks no patch against those). One cached get and one template copy:
 * fine on the event loop.
 */
public final class CachedTargetTemplates implements BiFunction<String, TargetReference, JsonNode> {
    private final WatchCache cache;

    public CachedTargetTemplates(WatchCache cache) {
        this.cache = cache;
    }

    @Override
    public JsonNode apply(String namespace, TargetReference ref) {
        if (ref == null || ref.getKind() == null || ref.getName() == null) {
            return null;
        }
        String key = ref.group() + "/" + ref.getKind();
        return switch (key) {
            case "apps.kruise.io/CloneSet" -> {
                CloneSet cs = cache.resource(CloneSet.class).get(namespace, ref.getName());
                yield cs == null || cs.getSpec() == null ? null
                        : template(cs.getSpec().getTemplate(), cs.getSpec().getVolumeClaimTemplates());
            }
            case "apps/Deployment" -> {
                Deployment d = cache.resource(Deployment.class).get(namespace, ref.getName());
                yield d == null || d.getSpec() == null ? null : template(d.getSpec().getTemplate(), null);
            }
            case "apps/ReplicaSet" -> {
                ReplicaSet rs = cache.resource(ReplicaSet.class).get(namespace, ref.getName());
                yield rs == null || rs.getSpec() == null ? null : template(rs.getSpec().getTemplate(), null);
            }
            case "batch/Job" -> {
                Job job = cache.resource(Job.class).get(namespace, ref.getName());
                yield job == null || job.getSpec() == null ? null : template(job.getSpec().getTemplate(), null);
            }
            case "apps/StatefulSet" -> {
                StatefulSet sts = cache.resource(StatefulSet.class).get(namespace, ref.getName());
                yield sts == null || sts.getSpec() == null ? null
                        : template(sts.getSpec().getTemplate(), sts.getSpec().getVolumeClaimTemplates());
            }
            case "apps.kruise.io/StatefulSet" -> {
                var asts = cache.resource(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class).get(namespace,
                        ref.getName());
                yield asts == null || asts.getSpec() == null ? null
                        : template(asts.getSpec().getTemplate(), asts.getSpec().getVolumeClaimTemplates());
            }
            default -> null;
        };
    }

    static JsonNode template(PodTemplateSpec template, List<PersistentVolumeClaim> claims) {
        if (template == null) {
            return null;
        }
        ObjectNode t = ApiJson.serialization().convertValue(template, ObjectNode.class);
        if (claims != null && !claims.isEmpty()) {
            ObjectNode spec = t.has("spec") && t.get("spec").isObject() ? (ObjectNode) t.get("spec") : t.putObject("spec");
            ArrayNode volumes = spec.has("volumes") && spec.get("volumes").isArray() ? (ArrayNode) spec.get("volumes")
                    : spec.putArray("volumes");
            for (PersistentVolumeClaim c : claims) {
                String name = c.getMetadata() == null ? null : c.getMetadata().getName();
                if (name == null) {
                    continue;
                }
                ObjectNode v = JsonNodeFactory.instance.objectNode().put("name", name);
                v.putObject("persistentVolumeClaim").put("claimName", name);
                volumes.add(v);
            }
        }
        return t;
    }
}
