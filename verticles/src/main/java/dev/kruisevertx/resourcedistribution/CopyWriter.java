package dev.kruisevertx.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Applies a {@link ResourceDistributionPlan}: creates, updates and deletes the copies, each write on its own (one
 * namespace failing does not stop the others), and returns the failures for the status. Conflicts and missing
 * namespaces are failures by decision, not by write.
 */
final class CopyWriter {
    private static final Logger LOG = LoggerFactory.getLogger(CopyWriter.class);
    private final ControllerContext ctx;

    CopyWriter(ControllerContext ctx) {
        this.ctx = ctx;
    }

    Future<List<DistributionStatus.Failure>> apply(ResourceDistribution rd, ResourceDistributionPlan plan) {
        List<DistributionStatus.Failure> failures = new ArrayList<>();
        List<Future<DistributionStatus.Failure>> writes = new ArrayList<>();
        for (CopyDecision.Step step : plan.steps()) {
            switch (step.action()) {
                case CONFLICT, NAMESPACE_NOT_EXISTS -> failures.add(new DistributionStatus.Failure(step.namespace(),
                        step.action().failureCondition(), step.reason(), true));
                case CREATE, UPDATE, DELETE -> writes.add(write(rd, plan.resource(), step));
                default -> {
                }
            }
        }
        return Future.join(writes).transform(done -> {
            for (Future<DistributionStatus.Failure> w : writes) {
                if (w.result() != null) {
                    failures.add(w.result());
                }
            }
            return Future.succeededFuture(failures);
        });
    }

    /** One write; a failure is returned (logged as one line with namespace, name and reason), never thrown. */
    private Future<DistributionStatus.Failure> write(ResourceDistribution rd, DistributedResource resource,
                                                     CopyDecision.Step step) {
        String ns = step.namespace();
        return ctx.kube().write(() -> {
            switch (step.action()) {
                case CREATE -> ctx.client().resource(typed(resource.kind(), desired(rd, resource, ns, null)))
                        .inNamespace(ns).create();
                case UPDATE -> {
                    HasMetadata live = liveCopy(resource, ns);
                    if (live == null) {
                        ctx.client().resource(typed(resource.kind(), desired(rd, resource, ns, null)))
                                .inNamespace(ns).create();
                    } else {
                        ctx.client().resource(typed(resource.kind(), desired(rd, resource, ns,
                                ApiJson.serialization().convertValue(live, JsonNode.class)))).inNamespace(ns).update();
                    }
                }
                case DELETE -> ApiErrors.ignoreNotFound(() -> {
                    if ("Secret".equals(resource.kind())) {
                        ctx.client().secrets().inNamespace(ns).withName(resource.name()).delete();
                    } else {
                        ctx.client().configMaps().inNamespace(ns).withName(resource.name()).delete();
                    }
                });
                default -> {
                }
            }
            return (DistributionStatus.Failure) null;
        }).recover(e -> {
            String reason = e instanceof KubernetesClientException k && k.getStatus() != null
                    && k.getStatus().getMessage() != null ? k.getStatus().getMessage() : String.valueOf(e.getMessage());
            LOG.info("resourcedistribution {}: {} of {} {} in namespace {} failed: {}", rd.getMetadata().getName(),
                    step.action().name().toLowerCase(), resource.kind(), resource.name(), ns, firstLine(reason));
            return Future.succeededFuture(new DistributionStatus.Failure(ns, step.action().failureCondition(),
                    reason, step.action() != CopyDecision.Action.DELETE));
        });
    }

    /** The copy as the cache has it: the update carries its resourceVersion, so a write in between is a 409. */
    private HasMetadata liveCopy(DistributedResource resource, String ns) {
        return "Secret".equals(resource.kind()) ? ctx.cache().resource(Secret.class).get(ns, resource.name())
                : ctx.cache().resource(ConfigMap.class).get(ns, resource.name());
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static HasMetadata typed(String kind, ObjectNode object) {
        return "Secret".equals(kind) ? ApiJson.serialization().convertValue(object, Secret.class)
                : ApiJson.serialization().convertValue(object, ConfigMap.class);
    }

    /**
     * OpenKruise's makeResourceObject: the resource in {@code namespace}, controlled by the distribution, annotated
     * with its name and hash; on update the live copy's other labels, annotations and finalizers are kept (OpenKruise's
     * mergeMetadata), as are its other owner references and its resourceVersion.
     */
    static ObjectNode desired(ResourceDistribution rd, DistributedResource resource, String namespace, JsonNode live) {
        ObjectNode out = resource.content().deepCopy();
        out.remove("status");
        JsonNode given = out.path("metadata");
        ObjectNode meta = ApiJson.serialization().convertValue(Map.of(), ObjectNode.class);
        meta.put("name", resource.name());
        meta.put("namespace", namespace);
        ObjectNode labels = objectOrEmpty(given.path("labels"));
        ObjectNode annotations = objectOrEmpty(given.path("annotations"));
        TreeSet<String> finalizers = new TreeSet<>();
        given.path("finalizers").forEach(f -> finalizers.add(f.asText()));
        ArrayNode owners = meta.putArray("ownerReferences");
        boolean ours = false;
        if (live != null) {
            JsonNode liveMeta = live.path("metadata");
            putMissing(labels, liveMeta.path("labels"));
            putMissing(annotations, liveMeta.path("annotations"));
            liveMeta.path("finalizers").forEach(f -> finalizers.add(f.asText()));
            for (JsonNode ref : liveMeta.path("ownerReferences")) {
                owners.add(ref);
                ours |= rd.getMetadata().getUid() != null && rd.getMetadata().getUid().equals(ref.path("uid").asText());
            }
            if (liveMeta.has("resourceVersion")) {
                meta.put("resourceVersion", liveMeta.path("resourceVersion").asText());
            }
        }
        if (!ours) {
            ObjectNode ref = owners.addObject();
            ref.put("apiVersion", ResourceDistribution.API_VERSION);
            ref.put("kind", ResourceDistribution.KIND);
            ref.put("name", rd.getMetadata().getName());
            ref.put("uid", rd.getMetadata().getUid());
            ref.put("controller", true);
            ref.put("blockOwnerDeletion", true);
        }
        annotations.put(ResourceDistribution.HASH_ANNOTATION, resource.hash());
        annotations.put(ResourceDistribution.FROM_ANNOTATION, rd.getMetadata().getName());
        if (!labels.isEmpty()) {
            meta.set("labels", labels);
        }
        meta.set("annotations", annotations);
        if (!finalizers.isEmpty()) {
            ArrayNode f = meta.putArray("finalizers");
            finalizers.forEach(f::add);
        }
        out.set("metadata", meta);
        return out;
    }

    private static ObjectNode objectOrEmpty(JsonNode node) {
        return node.isObject() ? ((ObjectNode) node).deepCopy()
                : ApiJson.serialization().convertValue(Map.of(), ObjectNode.class);
    }

    private static void putMissing(ObjectNode into, JsonNode from) {
        Iterator<Map.Entry<String, JsonNode>> it = from.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!into.has(e.getKey())) {
                into.set(e.getKey(), e.getValue());
            }
        }
    }
}
