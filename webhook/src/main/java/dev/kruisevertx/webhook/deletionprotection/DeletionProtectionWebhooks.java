package dev.kruisevertx.webhook.deletionprotection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtection.ClusterState;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtection.Decision;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtection.Gates;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtectionLookup.CustomResourceType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The deletion-protection webhooks: OpenKruise's paths for namespaces, CRDs, Deployments, ReplicaSets, apps/v1
 * StatefulSets, Services and Ingresses, and the DELETE branch of the CloneSet, Advanced StatefulSet and UnitedDeployment
 * validating webhooks ({@link #guardDeletes}). A refusal is 403 with OpenKruise's message, counted in
 * {@code namespace_deletion_protection}, {@code crd_deletion_protection} or {@code workload_deletion_protection} with
 * the requesting user, and logged as one line (names only).
 */
public final class DeletionProtectionWebhooks {
    public static final String NAMESPACE_PATH = "/validate-namespace";
    public static final String CRD_PATH = "/validate-customresourcedefinition";
    public static final String DEPLOYMENT_PATH = "/validate-apps-deployment";
    public static final String REPLICA_SET_PATH = "/validate-apps-replicaset";
    public static final String STATEFUL_SET_PATH = "/validate-apps-statefulset";
    public static final String SERVICE_PATH = "/validate-service";
    public static final String INGRESS_PATH = "/validate-ingress";

    public static final String NAMESPACE_METRIC = "namespace_deletion_protection";
    public static final String CRD_METRIC = "crd_deletion_protection";
    public static final String WORKLOAD_METRIC = "workload_deletion_protection";

    private static final Logger LOG = LoggerFactory.getLogger(DeletionProtectionWebhooks.class);

    private final Gates gates;
    private final DeletionProtectionLookup lookup;
    private final MeterRegistry meters;

    public DeletionProtectionWebhooks(Gates gates, DeletionProtectionLookup lookup, MeterRegistry meters) {
        this.gates = gates;
        this.lookup = lookup;
        this.meters = meters;
    }

    /**
     * Registers the paths of the built-in kinds. As OpenKruise, the Service and Ingress paths exist only with the gate
     * on (the manager then drops their configuration entries); the others answer "allowed" while it is off.
     */
    public void register(AdmissionRegistry registry) {
        AdmissionHandler protect = deletesOnly();
        registry.register(NAMESPACE_PATH, protect);
        registry.register(CRD_PATH, protect);
        registry.register(DEPLOYMENT_PATH, protect);
        registry.register(REPLICA_SET_PATH, protect);
        registry.register(STATEFUL_SET_PATH, protect);
        if (gates.resourcesDeletionProtection()) {
            registry.register(SERVICE_PATH, protect);
            registry.register(INGRESS_PATH, protect);
        }
    }

    /**
     * Puts deletion protection in front of a kind's validating webhook at {@code path}: DELETE requests are judged
     * here, every other request goes to the webhook already registered. With no webhook there yet (a kind this
     * project does not validate yet), the path judges deletes only and allows the rest.
     */
    public void protectDeletesAt(AdmissionRegistry registry, String path) {
        if (registry.find(path).isPresent()) {
            registry.decorate(path, this::guardDeletes);
        } else {
            registry.register(path, deletesOnly());
        }
    }

    /** {@code validating} for every request but DELETE, which is judged here. */
    public AdmissionHandler guardDeletes(AdmissionHandler validating) {
        return request -> request.isDelete() ? judge(request) : validating.handle(request);
    }

    /** Judges deletes and allows everything else. */
    public AdmissionHandler deletesOnly() {
        return request -> request.isDelete() ? judge(request) : Future.succeededFuture(AdmissionResponse.allow());
    }

    /** The answer to one request: OpenKruise skips sub-resources, requests without the old object and other kinds. */
    public Future<AdmissionResponse> judge(AdmissionRequest request) {
        if (!request.isDelete() || !request.subResource().isEmpty() || request.oldObject() == null) {
            return Future.succeededFuture(AdmissionResponse.allow());
        }
        ProtectedKind kind = ProtectedKind.of(request.group(), request.kind()).orElse(null);
        if (kind == null) {
            return Future.succeededFuture(AdmissionResponse.allow());
        }
        Target target;
        try {
            target = Target.read(kind, request.oldObject());
        } catch (IllegalArgumentException e) {
            return Future.succeededFuture(AdmissionResponse.errored(400, "cannot judge the deletion of " + kind.kind()
                    + " " + display(request) + ": " + e.getMessage()));
        }
        return state(request, kind, target)
                .map(state -> DeletionProtection.decide(kind, target.label(), target.deleting(), gates, state))
                .recover(e -> e instanceof LookupFailed ? Future.succeededFuture(Decision.refuse(e.getMessage()))
                        : Future.failedFuture(e))
                .map(decision -> answer(request, kind, target, decision))
                .recover(e -> e instanceof IllegalArgumentException ? Future.succeededFuture(AdmissionResponse.errored(
                        400, "cannot judge the deletion of " + kind.kind() + " " + display(request) + ": "
                                + e.getMessage())) : Future.failedFuture(e));
    }

    private Future<ClusterState> state(AdmissionRequest request, ProtectedKind kind, Target target) {
        return switch (DeletionProtection.lookups(kind, target.label(), target.deleting(), gates)) {
            case NONE -> Future.succeededFuture(ClusterState.replicas(target.replicas()));
            case NAMESPACE_CONTENTS -> {
                String namespace = target.name();
                yield lookup.activePods(namespace)
                        .recover(e -> Future.failedFuture(new LookupFailed(
                                "forbidden by ResourcesProtectionDeletion for list pods error: " + reason(e))))
                        .compose(pods -> pods > 0 ? Future.succeededFuture(ClusterState.namespace(pods, 0))
                                : lookup.boundClaims(namespace).recover(e -> Future.failedFuture(new LookupFailed(
                                        "forbidden by ResourcesProtectionDeletion for list pvc error: " + reason(e))))
                                .map(claims -> ClusterState.namespace(0, claims)));
            }
            case CUSTOM_RESOURCES -> {
                CustomResourceType type;
                try {
                    type = Target.customResourceType(target.crdSpec());
                } catch (IllegalArgumentException e) {
                    yield Future.failedFuture(e);
                }
                yield lookup.activeCustomResources(type)
                        .recover(e -> Future.failedFuture(new LookupFailed("failed to list CRs of " + type + ": "
                                + reason(e))))
                        .map(ClusterState::customResources);
            }
        };
    }

    private AdmissionResponse answer(AdmissionRequest request, ProtectedKind kind, Target target, Decision decision) {
        if (!decision.refused()) {
            return decision.warning().map(w -> AdmissionResponse.allow().withWarnings(List.of(w)))
                    .orElseGet(AdmissionResponse::allow);
        }
        count(request, kind, target);
        LOG.info("deletion protection refused deleting {} {} requested by {}", request.kind(), display(request),
                request.username());
        return AdmissionResponse.denied(403, decision.message());
    }

    /** OpenKruise counts namespaces, CRDs and workloads; Services and Ingresses are refused uncounted. */
    private void count(AdmissionRequest request, ProtectedKind kind, Target target) {
        String user = request.username();
        switch (kind) {
            case NAMESPACE -> Counter.builder(NAMESPACE_METRIC).description("Namespace Deletion Protection")
                    .tag("name", target.name()).tag("username", user).register(meters).increment();
            case CUSTOM_RESOURCE_DEFINITION -> Counter.builder(CRD_METRIC)
                    .description("CustomResourceDefinition Deletion Protection")
                    .tag("name", target.name()).tag("username", user).register(meters).increment();
            case SERVICE, INGRESS -> {
            }
            default -> Counter.builder(WORKLOAD_METRIC).description("Workload Deletion Protection")
                    .tag("kind_namespace_name", request.kind() + "_" + target.namespace() + "_" + target.name())
                    .tag("username", user).register(meters).increment();
        }
    }

    private static String display(AdmissionRequest request) {
        return request.namespace() == null || request.namespace().isEmpty() ? request.name()
                : request.namespace() + "/" + request.name();
    }

    /** A failed lookup refuses the delete with OpenKruise's message (the webhook cannot tell it is safe). */
    private static final class LookupFailed extends RuntimeException {
        LookupFailed(String message) {
            super(message, null, false, false);
        }
    }

    private static String reason(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * What the decision reads from the object being deleted: only metadata, {@code spec.replicas} and, for a CRD, its
     * names and storage version. Nothing else is decoded, so a huge object costs one tree walk.
     */
    record Target(String namespace, String name, String label, boolean deleting, Integer replicas, JsonNode crdSpec) {
        static Target read(ProtectedKind kind, ObjectNode object) {
            JsonNode meta = object.path("metadata");
            if (!meta.isObject()) {
                throw new IllegalArgumentException("metadata: must be an object");
            }
            JsonNode labels = meta.path("labels");
            if (!labels.isMissingNode() && !labels.isNull() && !labels.isObject()) {
                throw new IllegalArgumentException("metadata.labels: must be a map of strings");
            }
            JsonNode label = labels.path(DeletionProtection.LABEL);
            if (!label.isMissingNode() && !label.isNull() && !label.isTextual()) {
                throw new IllegalArgumentException("metadata.labels[" + DeletionProtection.LABEL + "]: must be a string");
            }
            JsonNode deletion = meta.path("deletionTimestamp");
            boolean deleting = !deletion.isMissingNode() && !deletion.isNull();
            Integer replicas = null;
            if (kind.cascading() == ProtectedKind.Cascading.REPLICAS) {
                JsonNode r = object.path("spec").path("replicas");
                if (!r.isMissingNode() && !r.isNull()) {
                    if (!r.isIntegralNumber() || !r.canConvertToInt()) {
                        throw new IllegalArgumentException("spec.replicas: must be a 32-bit integer");
                    }
                    replicas = r.asInt();
                }
            }
            return new Target(meta.path("namespace").asText(""), meta.path("name").asText(""),
                    label.isTextual() ? label.asText() : null, deleting, replicas, object.path("spec"));
        }

        /**
         * The storage version of a v1 CRD, or of a v1beta1 CRD with only {@code spec.version}; read only when the
         * decision needs to count the CRD's objects.
         */
        static CustomResourceType customResourceType(JsonNode spec) {
            String group = text(spec.path("group"), "spec.group");
            String plural = text(spec.path("names").path("plural"), "spec.names.plural");
            String kind = text(spec.path("names").path("kind"), "spec.names.kind");
            String version = null;
            for (JsonNode v : spec.path("versions")) {
                if (v.path("storage").asBoolean(false)) {
                    version = v.path("name").asText(null);
                    break;
                }
            }
            if (version == null) {
                version = spec.path("version").isTextual() ? spec.path("version").asText() : null;
            }
            if (version == null || version.isEmpty()) {
                throw new IllegalArgumentException("spec.versions: no storage version");
            }
            return new CustomResourceType(group, version, kind, plural, !"Cluster".equals(spec.path("scope").asText()));
        }

        private static String text(JsonNode v, String path) {
            if (!v.isTextual() || v.asText().isEmpty()) {
                throw new IllegalArgumentException(path + ": required");
            }
            return v.asText();
        }
    }
}
