package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.Subset;
import dev.kruisevertx.api.apps.v1alpha1.SubsetTemplate;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.sim.api.Patches;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The workload of one subset of a UnitedDeployment, made from the UnitedDeployment's template as OpenKruise v1.9.0's
 * adapters make it. Pure: the UnitedDeployment, the subset and the numbers in, the workload as JSON out.
 *
 * <ul>
 *   <li>named {@code <ud>-<subset>-} plus the API server's random suffix ({@code <ud>-} when that prefix is not a
 *       DNS subdomain), in the UnitedDeployment's namespace, controlled by it;</li>
 *   <li>labels: the template's, the selector's matchLabels, {@code controller-revision-hash} and
 *       {@code apps.kruise.io/subset-name}; annotations: the template's and {@code apps.kruise.io/subset-patch}
 *       (the subset's patch as JSON, empty without one);</li>
 *   <li>spec: the template's, with the selector plus the subset-name label, the replicas, the partition (CloneSet
 *       {@code updateStrategy.partition}; (Advanced) StatefulSet {@code rollingUpdate.partition} when the type is
 *       RollingUpdate or unset; none for a Deployment), and the pod template labelled with the subset name and
 *       revision, the subset's node selector term added to every required node affinity term, its tolerations
 *       appended, and finally its patch applied as a strategic merge patch.</li>
 * </ul>
 */
public final class SubsetWorkloads {
    /** The workload kinds a subset can be, in the order OpenKruise picks the template. */
    public enum Kind {
        STATEFUL_SET("apps/v1", "StatefulSet"),
        ADVANCED_STATEFUL_SET("apps.kruise.io/v1beta1", "StatefulSet"),
        CLONE_SET("apps.kruise.io/v1alpha1", "CloneSet"),
        DEPLOYMENT("apps/v1", "Deployment");

        public final String apiVersion;
        public final String kind;

        Kind(String apiVersion, String kind) {
            this.apiVersion = apiVersion;
            this.kind = kind;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final int DNS_SUBDOMAIN_MAX = 253;

    private SubsetWorkloads() {
    }

    /** The kind the template makes: the first of statefulSet, advancedStatefulSet, cloneSet, deployment set. */
    public static Optional<Kind> kindOf(SubsetTemplate t) {
        if (t == null) {
            return Optional.empty();
        }
        if (t.getStatefulSetTemplate() != null) {
            return Optional.of(Kind.STATEFUL_SET);
        }
        if (t.getAdvancedStatefulSetTemplate() != null) {
            return Optional.of(Kind.ADVANCED_STATEFUL_SET);
        }
        if (t.getCloneSetTemplate() != null) {
            return Optional.of(Kind.CLONE_SET);
        }
        if (t.getDeploymentTemplate() != null) {
            return Optional.of(Kind.DEPLOYMENT);
        }
        return Optional.empty();
    }

    /** The generateName of a subset's workload. */
    public static String prefix(String udName, String subsetName) {
        String prefix = udName + "-" + subsetName + "-";
        // As Kubernetes' NameIsDNSSubdomain(prefix, true): the trailing '-' stands for the random suffix.
        String masked = prefix.substring(0, prefix.length() - 1) + "a";
        if (masked.length() > DNS_SUBDOMAIN_MAX || !DNS_SUBDOMAIN.matcher(masked).matches()) {
            return udName + "-";
        }
        return prefix;
    }

    /**
     * The workload of {@code subset}.
     *
     * @throws IllegalArgumentException when the UnitedDeployment has no template or the subset is not in its
     *                                  topology
     */
    public static ObjectNode build(UnitedDeployment ud, String subsetName, String revision, int replicas,
                                   int partition) {
        Kind kind = kindOf(ud.spec().getTemplate()).orElseThrow(() -> new IllegalArgumentException(
                "UnitedDeployment " + ud.getMetadata().getName() + " has no subset template"));
        Subset subset = ud.spec().topology().subsets().stream().filter(s -> subsetName.equals(s.getName()))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("fail to find subset config " + subsetName));
        ObjectNode template = templateOf(ud.spec().getTemplate(), kind);
        ObjectNode templateMeta = template.path("metadata") instanceof ObjectNode m ? m : JSON.createObjectNode();

        ObjectNode workload = JSON.createObjectNode();
        workload.put("apiVersion", kind.apiVersion).put("kind", kind.kind);
        ObjectNode meta = workload.putObject("metadata");
        meta.put("generateName", prefix(ud.getMetadata().getName(), subsetName));
        meta.put("namespace", ud.getMetadata().getNamespace());
        ObjectNode labels = meta.putObject("labels");
        copyStrings(templateMeta.path("labels"), labels);
        JsonNode selector = JSON.valueToTree(ud.spec().getSelector());
        copyStrings(selector.path("matchLabels"), labels);
        labels.put(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL, revision);
        labels.put(UnitedDeployment.SUBSET_NAME_LABEL, subsetName);
        ObjectNode annotations = meta.putObject("annotations");
        copyStrings(templateMeta.path("annotations"), annotations);
        ObjectNode owner = meta.putArray("ownerReferences").addObject();
        owner.put("apiVersion", UnitedDeployment.API_VERSION).put("kind", UnitedDeployment.KIND)
                .put("name", ud.getMetadata().getName()).put("uid", ud.getMetadata().getUid())
                .put("controller", true).put("blockOwnerDeletion", true);

        ObjectNode spec = template.path("spec") instanceof ObjectNode s ? s.deepCopy() : JSON.createObjectNode();
        ObjectNode subsetSelector = selector.isObject() ? ((ObjectNode) selector).deepCopy() : JSON.createObjectNode();
        ObjectNode matchLabels = subsetSelector.path("matchLabels") instanceof ObjectNode ml ? ml
                : subsetSelector.putObject("matchLabels");
        matchLabels.put(UnitedDeployment.SUBSET_NAME_LABEL, subsetName);
        spec.set("selector", subsetSelector);
        spec.put("replicas", replicas);
        setPartition(kind, spec, partition);

        ObjectNode pod = spec.path("template") instanceof ObjectNode p ? p : spec.putObject("template");
        ObjectNode podMeta = pod.path("metadata") instanceof ObjectNode pm ? pm : pod.putObject("metadata");
        ObjectNode podLabels = podMeta.path("labels") instanceof ObjectNode pl ? pl : podMeta.putObject("labels");
        podLabels.put(UnitedDeployment.SUBSET_NAME_LABEL, subsetName);
        podLabels.put(UnitedDeployment.CONTROLLER_REVISION_HASH_LABEL, revision);
        ObjectNode podSpec = pod.path("spec") instanceof ObjectNode ps ? ps : pod.putObject("spec");
        attachNodeAffinity(podSpec, subset.getNodeSelectorTerm());
        if (subset.getTolerations() != null) {
            ArrayNode tolerations = podSpec.path("tolerations") instanceof ArrayNode t ? t : podSpec.putArray("tolerations");
            subset.getTolerations().forEach(t -> tolerations.add(JSON.valueToTree(t)));
        }
        JsonNode patch = subset.getPatch();
        boolean hasPatch = patch != null && !patch.isNull() && !patch.isMissingNode();
        if (hasPatch) {
            if (!patch.isObject()) {
                throw new IllegalArgumentException("subset " + subsetName + " patch must be a JSON object");
            }
            spec.set("template", Patches.strategicMerge(pod, (ObjectNode) patch));
        }
        annotations.put(UnitedDeployment.SUBSET_PATCH_ANNOTATION, hasPatch ? patch.toString() : "");
        workload.set("spec", spec);
        return workload;
    }

