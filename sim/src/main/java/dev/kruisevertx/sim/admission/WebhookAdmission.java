package dev.kruisevertx.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.sim.api.Admission;
import dev.kruisevertx.sim.api.AdmissionAttributes;
import dev.kruisevertx.sim.api.ApiException;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.zjsonpatch.JsonPatch;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * Admission through the webhooks of stored MutatingWebhookConfiguration and ValidatingWebhookConfiguration
 * objects: AdmissionReview v1 over HTTPS verified against each webhook's {@code caBundle}, honouring rules,
 * namespaceSelector, objectSelector, failurePolicy and timeoutSeconds; mutating webhooks run in order and their
 * JSONPatch responses are applied, validating webhooks run in parallel. A {@code service} reference is reached at
 * the address configured for it (e.g. a webhook server on localhost).
 */
public final class WebhookAdmission implements Admission {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ApiServer api;
    private final WebhookClient client;

    public WebhookAdmission(ApiServer api, WebhookClient client) {
        this.api = api;
        this.client = client;
    }

    private record Hook(String configuration, JsonNode webhook) {
        String name() {
            return webhook.path("name").asText();
        }
    }

    @Override
    public Future<ObjectNode> mutate(AdmissionAttributes attributes) {
        List<Hook> hooks = matching("mutatingwebhookconfigurations", attributes);
        Future<ObjectNode> chain = Future.succeededFuture(attributes.object());
        for (Hook hook : hooks) {
            chain = chain.compose(object -> call(hook, attributes.withObject(object)).map(response -> {
                JsonNode patch = response.path("patch");
                if (patch.isMissingNode() || patch.isNull() || object == null) {
                    return object;
                }
                if (!"JSONPatch".equals(response.path("patchType").asText("JSONPatch"))) {
                    throw new ApiException(500, "InternalError", "admission webhook \"" + hook.name()
                            + "\" returned an unsupported patchType " + response.path("patchType").asText());
                }
                try {
                    JsonNode ops = MAPPER.readTree(Base64.getDecoder().decode(patch.asText()));
                    return (ObjectNode) JsonPatch.apply(ops, object);
                } catch (Exception e) {
                    throw new ApiException(500, "InternalError", "admission webhook \"" + hook.name()
                            + "\" returned an invalid patch: " + e.getMessage());
                }
            }));
        }
        return chain;
    }

    @Override
    public Future<Void> validate(AdmissionAttributes attributes) {
        List<Future<JsonNode>> calls = new ArrayList<>();
        for (Hook hook : matching("validatingwebhookconfigurations", attributes)) {
            calls.add(call(hook, attributes));
        }
        return Future.all(calls).mapEmpty();
    }

    private List<Hook> matching(String configurationPlural, AdmissionAttributes a) {
        // Webhook configurations themselves are never sent to webhooks (so a broken webhook can be removed).
        if (a.type().group().equals("admissionregistration.k8s.io")) {
            return List.of();
        }
        ResourceType configType = api.registry().byKey(configurationPlural + ".admissionregistration.k8s.io").orElseThrow();
        List<ObjectNode> configs = new ArrayList<>(api.store().all(configType));
        configs.sort(Comparator.comparing(c -> c.path("metadata").path("name").asText()));
        List<Hook> out = new ArrayList<>();
        for (ObjectNode config : configs) {
            for (JsonNode webhook : config.path("webhooks")) {
                if (WebhookRules.ruleMatches(webhook, a) && namespaceMatches(webhook, a) && objectMatches(webhook, a)) {
                    out.add(new Hook(config.path("metadata").path("name").asText(), webhook));
                }
            }
        }
        return out;
    }

    private boolean namespaceMatches(JsonNode webhook, AdmissionAttributes a) {
        JsonNode selector = webhook.get("namespaceSelector");
        if (a.type().kind().equals("Namespace") && a.type().group().isEmpty()) {
            ObjectNode ns = a.object() != null ? a.object() : a.oldObject();
            return WebhookRules.selectorMatches(selector, ns.path("metadata").path("labels"));
        }
        if (!a.type().namespaced()) {
            return true;
        }
        ResourceType namespaces = api.registry().byKey("namespaces").orElseThrow();
        ObjectNode ns = api.store().get(namespaces, null, a.namespace());
        JsonNode labels = ns == null ? MAPPER.createObjectNode() : ns.path("metadata").path("labels");
        return WebhookRules.selectorMatches(selector, labels);
    }

