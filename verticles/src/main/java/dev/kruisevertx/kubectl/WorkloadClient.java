package dev.kruisevertx.kubectl;

import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.revision.RevisionHistory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** Reads and patches the workloads and ControllerRevisions of one namespace, turning API errors into CliExceptions. */
public final class WorkloadClient {
    private final KubernetesClient client;
    private final String namespace;

    public WorkloadClient(KubernetesClient client, String namespace) {
        this.client = Objects.requireNonNull(client);
        this.namespace = Objects.requireNonNull(namespace);
    }

    public String namespace() {
        return namespace;
    }

    /** The object as JSON; a CliException when it (or its CRD) does not exist. */
    public JsonNode get(WorkloadKinds.Target target) {
        GenericKubernetesResource found;
        try {
            found = resource(target).get();
        } catch (KubernetesClientException e) {
            throw apiError("get", target, e);
        }
        if (found == null) {
            throw new CliException(target.kind().context().getPlural() + "." + target.kind().context().getGroup()
                    + " \"" + target.name() + "\" not found" + where(target));
        }
        return Serialization.jsonMapper().valueToTree(found);
    }

    /** Applies a JSON merge patch (RFC 7386). */
    public void mergePatch(WorkloadKinds.Target target, JsonNode patch) {
        patch(target, PatchType.JSON_MERGE, patch);
    }

    /** Applies a JSON patch (RFC 6902); callers put a resourceVersion test first so concurrent edits fail. */
    public void jsonPatch(WorkloadKinds.Target target, JsonNode operations) {
        patch(target, PatchType.JSON, operations);
    }

    private void patch(WorkloadKinds.Target target, PatchType type, JsonNode body) {
        try {
            resource(target).patch(PatchContext.of(type), Serialization.asJson(body));
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e) || ApiErrors.isInvalid(e) && String.valueOf(e.getMessage()).contains("test")) {
                throw new CliException(target.displayName() + " changed while it was being edited; run the command again");
            }
            throw apiError("patch", target, e);
        }
    }

    /** ControllerRevisions the object controls, oldest first. */
    public List<ControllerRevision> revisions(WorkloadKinds.Target target, JsonNode object) {
        String uid = object.path("metadata").path("uid").asText();
        List<ControllerRevision> all;
        try {
            all = client.apps().controllerRevisions().inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException e) {
            throw apiError("list controllerrevisions for", target, e);
        }
        return all.stream()
                .filter(r -> ownedBy(r, uid))
                .sorted(Comparator.comparingLong(r -> r.getRevision() == null ? 0L : r.getRevision()))
                .toList();
    }

    /** The pod template a revision holds ({@code {"spec":{"template":{...,"$patch":"replace"}}}}). */
    public static ObjectNode templateOf(ControllerRevision revision) {
        try {
            return RevisionHistory.templateJson(revision);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage() + " (it holds no pod template)");
        }
    }

    private static boolean ownedBy(ControllerRevision r, String uid) {
        List<OwnerReference> owners = r.getMetadata().getOwnerReferences();
        if (owners == null) {
            return false;
        }
        return owners.stream().anyMatch(o -> uid.equals(o.getUid()) && Boolean.TRUE.equals(o.getController()));
    }

    private Resource<GenericKubernetesResource> resource(WorkloadKinds.Target target) {
        return target.kind().namespaced()
                ? client.genericKubernetesResources(target.kind().context()).inNamespace(namespace).withName(target.name())
                : client.genericKubernetesResources(target.kind().context()).withName(target.name());
    }

    /** " in namespace \"ns\"", or nothing for a cluster-scoped kind. */
    private String where(WorkloadKinds.Target target) {
        return target.kind().namespaced() ? " in namespace \"" + namespace + "\"" : "";
    }

    private CliException apiError(String verb, WorkloadKinds.Target target, KubernetesClientException e) {
        if (ApiErrors.isNotFound(e)) {
            return new CliException("the server has no " + target.kind().context().getPlural() + "."
                    + target.kind().context().getGroup() + "/" + target.kind().context().getVersion()
                    + " resource (is kruise installed?) or " + target.displayName() + " does not exist" + where(target));
        }
        if (ApiErrors.isForbidden(e)) {
            return new CliException("forbidden: cannot " + verb + " " + target.displayName() + where(target) + ": "
                    + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()));
        }
        return new CliException("cannot " + verb + " " + target.displayName() + ": " + e.getMessage());
    }
}
