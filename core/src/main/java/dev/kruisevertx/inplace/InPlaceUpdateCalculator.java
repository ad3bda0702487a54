package dev.kruisevertx.inplace;

import dev.kruisevertx.revision.RevisionHistory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether a pod can move from one revision to another in place and what must change, with the rules of
 * OpenKruise's default in-place calculation: the only pod-spec change allowed is a container's image; template
 * label and annotation changes are carried over to the pod, and (with gate InPlaceUpdateEnvFromMetadata) those read
 * by a container's env through a fieldRef are applied per container so the container is restarted with them.
 * Anything else that differs makes the update impossible in place. Pure and thread-safe.
 */
public final class InPlaceUpdateCalculator {
    private static final Pattern CONTAINER_IMAGE_PATH = Pattern.compile("^/spec/containers/([0-9]+)/image$");
    private static final String PATCH_DIRECTIVE = "$patch";

    private InPlaceUpdateCalculator() {
    }

    /**
     * The in-place update from {@code oldRevision} to {@code newRevision}, or null when it cannot be done in place
     * (also when either revision is missing or holds no readable template).
     */
    public static InPlaceUpdateSpec calculate(ControllerRevision oldRevision, ControllerRevision newRevision,
                                              InPlaceUpdateOptions options) {
        if (oldRevision == null || newRevision == null) {
            return null;
        }
        PodTemplateSpec oldTemplate;
        PodTemplateSpec newTemplate;
        try {
            oldTemplate = templateOf(oldRevision);
            newTemplate = templateOf(newRevision);
        } catch (IllegalArgumentException unreadable) {
            return null;
        }
        return calculate(oldTemplate, newTemplate, options.revisionName().apply(newRevision), options);
    }

    /** Whether {@link #calculate(ControllerRevision, ControllerRevision, InPlaceUpdateOptions)} finds a way. */
    public static boolean canUpdateInPlace(ControllerRevision oldRevision, ControllerRevision newRevision,
                                           InPlaceUpdateOptions options) {
        return calculate(oldRevision, newRevision, options) != null;
    }

    /** The same decision for two templates given directly; {@code revision} is recorded as the target. */
    public static InPlaceUpdateSpec calculate(PodTemplateSpec oldTemplate, PodTemplateSpec newTemplate,
                                              String revision, InPlaceUpdateOptions options) {
        if (oldTemplate == null || newTemplate == null) {
            return null;
        }
        JsonNode oldJson = toJson(oldTemplate);
        JsonNode newJson = toJson(newTemplate);
        JsonNode patch = JsonDiff.asJson(oldJson, newJson, DiffFlags.dontNormalizeOpIntoMoveAndCopy());

        List<Container> oldContainers = oldTemplate.getSpec() == null || oldTemplate.getSpec().getContainers() == null
                ? List.of() : oldTemplate.getSpec().getContainers();
        Map<String, String> images = new LinkedHashMap<>();
        Map<String, String> labelOps = new LinkedHashMap<>();
        Map<String, String> annotationOps = new LinkedHashMap<>();
        for (JsonNode op : patch) {
            String path = op.path("path").asText("");
            String kind = op.path("op").asText("");
            if (path.startsWith("/spec/")) {
                Matcher m = CONTAINER_IMAGE_PATH.matcher(path);
                if (!kind.equals("replace") || !m.matches()) {
                    return null;
                }
                int idx = Integer.parseInt(m.group(1));
                if (idx >= oldContainers.size() || !op.path("value").isTextual()) {
                    return null;
                }
                images.put(oldContainers.get(idx).getName(), op.path("value").asText());
            } else if (path.startsWith("/metadata/")) {
                if (!collectMetadataOp(op, kind, path, oldJson, labelOps, annotationOps)) {
                    return null;
                }
            } else {
                return null;
            }
        }

        Map<String, ObjectMeta> refMetadata = new LinkedHashMap<>();
        boolean envFromMetadata = false;
        Map<String, String> labelsPatch = new LinkedHashMap<>(labelOps);
        Map<String, String> annotationsPatch = new LinkedHashMap<>(annotationOps);
        if (options.envFromMetadataEnabled()) {
            List<Container> newContainers = newTemplate.getSpec() == null || newTemplate.getSpec().getContainers() == null
                    ? List.of() : newTemplate.getSpec().getContainers();
            envFromMetadata |= collectEnvReferences(newContainers, "metadata.labels", labelOps, labelsPatch,
                    refMetadata, true);
            envFromMetadata |= collectEnvReferences(newContainers, "metadata.annotations", annotationOps,
                    annotationsPatch, refMetadata, false);
        }
        return new InPlaceUpdateSpec(revision, images, refMetadata, labelsPatch, annotationsPatch, envFromMetadata,
                options.gracePeriodSeconds(), oldTemplate, newTemplate);
    }

