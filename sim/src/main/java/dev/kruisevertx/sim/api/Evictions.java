package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * {@code POST pods/<name>/eviction} as kube-apiserver serves it: the Eviction (policy/v1 or v1beta1) goes through
 * admission as a CREATE of {@code pods/eviction} (so validating webhooks registered for it can refuse it); then a pod
 * that is not running (Pending, Succeeded, Failed) or already being deleted is deleted outright; otherwise the one
 * PodDisruptionBudget that selects it must allow a disruption: if so its {@code disruptionsAllowed} is spent (the pod
 * enters {@code disruptedPods}) and the pod is deleted, else 429 "Cannot evict pod as it would violate the pod's
 * disruption budget.". An unready pod may go while the budget is healthy
 * ({@code unhealthyPodEvictionPolicy: IfHealthyBudget}, the default) or always ({@code AlwaysAllow}).
 */
final class Evictions {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final String VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

    private final ApiServer api;
    private final DisruptionBudgets budgets;

    Evictions(ApiServer api, DisruptionBudgets budgets) {
        this.api = api;
        this.budgets = budgets;
    }

    Future<ObjectNode> evict(ResourceType pods, String version, String namespace, String name, JsonNode body) {
        if (body == null || !body.isObject()) {
            return Future.failedFuture(ApiException.badRequest("the request body must be an Eviction"));
        }
        String apiVersion = body.path("apiVersion").asText("policy/v1");
        if (!body.path("kind").asText("Eviction").equals("Eviction")
                || !(apiVersion.equals("policy/v1") || apiVersion.equals("policy/v1beta1"))) {
            return Future.failedFuture(ApiException.badRequest("the body of pods/eviction must be a policy/v1 or policy/v1beta1 Eviction, got "
                    + apiVersion + " " + body.path("kind").asText("")));
        }
        String bodyName = body.path("metadata").path("name").asText("");
        if (!bodyName.isEmpty() && !bodyName.equals(name)) {
            return Future.failedFuture(ApiException.badRequest("name in URL does not match name in Eviction object"));
        }
        if (api.store().get(pods, namespace, name) == null) {
            return Future.failedFuture(ApiException.notFound(pods, name));
        }
        ObjectNode eviction = ((ObjectNode) body).deepCopy();
        ObjectNode meta = eviction.get("metadata") instanceof ObjectNode m ? m : eviction.putObject("metadata");
        meta.put("name", name).put("namespace", namespace);
        eviction.put("apiVersion", apiVersion).put("kind", "Eviction");
        boolean dryRun = isDryRun(eviction.path("deleteOptions"));
        AdmissionAttributes attrs = new AdmissionAttributes(pods, version, "CREATE", "eviction", namespace, name, eviction,
                null, dryRun, new AdmissionAttributes.Kind("policy", apiVersion.substring("policy/".length()), "Eviction"));
        return api.admit(attrs).compose(admitted -> decide(pods, namespace, name, admitted, dryRun));
    }

    private Future<ObjectNode> decide(ResourceType pods, String namespace, String name, ObjectNode eviction, boolean dryRun) {
        ObjectNode pod = api.store().get(pods, namespace, name);
        if (pod == null) {
            return Future.failedFuture(ApiException.notFound(pods, name));
        }
        DeleteOptions options = DeleteOptions.from(eviction.path("deleteOptions").isObject() ? eviction.get("deleteOptions") : null, Map.of());
        String phase = pod.path("status").path("phase").asText("");
        if (phase.equals("Succeeded") || phase.equals("Failed") || phase.equals("Pending") || phase.isEmpty()
                || pod.path("metadata").has("deletionTimestamp")) {
            return delete(pods, pod, options, dryRun);
        }
        List<ObjectNode> matching = budgets.matching(pod);
        if (matching.isEmpty()) {
            return delete(pods, pod, options, dryRun);
        }
        if (matching.size() > 1) {
            return Future.failedFuture(new ApiException(500, "InternalError",
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."));
        }
        // Judged on a fresh status, as the disruption controller would have written it by now.
        ObjectNode pdb = budgets.refresh(matching.get(0));
        JsonNode status = pdb.path("status");
        String pdbName = pdb.path("metadata").path("name").asText();
        int healthy = status.path("currentHealthy").asInt();
        int desired = status.path("desiredHealthy").asInt();
        if (!DisruptionBudgets.ready(pod)) {
            String policy = pdb.path("spec").path("unhealthyPodEvictionPolicy").asText("IfHealthyBudget");
            if (policy.equals("AlwaysAllow") || healthy >= desired) {
                return delete(pods, pod, options, dryRun);
            }
        }
        int allowed = status.path("disruptionsAllowed").asInt();
        if (allowed <= 0) {
            return Future.failedFuture(tooManyRequests("The disruption budget " + pdbName + " needs " + desired
                    + " healthy pods and has " + healthy + " currently"));
        }
        if (dryRun) {
            return Future.succeededFuture(success());
        }
        ObjectNode next = pdb.deepCopy();
        ObjectNode nextStatus = (ObjectNode) next.get("status");
        nextStatus.put("disruptionsAllowed", allowed - 1);
        ObjectNode disrupted = nextStatus.get("disruptedPods") instanceof ObjectNode d ? d : nextStatus.putObject("disruptedPods");
        disrupted.put(name, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        api.commitUpdate(budgets.budgets(), pdb, next);
        return delete(pods, pod, options, dryRun);
    }

    private Future<ObjectNode> delete(ResourceType pods, ObjectNode pod, DeleteOptions options, boolean dryRun) {
        if (!dryRun) {
            // As kube-apiserver's eviction REST: the pod's storage delete, without a second round of admission.
            api.deleteNow(pods, pod, options);
        }
        return Future.succeededFuture(success());
    }

    private static boolean isDryRun(JsonNode deleteOptions) {
        for (JsonNode d : deleteOptions.path("dryRun")) {
            if ("All".equals(d.asText())) {
                return true;
            }
        }
        return false;
    }

    private static ApiException tooManyRequests(String cause) {
        return new ApiException(429, "TooManyRequests", VIOLATION).withCause("DisruptionBudget", cause);
    }

    static ObjectNode success() {
        ObjectNode ok = JSON.objectNode();
        ok.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
        ok.put("status", "Success").put("code", 201);
        return ok;
    }
}