    private static ObjectNode templateOf(SubsetTemplate t, Kind kind) {
        Object template = switch (kind) {
            case STATEFUL_SET -> t.getStatefulSetTemplate();
            case ADVANCED_STATEFUL_SET -> t.getAdvancedStatefulSetTemplate();
            case CLONE_SET -> t.getCloneSetTemplate();
            case DEPLOYMENT -> t.getDeploymentTemplate();
        };
        return dev.kruisevertx.api.common.ApiJson.serialization().convertValue(template, ObjectNode.class);
    }

    private static void setPartition(Kind kind, ObjectNode spec, int partition) {
        switch (kind) {
            case CLONE_SET -> {
                ObjectNode strategy = objectAt(spec, "updateStrategy");
                strategy.put("partition", partition);
            }
            case STATEFUL_SET, ADVANCED_STATEFUL_SET -> {
                ObjectNode strategy = objectAt(spec, "updateStrategy");
                String type = strategy.path("type").asText("");
                if (type.isEmpty() || "RollingUpdate".equals(type)) {
                    if (kind == Kind.STATEFUL_SET) {
                        strategy.put("type", "RollingUpdate");
                    }
                    objectAt(strategy, "rollingUpdate").put("partition", partition);
                }
            }
            case DEPLOYMENT -> {
                // A Deployment has no partition: it always rolls the whole subset.
            }
        }
    }

    private static void attachNodeAffinity(ObjectNode podSpec, NodeSelectorTerm term) {
        if (term == null || term.getMatchExpressions() == null || term.getMatchExpressions().isEmpty()) {
            return;
        }
        ObjectNode required = objectAt(objectAt(objectAt(podSpec, "affinity"), "nodeAffinity"),
                "requiredDuringSchedulingIgnoredDuringExecution");
        ArrayNode terms = required.path("nodeSelectorTerms") instanceof ArrayNode a ? a
                : required.putArray("nodeSelectorTerms");
        if (terms.isEmpty()) {
            terms.addObject();
        }
        // Every existing term gets the subset's requirements: the pod must be in the subset whichever term matches.
        for (JsonNode t : terms) {
            ObjectNode existing = (ObjectNode) t;
            ArrayNode expressions = existing.path("matchExpressions") instanceof ArrayNode e ? e
                    : existing.putArray("matchExpressions");
            term.getMatchExpressions().forEach(rq -> expressions.add(JSON.valueToTree(rq)));
        }
    }

    private static ObjectNode objectAt(ObjectNode parent, String field) {
        return parent.path(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }

    private static void copyStrings(JsonNode from, ObjectNode to) {
        if (from instanceof ObjectNode o) {
            o.fields().forEachRemaining(e -> to.put(e.getKey(), e.getValue().asText()));
        }
    }
}
