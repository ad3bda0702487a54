package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.UUID;

/**
 * The semantics of kube-apiserver's resource endpoints over an {@link ObjectStore}: create, read, list, update,
 * patch, delete, the status / scale / binding subresources, finalizers, graceful pod deletion, namespace
 * lifecycle, CRD registration and (through {@link GarbageCollector}) ownerReference garbage collection.
 * Every method runs on the one context that owns the store.
 */
public final class ApiServer {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int DEFAULT_GRACE_SECONDS = 30;
    static final String FOREGROUND_FINALIZER = "foregroundDeletion";
    static final String ORPHAN_FINALIZER = "orphan";

    private final Vertx vertx;
    private final io.vertx.core.Context context;
    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final GarbageCollector gc;
    private final SecureRandom random = new SecureRandom();
    private volatile Admission admission = Admission.NONE;
    private volatile VersionConverter converter = VersionConverter.NONE;

    /** {@code context} is the one context every later call comes from. */
    public ApiServer(Vertx vertx, io.vertx.core.Context context, int eventLogSize) {
        this.vertx = vertx;
        this.context = context;
        this.store = new ObjectStore(eventLogSize);
        this.registry = new ResourceRegistry();
        this.gc = new GarbageCollector(this, store, registry);
        for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            ObjectNode namespace = JSON.objectNode();
            namespace.put("apiVersion", "v1").put("kind", "Namespace");
            namespace.putObject("metadata").put("name", ns);
            commitCreate(namespaces(), prepareCreate(namespaces(), "v1", null, namespace));
        }
    }

    public ObjectStore store() {
        return store;
    }

    public ResourceRegistry registry() {
        return registry;
    }

    Vertx vertx() {
        return vertx;
    }

    /** The context every store access runs on. */
    public io.vertx.core.Context context() {
        return context;
    }

    public void setAdmission(Admission admission) {
        this.admission = admission;
    }

    public void setConverter(VersionConverter converter) {
        this.converter = converter;
    }

    private ResourceType namespaces() {
        return registry.byKey("namespaces").orElseThrow();
    }

    public ResourceType type(String group, String version, String plural) {
        return registry.find(group, version, plural).orElseThrow(() -> new ApiException(404, "NotFound",
                "the server could not find the requested resource (" + plural
                        + (group.isEmpty() ? "" : "." + group) + " " + version + ")"));
    }

    /** A stored object as seen in {@code version} (a copy; converted when stored in another version). */
    public Future<ObjectNode> view(ResourceType type, ObjectNode stored, String version) {
        return views(type, List.of(stored), version).map(l -> l.get(0));
    }

    /** {@link #view} for many objects, converting those that need it in one call. */
    public Future<List<ObjectNode>> views(ResourceType type, List<ObjectNode> stored, String version) {
        List<ObjectNode> out = new ArrayList<>(stored.size());
        List<Integer> positions = new ArrayList<>();
        List<ObjectNode> toConvert = new ArrayList<>();
        for (int i = 0; i < stored.size(); i++) {
            ObjectNode o = stored.get(i);
            if (version.equals(apiVersionOf(type, o))) {
                out.add(labelled(type, o.deepCopy(), version));
            } else {
                out.add(null);
                positions.add(i);
                toConvert.add(o);
            }
        }
        if (toConvert.isEmpty()) {
            return Future.succeededFuture(out);
        }
        return converter.convert(type, toConvert, version).map(converted -> {
            if (converted.size() != toConvert.size()) {
                throw new ApiException(500, "InternalError", "conversion of " + type.key() + " to " + version
                        + " returned " + converted.size() + " objects for " + toConvert.size());
            }
            for (int i = 0; i < positions.size(); i++) {
                out.set(positions.get(i), labelled(type, converted.get(i), version));
            }
            return out;
        });
    }

    private static ObjectNode labelled(ResourceType type, ObjectNode o, String version) {
        o.put("apiVersion", type.apiVersion(version));
        o.put("kind", type.kind());
        return o;
    }

    private static String apiVersionOf(ResourceType type, ObjectNode stored) {
        String av = stored.path("apiVersion").asText("");
        return av.substring(av.indexOf('/') + 1);
    }

    // ---------------------------------------------------------------- read

    public Future<ObjectNode> get(ResourceType type, String version, String namespace, String name) {
        ObjectNode o = store.get(type, scoped(type, namespace), name);
        if (o == null) {
            return Future.failedFuture(ApiException.notFound(type, name));
        }
        return view(type, o, version);
    }

    public record ListOptions(LabelSelector labels, FieldSelector fields, long limit, String continueToken) {
    }

    public Future<ObjectNode> list(ResourceType type, String version, String namespace, ListOptions options) {
        NavigableMap<String, ObjectNode> objects = store.list(type, scoped(type, namespace));
        if (options.continueToken() != null && !options.continueToken().isEmpty()) {
            String after;
            try {
                after = new String(Base64.getUrlDecoder().decode(options.continueToken()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("invalid continue token \"" + options.continueToken() + "\"");
            }
            objects = objects.tailMap(after, false);
        }
        ObjectNode list = JSON.objectNode();
        list.put("apiVersion", type.apiVersion(version)).put("kind", type.listKind());
        ObjectNode meta = list.putObject("metadata");
        meta.put("resourceVersion", Long.toString(store.currentResourceVersion()));
        List<ObjectNode> selected = new ArrayList<>();
        String lastKey = null;
        long remaining = 0;
        for (Map.Entry<String, ObjectNode> e : objects.entrySet()) {
            ObjectNode o = e.getValue();
            if (!options.labels().matches(o) || !options.fields().matches(o)) {
                continue;
            }
            if (options.limit() > 0 && selected.size() >= options.limit()) {
                remaining++;
                continue;
            }
            selected.add(o);
            lastKey = e.getKey();
        }
        if (remaining > 0) {
            meta.put("continue", Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(lastKey.getBytes(StandardCharsets.UTF_8)));
            meta.put("remainingItemCount", remaining);
        }
        return views(type, selected, version).map(items -> {
            ArrayNode arr = list.putArray("items");
            items.forEach(arr::add);
            return list;
        });
    }

    // ---------------------------------------------------------------- create

    public Future<ObjectNode> create(ResourceType type, String version, String namespace, JsonNode body, boolean dryRun) {
        ObjectNode prepared;
        try {
            prepared = prepareCreate(type, version, namespace, body);
        } catch (ApiException e) {
            return Future.failedFuture(e);
        }
        String ns = JsonPaths.meta(prepared).namespace();
        String name = JsonPaths.meta(prepared).name();
        AdmissionAttributes attrs = new AdmissionAttributes(type, version, "CREATE", "", ns, name, prepared.deepCopy(), null, dryRun);
        return admit(attrs).compose(admitted -> toStorage(type, admitted)).compose(stored -> {
            resetServerFields(type, stored, prepared);
            if (dryRun) {
                if (store.get(type, ns, name) != null) {
                    return Future.failedFuture(ApiException.alreadyExists(type, name));
                }
                return view(type, stored, version);
            }
            return view(type, commitCreate(type, stored), version);
        });
    }

    private Future<ObjectNode> admit(AdmissionAttributes attrs) {
        return admission.mutate(attrs)
                .compose(mutated -> admission.validate(attrs.withObject(mutated)).map(v -> mutated));
    }

    private Future<ObjectNode> toStorage(ResourceType type, ObjectNode object) {
        return view(type, object, type.storageVersion());
    }

    /** Fields only the server sets survive admission unchanged (a webhook cannot forge a uid). */
    private static void resetServerFields(ResourceType type, ObjectNode stored, ObjectNode prepared) {
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

    ObjectNode prepareCreate(ResourceType type, String version, String pathNamespace, JsonNode body) {
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
            ObjectNode namespace = store.get(namespaces(), null, ns);
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
        meta.put("creationTimestamp", now());
        meta.put("generation", 1);
        meta.remove("resourceVersion");
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
        meta.remove("selfLink");
        defaultsOnCreate(type, o);
        BuiltInRules.normalize(type, o);
        BuiltInRules.allocateOnCreate(type, o, random);
        return o;
    }

    private void checkKind(ResourceType type, String version, ObjectNode o) {
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
        if (name.length() > 253 || !name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
            if (!(type.kind().equals("Node") || type.custom()) || name.isEmpty()) {
                throw ApiException.invalid(type, name, "metadata.name: Invalid value: \"" + name
                        + "\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'");
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

    private ObjectNode crdStatus(ObjectNode crd, ResourceType crType) {
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
            conditions.addObject().put("type", t).put("status", "True").put("lastTransitionTime", now())
                    .put("reason", t.equals("Established") ? "InitialNamesAccepted" : "NoConflicts")
                    .put("message", t.equals("Established") ? "the initial names have been accepted" : "no conflicts found");
        }
        status.putArray("storedVersions").add(crType.storageVersion());
        return status;
    }

    ObjectNode commitCreate(ResourceType type, ObjectNode stored) {
        JsonPaths.Meta m = JsonPaths.meta(stored);
        if (store.get(type, m.namespace(), m.name()) != null) {
            throw ApiException.alreadyExists(type, m.name());
        }
        if (isCrd(type)) {
            registry.register(stored);
        }
        return put(type, stored);
    }

    private ObjectNode put(ResourceType type, ObjectNode object) {
        ObjectNode previous = store.get(type, JsonPaths.meta(object).namespace(), JsonPaths.meta(object).name());
        store.put(type, object);
        gc.indexPut(type, previous, object);
        return object;
    }

    private static boolean isCrd(ResourceType type) {
        return !type.custom() && type.kind().equals("CustomResourceDefinition");
    }

    // ---------------------------------------------------------------- update and patch

    /** PUT on the main resource ({@code subresource} "") or on {@code status}. */
    public Future<ObjectNode> update(ResourceType type, String version, String namespace, String name,
                                     String subresource, JsonNode body, boolean dryRun) {
        if (body == null || !body.isObject()) {
            return Future.failedFuture(ApiException.badRequest("the request body must be a JSON object"));
        }
        ObjectNode requested = ((ObjectNode) body).deepCopy();
        try {
            checkKind(type, version, requested);
        } catch (ApiException e) {
            return Future.failedFuture(e);
        }
        return write(type, version, namespace, name, subresource, existing -> requested, dryRun);
    }

    public Future<ObjectNode> patch(ResourceType type, String version, String namespace, String name,
                                    String subresource, String contentType, JsonNode patch, boolean dryRun) {
        return write(type, version, namespace, name, subresource, existing -> {
            JsonNode patched = Patches.apply(contentType, existing, patch, !type.custom());
            if (!patched.isObject()) {
                throw ApiException.badRequest("the patch did not produce an object");
            }
            return (ObjectNode) patched;
        }, dryRun);
    }

    interface Change {
        ObjectNode apply(ObjectNode existingView);
    }

    private Future<ObjectNode> write(ResourceType type, String version, String namespace, String name,
                                     String subresource, Change change, boolean dryRun) {
        return write(type, version, namespace, name, subresource, change, dryRun, 5);
    }

    private Future<ObjectNode> write(ResourceType type, String version, String namespace, String name,
                                     String subresource, Change change, boolean dryRun, int attempts) {
        String ns = scoped(type, namespace);
        ObjectNode existing = store.get(type, ns, name);
        if (existing == null) {
            return Future.failedFuture(ApiException.notFound(type, name));
        }
        if (!subresource.isEmpty() && !(subresource.equals("status") && type.statusSubresource())) {
            return Future.failedFuture(new ApiException(404, "NotFound", "the server could not find the requested resource ("
                    + type.plural() + "/" + subresource + ")"));
        }
        return view(type, existing, version).compose(oldView -> {
            ObjectNode next;
            try {
                ObjectNode proposed = change.apply(oldView.deepCopy());
                next = prepareUpdate(type, oldView, proposed, subresource, name);
            } catch (ApiException e) {
                return Future.failedFuture(e);
            }
            AdmissionAttributes attrs = new AdmissionAttributes(type, version, "UPDATE", subresource, ns, name, next, oldView, dryRun);
            return admit(attrs);
        }).compose(admitted -> toStorage(type, admitted)).compose(stored -> {
            ObjectNode current = store.get(type, ns, name);
            if (current == null) {
                return Future.failedFuture(ApiException.notFound(type, name));
            }
            if (current != existing) {
                // Someone wrote while admission ran: apply the change again to the newer object, as kube-apiserver's
                // retry loop does (a request carrying the old resourceVersion then fails with 409).
                if (attempts <= 1) {
                    return Future.failedFuture(ApiException.conflict(type, name,
                            "the object has been modified; please apply your changes to the latest version and try again"));
                }
                return write(type, version, namespace, name, subresource, change, dryRun, attempts - 1);
            }
            keepServerFields(stored, existing);
            stored.put("apiVersion", type.apiVersion(type.storageVersion()));
            if (dryRun) {
                return view(type, stored, version);
            }
            return view(type, commitUpdate(type, existing, stored), version);
        });
    }

    private ObjectNode prepareUpdate(ResourceType type, ObjectNode oldView, ObjectNode proposed, String subresource, String name) {
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
        if (subresource.equals("status")) {
            next = oldView.deepCopy();
            JsonNode status = proposed.get("status");
            if (status == null) {
                next.remove("status");
            } else {
                next.set("status", status);
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
            if (isCrd(type)) {
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
    private static void keepServerFields(ObjectNode next, ObjectNode old) {
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

    ObjectNode commitUpdate(ResourceType type, ObjectNode existing, ObjectNode stored) {
        ObjectNode meta = JsonPaths.metadata(stored);
        long generation = existing.path("metadata").path("generation").asLong(1);
        if (!specOf(existing).equals(specOf(stored))) {
            generation++;
        }
        meta.put("generation", generation);
        meta.put("resourceVersion", existing.path("metadata").path("resourceVersion").asText());
        if (stored.equals(existing)) {
            return existing;
        }
        if (meta.has("deletionTimestamp") && finalizers(stored).isEmpty()
                && meta.path("deletionGracePeriodSeconds").asLong(0) == 0) {
            JsonPaths.Meta m = JsonPaths.meta(stored);
            return remove(type, m.namespace(), m.name(), stored);
        }
        if (isCrd(type)) {
            registry.register(stored);
        }
        return put(type, stored);
    }

    /** Everything but metadata and status: what a change of bumps metadata.generation. */
    private static ObjectNode specOf(ObjectNode o) {
        ObjectNode copy = o.deepCopy();
        copy.remove("metadata");
        copy.remove("status");
        copy.remove("apiVersion");
        return copy;
    }

    static List<String> finalizers(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.path("metadata").path("finalizers").forEach(f -> out.add(f.asText()));
        return out;
    }

    // ---------------------------------------------------------------- scale and binding

    public ObjectNode getScale(ResourceType type, String namespace, String name) {
        ResourceType.ScaleSubresource scale = scaleOf(type);
        ObjectNode o = store.get(type, scoped(type, namespace), name);
        if (o == null) {
            throw ApiException.notFound(type, name);
        }
        return scaleView(type, scale, o);
    }

    private ResourceType.ScaleSubresource scaleOf(ResourceType type) {
        if (type.scale() == null) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource (" + type.plural() + "/scale)");
        }
        return type.scale();
    }

    private ObjectNode scaleView(ResourceType type, ResourceType.ScaleSubresource scale, ObjectNode o) {
        ObjectNode s = JSON.objectNode();
        s.put("kind", "Scale").put("apiVersion", "autoscaling/v1");
        ObjectNode meta = s.putObject("metadata");
        JsonNode om = o.path("metadata");
        for (String f : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
            if (om.has(f)) {
                meta.set(f, om.get(f));
            }
        }
        s.putObject("spec").put("replicas", JsonPaths.at(o, scale.specReplicasPath()).asInt(0));
        ObjectNode status = s.putObject("status");
        status.put("replicas", JsonPaths.at(o, scale.statusReplicasPath()).asInt(0));
        if (!scale.labelSelectorPath().isEmpty()) {
            JsonNode sel = JsonPaths.at(o, scale.labelSelectorPath());
            if (sel.isTextual()) {
                status.put("selector", sel.asText());
            } else if (sel.isObject()) {
                status.put("selector", selectorString(sel));
            }
        }
        return s;
    }

    /** A metav1.LabelSelector in its query-string form, as the Scale subresource reports it. */
    static String selectorString(JsonNode selector) {
        List<String> parts = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> labels = selector.path("matchLabels").fields();
        while (labels.hasNext()) {
            Map.Entry<String, JsonNode> e = labels.next();
            parts.add(e.getKey() + "=" + e.getValue().asText());
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String key = r.path("key").asText();
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            switch (r.path("operator").asText()) {
                case "In" -> parts.add(key + " in (" + String.join(",", values) + ")");
                case "NotIn" -> parts.add(key + " notin (" + String.join(",", values) + ")");
                case "Exists" -> parts.add(key);
                case "DoesNotExist" -> parts.add("!" + key);
                default -> {
                }
            }
        }
        return String.join(",", parts);
    }

    /** PUT or PATCH of {@code /scale}: the change is made to a Scale view, then written to the replicas path. */
    public Future<ObjectNode> writeScale(ResourceType type, String version, String namespace, String name,
                                         java.util.function.UnaryOperator<ObjectNode> change, boolean dryRun) {
        ResourceType.ScaleSubresource scale;
        try {
            scale = scaleOf(type);
        } catch (ApiException e) {
            return Future.failedFuture(e);
        }
        return write(type, version, namespace, name, "", existing -> {
            ObjectNode wanted = change.apply(scaleView(type, scale, existing));
            String rv = wanted.path("metadata").path("resourceVersion").asText("");
            if (!rv.isEmpty() && !rv.equals(existing.path("metadata").path("resourceVersion").asText())) {
                throw ApiException.conflict(type, name, "the object has been modified; please apply your changes to the latest version and try again");
            }
            JsonNode replicas = wanted.path("spec").path("replicas");
            if (!replicas.canConvertToInt() || replicas.asInt() < 0) {
                throw ApiException.invalid(type, name, "spec.replicas: Invalid value: must be greater than or equal to 0");
            }
            ObjectNode next = existing.deepCopy();
            JsonPaths.set(next, scale.specReplicasPath(), replicas);
            return next;
        }, dryRun).map(updated -> scaleView(type, scale, store.get(type, scoped(type, namespace), name) != null
                ? store.get(type, scoped(type, namespace), name) : updated));
    }

    /** {@code POST pods/<name>/binding} or {@code POST bindings}: assigns a node, as the scheduler does. */
    public ObjectNode bind(String namespace, String podName, JsonNode binding) {
        ResourceType pods = registry.byKey("pods").orElseThrow();
        String target = binding.path("target").path("name").asText("");
        String name = podName != null ? podName : binding.path("metadata").path("name").asText("");
        if (target.isEmpty() || name.isEmpty()) {
            throw ApiException.badRequest("a Binding needs metadata.name and target.name");
        }
        ObjectNode pod = store.get(pods, namespace, name);
        if (pod == null) {
            throw ApiException.notFound(pods, name);
        }
        if (!pod.path("spec").path("nodeName").asText("").isEmpty()) {
            throw ApiException.conflict(pods, name, "pod " + name + " is already assigned to node \""
                    + pod.path("spec").path("nodeName").asText() + "\"");
        }
        if (pod.path("metadata").has("deletionTimestamp")) {
            throw ApiException.conflict(pods, name, "pod " + name + " is being deleted, cannot be assigned to a host");
        }
        ObjectNode next = pod.deepCopy();
        ((ObjectNode) next.get("spec")).put("nodeName", target);
        ObjectNode status = next.get("status") instanceof ObjectNode s ? s : next.putObject("status");
        setCondition(status, "PodScheduled", "True", null, null);
        commitUpdate(pods, pod, next);
        ObjectNode ok = JSON.objectNode();
        ok.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
        ok.put("status", "Success").put("code", 201);
        return ok;
    }

    static void setCondition(ObjectNode status, String type, String value, String reason, String message) {
        ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        ObjectNode cond = null;
        for (JsonNode c : conditions) {
            if (type.equals(c.path("type").asText())) {
                cond = (ObjectNode) c;
            }
        }
        if (cond == null) {
            cond = conditions.addObject().put("type", type);
        }
        if (!value.equals(cond.path("status").asText())) {
            cond.put("lastTransitionTime", now());
        }
        cond.put("status", value);
        if (reason != null) {
            cond.put("reason", reason);
        } else {
            cond.remove("reason");
        }
        if (message != null) {
            cond.put("message", message);
        } else {
            cond.remove("message");
        }
        cond.putNull("lastProbeTime");
    }

    // ---------------------------------------------------------------- delete

    public record DeleteOptions(String propagationPolicy, Long gracePeriodSeconds, String preconditionUid,
                                String preconditionResourceVersion, boolean dryRun) {
        public static DeleteOptions from(JsonNode body, Map<String, String> query) {
            JsonNode b = body == null ? JSON.objectNode() : body;
            String policy = query.getOrDefault("propagationPolicy", b.path("propagationPolicy").asText(null));
            if (policy == null && b.has("orphanDependents")) {
                policy = b.path("orphanDependents").asBoolean() ? "Orphan" : "Background";
            }
            if (policy == null && "true".equals(query.get("orphanDependents"))) {
                policy = "Orphan";
            }
            Long grace = null;
            if (query.containsKey("gracePeriodSeconds")) {
                try {
                    grace = Long.parseLong(query.get("gracePeriodSeconds"));
                } catch (NumberFormatException e) {
                    throw ApiException.badRequest("gracePeriodSeconds must be an integer");
                }
            } else if (b.has("gracePeriodSeconds") && !b.get("gracePeriodSeconds").isNull()) {
                grace = b.get("gracePeriodSeconds").asLong();
            }
            if (policy != null && !List.of("Orphan", "Background", "Foreground").contains(policy)) {
                throw ApiException.badRequest("propagationPolicy: Unsupported value: \"" + policy
                        + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
            }
            JsonNode pre = b.path("preconditions");
            boolean dry = b.path("dryRun").size() > 0 || query.containsKey("dryRun");
            return new DeleteOptions(policy, grace, pre.path("uid").asText(null),
                    pre.path("resourceVersion").asText(null), dry);
        }

        public static DeleteOptions background() {
            return new DeleteOptions("Background", null, null, null, false);
        }
    }

    public record DeleteResult(ObjectNode object, boolean removed) {
    }

    public Future<DeleteResult> delete(ResourceType type, String version, String namespace, String name, DeleteOptions options) {
        String ns = scoped(type, namespace);
        ObjectNode existing = store.get(type, ns, name);
        if (existing == null) {
            return Future.failedFuture(ApiException.notFound(type, name));
        }
        JsonNode meta = existing.path("metadata");
        if (options.preconditionUid() != null && !options.preconditionUid().equals(meta.path("uid").asText())) {
            return Future.failedFuture(ApiException.conflict(type, name, "Precondition failed: UID in precondition: "
                    + options.preconditionUid() + ", UID in object meta: " + meta.path("uid").asText()));
        }
        if (options.preconditionResourceVersion() != null
                && !options.preconditionResourceVersion().equals(meta.path("resourceVersion").asText())) {
            return Future.failedFuture(ApiException.conflict(type, name, "Precondition failed: ResourceVersion in precondition: "
                    + options.preconditionResourceVersion() + ", ResourceVersion in object meta: " + meta.path("resourceVersion").asText()));
        }
        return view(type, existing, version).compose(oldView -> admission.validate(
                new AdmissionAttributes(type, version, "DELETE", "", ns, name, null, oldView, options.dryRun()))).compose(v -> {
            ObjectNode current = store.get(type, ns, name);
            if (current == null) {
                return Future.failedFuture(ApiException.notFound(type, name));
            }
            if (options.dryRun()) {
                return view(type, current, version).map(o -> new DeleteResult(o, false));
            }
            DeleteResult r = deleteNow(type, current, options);
            return view(type, r.object(), version).map(o -> new DeleteResult(o, r.removed()));
        });
    }

    /** The delete decision once admitted; also used by the garbage collector and namespace cleanup. */
    DeleteResult deleteNow(ResourceType type, ObjectNode current, DeleteOptions options) {
        JsonPaths.Meta m = JsonPaths.meta(current);
        String policy = options.propagationPolicy() == null ? "Background" : options.propagationPolicy();
        if (policy.equals("Orphan")) {
            gc.orphanDependents(m.uid());
        }
        ObjectNode next = current.deepCopy();
        ObjectNode meta = JsonPaths.metadata(next);
        boolean deleting = meta.has("deletionTimestamp");
        if (type.kind().equals("Namespace") && !type.custom()) {
            if (!deleting) {
                meta.put("deletionTimestamp", now());
                meta.put("deletionGracePeriodSeconds", 0);
                ((ObjectNode) (next.get("status") instanceof ObjectNode s ? s : next.putObject("status"))).put("phase", "Terminating");
                put(type, next);
                gc.emptyNamespace(m.name());
            }
            ObjectNode stored = store.get(type, null, m.name());
            return new DeleteResult(stored != null ? stored : next, stored == null);
        }
        if (policy.equals("Foreground") && gc.hasDependents(m.uid())) {
            addFinalizer(meta, FOREGROUND_FINALIZER);
        }
        if (isPod(type)) {
            long grace = options.gracePeriodSeconds() != null ? options.gracePeriodSeconds()
                    : current.path("spec").path("terminationGracePeriodSeconds").asLong(DEFAULT_GRACE_SECONDS);
            String phase = current.path("status").path("phase").asText("");
            boolean running = !current.path("spec").path("nodeName").asText("").isEmpty()
                    && !phase.equals("Succeeded") && !phase.equals("Failed");
            if (!running) {
                grace = 0;
            }
            long already = meta.path("deletionGracePeriodSeconds").asLong(Long.MAX_VALUE);
            if (grace > 0 && (!deleting || grace < already)) {
                meta.put("deletionTimestamp", Instant.now().plusSeconds(grace).truncatedTo(ChronoUnit.SECONDS).toString());
                meta.put("deletionGracePeriodSeconds", grace);
                return new DeleteResult(put(type, next), false);
            }
            if (grace > 0) {
                return new DeleteResult(current, false);
            }
            meta.put("deletionGracePeriodSeconds", 0);
        }
        if (!finalizers(next).isEmpty()) {
            if (!meta.has("deletionTimestamp")) {
                meta.put("deletionTimestamp", now());
            }
            meta.put("deletionGracePeriodSeconds", 0);
            if (next.equals(current)) {
                return new DeleteResult(current, false);
            }
            ObjectNode stored = put(type, next);
            if (finalizers(next).contains(FOREGROUND_FINALIZER)) {
                gc.deleteDependents(m.uid());
            }
            return new DeleteResult(stored, false);
        }
        return new DeleteResult(remove(type, m.namespace(), m.name()), true);
    }

    private static void addFinalizer(ObjectNode meta, String finalizer) {
        ArrayNode f = meta.get("finalizers") instanceof ArrayNode a ? a : meta.putArray("finalizers");
        for (JsonNode x : f) {
            if (finalizer.equals(x.asText())) {
                return;
            }
        }
        f.add(finalizer);
    }

    ObjectNode remove(ResourceType type, String namespace, String name) {
        return remove(type, namespace, name, null);
    }

    private ObjectNode remove(ResourceType type, String namespace, String name, ObjectNode finalState) {
        ObjectNode last = store.remove(type, namespace, name, finalState);
        if (last == null) {
            return null;
        }
        gc.indexRemove(type, last);
        if (isCrd(type)) {
            // Its objects go as if deleted one by one, so the garbage collector sees them go (and their dependents).
            registry.unregister(last).ifPresent(this::removeAll);
        }
        gc.afterRemoval(type, last);
        return last;
    }

    private void removeAll(ResourceType type) {
        for (ObjectNode o : new ArrayList<>(store.all(type))) {
            JsonPaths.Meta m = JsonPaths.meta(o);
            remove(type, m.namespace(), m.name());
        }
    }

    /** DELETE on a collection: each matching object is deleted as if one by one. */
    public Future<ObjectNode> deleteCollection(ResourceType type, String version, String namespace, ListOptions selection,
                                               DeleteOptions options) {
        return list(type, version, namespace, new ListOptions(selection.labels(), selection.fields(), 0, null))
                .compose(list -> deleteListed(type, version, list, options));
    }

    private Future<ObjectNode> deleteListed(ResourceType type, String version, ObjectNode list, DeleteOptions options) {
        List<Future<DeleteResult>> deletions = new ArrayList<>();
        for (JsonNode item : list.path("items")) {
            JsonPaths.Meta m = JsonPaths.meta(item);
            deletions.add(delete(type, version, m.namespace(), m.name(), options)
                    .recover(e -> e instanceof ApiException a && a.code() == 404 ? Future.succeededFuture(null) : Future.failedFuture(e)));
        }
        return Future.all(deletions).map(all -> {
            ArrayNode items = JSON.arrayNode();
            for (Future<DeleteResult> d : deletions) {
                if (d.result() != null) {
                    items.add(d.result().object());
                }
            }
            list.set("items", items);
            return list;
        });
    }

    private static boolean isPod(ResourceType type) {
        return !type.custom() && type.group().isEmpty() && type.kind().equals("Pod");
    }

    private static String scoped(ResourceType type, String namespace) {
        return type.namespaced() ? namespace : null;
    }

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private String randomSuffix() {
        StringBuilder sb = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            sb.append(NAME_SUFFIX_ALPHABET.charAt(random.nextInt(NAME_SUFFIX_ALPHABET.length())));
        }
        return sb.toString();
    }
}