    private static boolean objectMatches(JsonNode webhook, AdmissionAttributes a) {
        JsonNode selector = webhook.get("objectSelector");
        boolean now = a.object() != null && WebhookRules.selectorMatches(selector, a.object().path("metadata").path("labels"));
        boolean before = a.oldObject() != null && WebhookRules.selectorMatches(selector, a.oldObject().path("metadata").path("labels"));
        return now || before;
    }

    /** Sends the review; returns the response part, or fails with the ApiException the client should see. */
    private Future<JsonNode> call(Hook hook, AdmissionAttributes a) {
        boolean ignore = "Ignore".equals(hook.webhook().path("failurePolicy").asText("Fail"));
        ObjectNode review = review(a);
        String uid = review.path("request").path("uid").asText();
        return post(hook, review).transform(ar -> {
            if (ar.failed()) {
                if (ignore) {
                    return Future.succeededFuture(MAPPER.createObjectNode());
                }
                return Future.failedFuture(new ApiException(500, "InternalError", "Internal error occurred: failed calling webhook \""
                        + hook.name() + "\": " + ar.cause().getMessage()));
            }
            JsonNode response = ar.result().path("response");
            if (!response.isObject() || !uid.equals(response.path("uid").asText())) {
                if (ignore) {
                    return Future.succeededFuture(MAPPER.createObjectNode());
                }
                return Future.failedFuture(new ApiException(500, "InternalError", "Internal error occurred: failed calling webhook \""
                        + hook.name() + "\": the response has no response or a different uid"));
            }
            if (!response.path("allowed").asBoolean(false)) {
                JsonNode status = response.path("status");
                int code = status.path("code").asInt(400);
                String message = status.path("message").asText("");
                return Future.failedFuture(new ApiException(code < 400 ? 400 : code, status.path("reason").asText(code == 403 ? "Forbidden" : "BadRequest"),
                        "admission webhook \"" + hook.name() + "\" denied the request" + (message.isEmpty() ? "" : ": " + message)));
            }
            return Future.succeededFuture(response);
        });
    }

    private ObjectNode review(AdmissionAttributes a) {
        ObjectNode review = MAPPER.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode req = review.putObject("request");
        req.put("uid", UUID.randomUUID().toString());
        ResourceType t = a.type();
        AdmissionAttributes.Kind kind = a.requestKind();
        for (String f : List.of("kind", "requestKind")) {
            req.putObject(f).put("group", kind.group()).put("version", kind.version()).put("kind", kind.kind());
        }
        for (String f : List.of("resource", "requestResource")) {
            req.putObject(f).put("group", t.group()).put("version", a.version()).put("resource", t.plural());
        }
        if (!a.subresource().isEmpty()) {
            req.put("subResource", a.subresource()).put("requestSubResource", a.subresource());
        }
        if (a.name() != null) {
            req.put("name", a.name());
        }
        if (a.namespace() != null) {
            req.put("namespace", a.namespace());
        }
        req.put("operation", a.operation());
        ObjectNode user = req.putObject("userInfo");
        user.put("username", "system:admin");
        user.putArray("groups").add("system:masters").add("system:authenticated");
        req.set("object", a.object());
        req.set("oldObject", a.oldObject());
        req.put("dryRun", a.dryRun());
        ObjectNode options = req.putObject("options");
        options.put("apiVersion", "meta.k8s.io/v1").put("kind", switch (a.operation()) {
            case "CREATE" -> "CreateOptions";
            case "DELETE" -> "DeleteOptions";
            default -> "UpdateOptions";
        });
        return review;
    }

    private Future<JsonNode> post(Hook hook, ObjectNode review) {
        long timeoutMs = hook.webhook().path("timeoutSeconds").asLong(10) * 1000;
        return client.post(hook.webhook().path("clientConfig"), timeoutMs, review);
    }
}