    /**
     * Records a label/annotation change (value, or null for removal). Returns false for metadata changes that are
     * not label/annotation entries (e.g. the whole labels map appearing), which OpenKruise cannot apply either.
     */
    private static boolean collectMetadataOp(JsonNode op, String kind, String path, JsonNode oldJson,
                                             Map<String, String> labelOps, Map<String, String> annotationOps) {
        String[] words = path.split("/", 4);
        if (words.length == 3 && (words[2].equals("labels") || words[2].equals("annotations"))) {
            // The whole map was added, removed or replaced: expand into per-key changes.
            Map<String, String> target = words[2].equals("labels") ? labelOps : annotationOps;
            JsonNode before = oldJson.path("metadata").path(words[2]);
            JsonNode after = kind.equals("remove") ? null : op.path("value");
            before.fieldNames().forEachRemaining(k -> target.put(k, null));
            if (after != null) {
                after.fields().forEachRemaining(e -> target.put(e.getKey(), e.getValue().asText()));
            }
            return true;
        }
        if (words.length != 4 || !(words[2].equals("labels") || words[2].equals("annotations"))) {
            // Other template metadata (name, finalizers...) never reaches the pod; OpenKruise ignores it too.
            return true;
        }
        String key = decodePointerToken(words[3]);
        Map<String, String> target = words[2].equals("labels") ? labelOps : annotationOps;
        target.put(key, kind.equals("remove") ? null : op.path("value").asText());
        return true;
    }

    /**
     * Moves the changed keys read by a container's env from the plain metadata patch to that container's
     * reference metadata. Removals stay in the plain patch (nothing to restart with).
     */
    private static boolean collectEnvReferences(List<Container> containers, String fieldPath, Map<String, String> ops,
                                                Map<String, String> plainPatch, Map<String, ObjectMeta> refMetadata,
                                                boolean labels) {
        boolean any = false;
        for (Map.Entry<String, String> e : ops.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            for (Container c : containers) {
                if (!referencesMetadata(c, fieldPath, e.getKey())) {
                    continue;
                }
                ObjectMeta meta = refMetadata.computeIfAbsent(c.getName(), n -> new ObjectMeta());
                if (labels) {
                    if (meta.getLabels() == null) {
                        meta.setLabels(new LinkedHashMap<>());
                    }
                    meta.getLabels().put(e.getKey(), e.getValue());
                } else {
                    if (meta.getAnnotations() == null) {
                        meta.setAnnotations(new LinkedHashMap<>());
                    }
                    meta.getAnnotations().put(e.getKey(), e.getValue());
                }
                plainPatch.remove(e.getKey());
                any = true;
            }
        }
        return any;
    }

    /**
     * Whether an env var of the container reads {@code <fieldPath>['<key>']} through a fieldRef (env with a literal
     * value are not references).
     */
    public static boolean referencesMetadata(Container c, String fieldPath, String key) {
        if (c.getEnv() == null) {
            return false;
        }
        for (EnvVar env : c.getEnv()) {
            if (env.getValue() != null && !env.getValue().isEmpty()) {
                continue;
            }
            if (env.getValueFrom() == null || env.getValueFrom().getFieldRef() == null) {
                continue;
            }
            String ref = env.getValueFrom().getFieldRef().getFieldPath();
            String[] split = splitSubscript(ref);
            if (split != null && split[0].equals(fieldPath) && split[1].equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** "metadata.labels['a']" to {"metadata.labels", "a"}; null when the path has no subscript. */
    static String[] splitSubscript(String path) {
        if (path == null || !path.endsWith("']")) {
            return null;
        }
        int open = path.indexOf("['");
        if (open <= 0) {
            return null;
        }
        return new String[]{path.substring(0, open), path.substring(open + 2, path.length() - 2)};
    }

    private static String decodePointerToken(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }

    /**
     * The pod template a ControllerRevision holds: its {@code data.spec.template} as OpenKruise's CloneSet and
     * Advanced StatefulSet store it, or {@code data} itself when it is a template.
     *
     * @throws IllegalArgumentException naming the revision when its data holds no template
     */
    public static PodTemplateSpec templateOf(ControllerRevision revision) {
        return RevisionHistory.templateOf(revision);
    }

    /**
     * A template as Go reads it ({@link dev.kruisevertx.revision.GoRevisionData}): revisions hold templates in that
     * form (OpenKruise's and this manager's), a workload's own template does not, and a difference of form alone
     * ({@code resources: {}}, {@code readOnly: false}, {@code "0.5"} against {@code "500m"}) must not read as a
     * change that forbids an in-place update.
     */
    private static JsonNode toJson(PodTemplateSpec template) {
        JsonNode node = dev.kruisevertx.revision.GoRevisionData.of(template).path("spec").path("template").deepCopy();
        if (node instanceof ObjectNode o) {
            o.remove(PATCH_DIRECTIVE);
        }
        return Objects.requireNonNull(node);
    }
}
