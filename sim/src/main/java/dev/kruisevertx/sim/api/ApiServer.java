package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * The semantics of kube-apiserver's resource endpoints over an {@link ObjectStore}: create, read, list, update,
 * patch, delete, the status / scale / binding subresources, finalizers, graceful pod deletion, namespace
 * lifecycle, CRD registration and (through {@link GarbageCollector}) ownerReference garbage collection.
 * Every method runs on the one context that owns the store.
 */
public final class ApiServer {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final int DEFAULT_GRACE_SECONDS = 30;
    static final String FOREGROUND_FINALIZER = "foregroundDeletion";
    static final String ORPHAN_FINALIZER = "orphan";

    private final Vertx vertx;
    private final io.vertx.core.Context context;
    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final GarbageCollector gc;
    private final ObjectPreparer preparer;
    private final PodBinder binder;
    private final Evictions evictions;
    private final WatchHolds watchHolds = new WatchHolds();
    private volatile Admission admission = Admission.NONE;
    private volatile VersionConverter converter = VersionConverter.NONE;

    /** {@code context} is the one context every later call comes from. */
    public ApiServer(Vertx vertx, io.vertx.core.Context context, int eventLogSize) {
        this.vertx = vertx;
        this.context = context;
        this.store = new ObjectStore(eventLogSize);
        this.registry = new ResourceRegistry();
        this.gc = new GarbageCollector(this, store, registry);
        this.preparer = new ObjectPreparer(store, registry);
        this.binder = new PodBinder(this);
        DisruptionBudgets budgets = new DisruptionBudgets(this);
        budgets.start();
        this.evictions = new Evictions(this, budgets);
        for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            ObjectNode namespace = JSON.objectNode();
            namespace.put("apiVersion", "v1").put("kind", "Namespace");
            namespace.putObject("metadata").put("name", ns);
            commitCreate(namespaces(), preparer.forCreate(namespaces(), "v1", null, namespace));
        }
    }

    public ObjectStore store() {
        return store;
    }

    /** Watches held back on demand (tests of a lagging cache). */
    public WatchHolds watchHolds() {
        return watchHolds;
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

    ResourceType namespaces() {
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
        boolean unfiltered = options.labels().isEmpty() && options.fields().isEmpty();
        for (Map.Entry<String, ObjectNode> e : objects.entrySet()) {
            if (unfiltered && options.limit() > 0 && selected.size() >= options.limit()) {
                // A full page of an unfiltered list: what is left is counted without looking into the objects, and
                // only up to a bound (above it remainingItemCount, an optional estimate in Kubernetes, is left out).
                // Matching or counting every remaining object on every page made a paged list of N objects cost
                // N²/limit steps: a million pods listed 500 at a time held this loop for minutes.
                remaining = countUpTo(objects.tailMap(lastKey, false), REMAINING_COUNT_BOUND);
                break;
            }
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
        if (remaining != 0) {
            meta.put("continue", Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(lastKey.getBytes(StandardCharsets.UTF_8)));
            if (remaining > 0) {
                meta.put("remainingItemCount", remaining);
            }
        }
        return views(type, selected, version).map(items -> {
            ArrayNode arr = list.putArray("items");
            items.forEach(arr::add);
            return list;
        });
    }

    /** Above this many objects left after a page of an unfiltered list, remainingItemCount is left out. */
    static final int REMAINING_COUNT_BOUND = 10_000;

    /** The size of {@code rest}, or -1 when it holds more than {@code bound} (counting stops there). */
    private static long countUpTo(NavigableMap<String, ObjectNode> rest, int bound) {
        long n = 0;
        for (String ignored : rest.keySet()) {
            if (++n > bound) {
                return -1;
            }
        }
        return n;
    }

    // ---------------------------------------------------------------- create

    public Future<ObjectNode> create(ResourceType type, String version, String namespace, JsonNode body, boolean dryRun) {
        ObjectNode prepared;
        try {
            prepared = preparer.forCreate(type, version, namespace, body);
        } catch (ApiException e) {
            return Future.failedFuture(e);
        }
        String ns = JsonPaths.meta(prepared).namespace();
        String name = JsonPaths.meta(prepared).name();
        AdmissionAttributes attrs = new AdmissionAttributes(type, version, "CREATE", "", ns, name, prepared.deepCopy(), null, dryRun);
        return admit(attrs).compose(admitted -> toStorage(type, admitted)).compose(stored -> {
            ObjectPreparer.resetServerFields(type, stored, prepared);
            if (type.custom() && type.statusSubresource()) {
                // As kube-apiserver's PrepareForCreate, after mutating admission: a custom resource with the status
                // subresource starts without status, whatever a webhook added.
                stored.remove("status");
            }
            if (dryRun) {
                if (store.get(type, ns, name) != null) {
                    return Future.failedFuture(ApiException.alreadyExists(type, name));
                }
                return view(type, stored, version);
            }
            return view(type, commitCreate(type, stored), version);
        });
    }

    Future<ObjectNode> admit(AdmissionAttributes attrs) {
        return admission.mutate(attrs)
                .compose(mutated -> admission.validate(attrs.withObject(mutated)).map(v -> mutated));
    }

    private Future<ObjectNode> toStorage(ResourceType type, ObjectNode object) {
        return view(type, object, type.storageVersion());
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

    static boolean isCrd(ResourceType type) {
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
            ObjectPreparer.checkKind(type, version, requested);
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
        if (!subresource.isEmpty() && !(subresource.equals("status") && type.statusSubresource())
                && !(subresource.equals("ephemeralcontainers") && isPod(type))) {
            return Future.failedFuture(new ApiException(404, "NotFound", "the server could not find the requested resource ("
                    + type.plural() + "/" + subresource + ")"));
        }
        return view(type, existing, version).compose(oldView -> {
            ObjectNode next;
            try {
                ObjectNode proposed = change.apply(oldView.deepCopy());
                next = preparer.forUpdate(type, oldView, proposed, subresource, name);
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
            ObjectPreparer.keepServerFields(stored, existing);
            if (subresource.isEmpty() && type.statusSubresource() && !isCrd(type)) {
                // As kube-apiserver's PrepareForUpdate, after mutating admission: a write of the main resource never
                // changes the status, whatever a webhook patched.
                JsonNode oldStatus = existing.get("status");
                if (oldStatus == null) {
                    stored.remove("status");
                } else {
                    stored.set("status", oldStatus.deepCopy());
                }
            }
            stored.put("apiVersion", type.apiVersion(type.storageVersion()));
            if (dryRun) {
                return view(type, stored, version);
            }
            return view(type, commitUpdate(type, existing, stored), version);
        });
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
        ResourceType.ScaleSubresource scale = ScaleViews.scaleOf(type);
        ObjectNode o = store.get(type, scoped(type, namespace), name);
        if (o == null) {
            throw ApiException.notFound(type, name);
        }
        return ScaleViews.view(scale, o);
    }

    /** PUT or PATCH of {@code /scale}: the change is made to a Scale view, then written to the replicas path. */
    public Future<ObjectNode> writeScale(ResourceType type, String version, String namespace, String name,
                                         java.util.function.UnaryOperator<ObjectNode> change, boolean dryRun) {
        ResourceType.ScaleSubresource scale;
        try {
            scale = ScaleViews.scaleOf(type);
        } catch (ApiException e) {
            return Future.failedFuture(e);
        }
        return write(type, version, namespace, name, "", existing -> {
            ObjectNode wanted = change.apply(ScaleViews.view(scale, existing));
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
        }, dryRun).map(updated -> ScaleViews.view(scale, store.get(type, scoped(type, namespace), name) != null
                ? store.get(type, scoped(type, namespace), name) : updated));
    }

    /** {@code POST pods/<name>/binding} or {@code POST bindings}: assigns a node, as the scheduler does. */
    public ObjectNode bind(String namespace, String podName, JsonNode binding) {
        return binder.bind(namespace, podName, binding);
    }

    /** {@code POST pods/<name>/eviction}; see {@link Evictions}. */
    public Future<ObjectNode> evict(ResourceType type, String version, String namespace, String name, JsonNode eviction) {
        return evictions.evict(type, version, namespace, name, eviction);
    }

    // ---------------------------------------------------------------- delete

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


}
