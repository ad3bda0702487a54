package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What kube-apiserver does to a request body before admission sees it: for a create, the kind and name checks,
 * the namespace's existence, generated names, server-set metadata (uid, creationTimestamp, generation) and
 * built-in defaults; for an update, the resourceVersion precondition, the status subresource split and the
 * metadata a client may not change.
 */
final class ObjectPreparer {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final SecureRandom random = new SecureRandom();

    ObjectPreparer(ObjectStore store, ResourceRegistry registry) {
        this.store = store;
        this.registry = registry;
    }

    /** A create request's body as it will be stored: checked, named, server fields set, defaulted. */
    ObjectNode forCreate(ResourceType type, String version, String pathNamespace, JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("the request body must be a JSON object");
        }
        ObjectNode o = ((ObjectNode) body).deepCopy();
        checkKind(type, version, o);
        ObjectNode meta = JsonPaths.metadata(o);
        if (type.namespaced()) {
            String bodyNs = meta.path("namespace").asText("");
            if (!bodyNs.isEmpty() && pathNamespace != null && !bodyNs.equals(pathNamespace)) {
                throw ApiException.badRequest("the namespace of the provided object does not match the namespace sent on the request");
            }
            String ns = pathNamespace != null ? pathNamespace : bodyNs;
            if (ns.isEmpty()) {
                throw ApiException.badRequest("a namespace is required to create a " + type.kind());
            }
            meta.put("namespace", ns);
            ObjectNode namespace = store.get(registry.byKey("namespaces").orElseThrow(), null, ns);
            if (namespace == null) {
                throw new ApiException(404, "NotFound", "namespaces \"" + ns + "\" not found", "", "namespaces", ns);
            }
            if (namespace.path("metadata").has("deletionTimestamp")) {
                throw new ApiException(403, "Forbidden", type.plural() + " \"" + meta.path("name").asText(meta.path("generateName").asText())
                        + "\" is forbidden: unable to create new content in namespace " + ns + " because it is being terminated");
            }
        } else {
            meta.remove("namespace");
        }
        String name = meta.path("name").asText("");
        if (name.isEmpty()) {
            String prefix = meta.path("generateName").asText("");
            if (prefix.isEmpty()) {
                throw ApiException.invalid(type, "", "metadata.name: Required value: name or generateName is required");
            }
            name = prefix + randomSuffix();
            meta.put("name", name);
        }
        validateName(type, name);
        meta.put("uid", UUID.randomUUID().toString());
        meta.put("creationTimestamp", ApiServer.now());
        meta.put("generation", 1);
        meta.remove("resourceVersion");
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
        meta.remove("selfLink");
        defaultsOnCreate(type, o);
        BuiltInRules.normalize(type, o);
        BuiltInRules.allocateOnCreate(type, o, random);
        DefaultTolerationSeconds.apply(type, o);
        return o;
    }

    /** The body's kind and apiVersion, when given, are the resource's; then they are set. */
    static void checkKind(ResourceType type, String version, ObjectNode o) {
        String kind = o.path("kind").asText("");
        if (!kind.isEmpty() && !kind.equals(type.kind())) {
            throw ApiException.badRequest("the kind \"" + kind + "\" of the body does not match the resource "
                    + type.plural() + " (kind " + type.kind() + ")");
        }
        String av = o.path("apiVersion").asText("");
        if (!av.isEmpty() && !av.equals(type.apiVersion(version))) {
            throw ApiException.badRequest("the API version in the data (" + av + ") does not match the expected API version ("
                    + type.apiVersion(version) + ")");
        }
        o.put("apiVersion", type.apiVersion(version));
        o.put("kind", type.kind());
    }

    private static void validateName(ResourceType type, String name) {
        boolean tooLong = name.length() > 253;
        boolean badShape = !name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
        if (tooLong || badShape) {
            // Custom resources are held to it too (apiextensions-apiserver validates NameIsDNSSubdomain), with kube's
            // two messages: the length one and the shape one, joined when both apply.
            if (!type.kind().equals("Node") || name.isEmpty()) {
                List<String> why = new ArrayList<>();
                if (tooLong) {
                    why.add("must be no more than 253 characters");
                }
                if (badShape) {
                    why.add("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'");
                }
                throw ApiException.invalid(type, name, "metadata.name: Invalid value: \"" + name + "\": "
                        + String.join(", ", why));
            }
        }
    }

    private void defaultsOnCreate(ResourceType type, ObjectNode o) {
        boolean builtInCore = !type.custom() && type.group().isEmpty();
        switch (type.kind()) {
            case "Pod" -> {
                if (builtInCore) {
                    ObjectNode status = o.putObject("status");
                    status.put("phase", "Pending");
                    status.put("qosClass", "BestEffort");
                    return;
                }
            }
            case "Namespace" -> {
                if (builtInCore) {
                    o.putObject("status").put("phase", "Active");
                    // kube-apiserver's namespace defaulting (since 1.21): the immutable name label that
                    // namespaceSelectors (webhooks, SidecarSets) select a namespace by.
                    JsonNode meta = o.get("metadata");
                    if (meta instanceof ObjectNode m) {
                        JsonNode labels = m.get("labels");
                        ObjectNode l = labels instanceof ObjectNode existing ? existing : m.putObject("labels");
                        l.put("kubernetes.io/metadata.name", m.path("name").asText());
                    }
                    return;
                }
            }
            case "Node" -> {
                // A kubelet registers its node with status; keep it.
                if (builtInCore) {
                    return;
                }
            }
            case "CustomResourceDefinition" -> {
                if (type.group().equals("apiextensions.k8s.io")) {
                    ResourceType crType;
                    try {
                        crType = ResourceRegistry.fromCrd(o);
                    } catch (IllegalArgumentException e) {
                        throw ApiException.invalid(type, JsonPaths.meta(o).name(), e.getMessage());
                    }
                    o.set("status", crdStatus(o, crType));
                    return;
                }
            }
            default -> {
            }
        }
        if (type.statusSubresource()) {
            o.remove("status");
        }
    }

    private static ObjectNode crdStatus(ObjectNode crd, ResourceType crType) {
        ObjectNode status = JSON.objectNode();
        ObjectNode accepted = crd.path("spec").path("names").deepCopy();
        if (!accepted.has("singular")) {
            accepted.put("singular", crType.singular());
        }
        if (!accepted.has("listKind")) {
            accepted.put("listKind", crType.listKind());
        }
        status.set("acceptedNames", accepted);
        ArrayNode conditions = status.putArray("conditions");
        for (String t : List.of("NamesAccepted", "Established")) {
            conditions.addObject().put("type", t).put("status", "True").put("lastTransitionTime", ApiServer.now())
                    .put("reason", t.equals("Established") ? "InitialNamesAccepted" : "NoConflicts")
                    .put("message", t.equals("Established") ? "the initial names have been accepted" : "no conflicts found");
        }
        status.putArray("storedVersions").add(crType.storageVersion());
        return status;
    }

    /** The object an update or status write proposes, merged with what the client may not change. */
    ObjectNode forUpdate(ResourceType type, ObjectNode oldView, ObjectNode proposed, String subresource, String name) {
        ObjectNode meta = JsonPaths.metadata(proposed);
        String bodyName = meta.path("name").asText("");
        if (!bodyName.isEmpty() && !bodyName.equals(name)) {
            throw ApiException.badRequest("the name of the object (" + bodyName + ") does not match the name on the URL (" + name + ")");
        }
        String rv = meta.path("resourceVersion").asText("");
        String currentRv = oldView.path("metadata").path("resourceVersion").asText();
        if (!rv.isEmpty() && !rv.equals(currentRv)) {
            throw ApiException.conflict(type, name, "the object has been modified; please apply your changes to the latest version and try again");
        }
        ObjectNode next;
        if (subresource.equals("ephemeralcontainers")) {
            next = EphemeralContainers.apply(type, oldView, proposed, name);
        } else if (subresource.equals("status")) {
            next = oldView.deepCopy();
            JsonNode status = proposed.get("status");
            if (status == null) {
                next.remove("status");
            } else {
                next.set("status", status);
            }
            if (!type.custom() && type.group().isEmpty() && type.kind().equals("Pod")) {
                // kube-apiserver's pod status strategy resets only the spec, deletionTimestamp and ownerReferences:
                // labels and annotations written through pods/status are kept (kruise-daemon's
                // runtime-containers-meta relies on it). Other kinds' status writes change only the status.
                ObjectNode nextMeta = JsonPaths.metadata(next);
                for (String field : new String[]{"labels", "annotations"}) {
                    JsonNode value = meta.get(field);
                    if (value == null || value.isNull()) {
                        nextMeta.remove(field);
                    } else {
                        nextMeta.set(field, value);
                    }
                }
            }
        } else {
            next = proposed;
            if (type.statusSubresource()) {
                JsonNode oldStatus = oldView.get("status");
                if (oldStatus == null) {
                    next.remove("status");
                } else {
                    next.set("status", oldStatus.deepCopy());
                }
            }
            if (ApiServer.isCrd(type)) {
                ResourceType crType;
                try {
                    crType = ResourceRegistry.fromCrd(next);
                } catch (IllegalArgumentException e) {
                    throw ApiException.invalid(type, name, e.getMessage());
                }
                next.set("status", crdStatus(next, crType));
            }
        }
        if (subresource.isEmpty()) {
            BuiltInRules.normalize(type, next);
            BuiltInRules.validateUpdate(type, oldView, next, name);
        }
        ObjectNode nm = JsonPaths.metadata(next);
        nm.put("name", name);
        keepServerFields(next, oldView);
        nm.put("resourceVersion", currentRv);
        return next;
    }

    /** Metadata a client may not change: identity, creation, deletion state; generation is the server's. */
    static void keepServerFields(ObjectNode next, ObjectNode old) {
        ObjectNode nm = JsonPaths.metadata(next);
        JsonNode om = old.path("metadata");
        for (String f : List.of("uid", "creationTimestamp", "namespace", "deletionTimestamp", "deletionGracePeriodSeconds", "generation")) {
            if (om.has(f)) {
                nm.set(f, om.get(f));
            } else {
                nm.remove(f);
            }
        }
    }

    /** Fields only the server sets survive admission unchanged (a webhook cannot forge a uid). */
    static void resetServerFields(ResourceType type, ObjectNode stored, ObjectNode prepared) {
        ObjectNode meta = JsonPaths.metadata(stored);
        ObjectNode pm = JsonPaths.metadata(prepared);
        for (String f : List.of("uid", "creationTimestamp", "generation", "name", "namespace")) {
            if (pm.has(f)) {
                meta.set(f, pm.get(f));
            } else {
                meta.remove(f);
            }
        }
        stored.put("apiVersion", type.apiVersion(type.storageVersion()));
        stored.put("kind", type.kind());
    }

    private String randomSuffix() {
        StringBuilder sb = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            sb.append(NAME_SUFFIX_ALPHABET.charAt(random.nextInt(NAME_SUFFIX_ALPHABET.length())));
        }
        return sb.toString();
    }
}
