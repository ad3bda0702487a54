package dev.kruisevertx.webhook.configuration;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.WebhookConfig;
import dev.kruisevertx.webhook.admission.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.Set;

/**
 * Keeps {@code kruise-mutating-webhook-configuration} and {@code kruise-validating-webhook-configuration}
 * pointing at this webhook with the current CA (a {@link CaBundlePlan}: during a CA change the previous CA too). As OpenKruise does, the first time it sees a configuration
 * it stores the original webhook entries as JSON in the {@code template} annotation, then always rebuilds
 * the entries from that template: caBundle and service namespace/name set (or {@code url} when
 * WEBHOOK_HOST is set), entries whose path has no handler dropped, and namespace selectors a user added to
 * the live entries merged in so their edits survive. Blocking: call from a worker thread.
 */
public final class WebhookConfigurationPatcher {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookConfigurationPatcher.class);
    public static final String MUTATING_NAME = "kruise-mutating-webhook-configuration";
    public static final String VALIDATING_NAME = "kruise-validating-webhook-configuration";
    public static final String TEMPLATE_ANNOTATION = "template";
    private static final String API_VERSION = "admissionregistration.k8s.io/v1";

    private final KubernetesClient client;
    private final WebhookConfig config;
    private final boolean externalCerts;
    private final IntSupplier port;

    public WebhookConfigurationPatcher(KubernetesClient client, WebhookConfig config, boolean externalCerts) {
        this(client, config, externalCerts, config::port);
    }

    /** @param port the port written into URL client configs; WEBHOOK_PORT=0 means the port the server was bound to */
    public WebhookConfigurationPatcher(KubernetesClient client, WebhookConfig config, boolean externalCerts, IntSupplier port) {
        this.client = client;
        this.config = config;
        this.externalCerts = externalCerts;
        this.port = port;
    }

    /**
     * Patches both configurations (or, with external certificates, only checks their caBundles).
     *
     * @throws ConfigurationException when a configuration is missing, malformed or (external) mismatched
     */
    public void ensure(byte[] caBundle, Set<String> handledPaths) {
        ensure(CaBundlePlan.exactly(caBundle), handledPaths);
    }

    /**
     * Patches both configurations so every entry's caBundle holds what {@code plan} wants (or, with external
     * certificates, only checks that every entry's caBundle trusts the plan's target CA).
     *
     * @throws ConfigurationException when a configuration is missing, malformed or (external) does not trust the CA
     */
    public void ensure(CaBundlePlan plan, Set<String> handledPaths) {
        ensureOne("MutatingWebhookConfiguration", MUTATING_NAME, plan, handledPaths);
        ensureOne("ValidatingWebhookConfiguration", VALIDATING_NAME, plan, handledPaths);
    }

    private void ensureOne(String kind, String name, CaBundlePlan plan, Set<String> handledPaths) {
        GenericKubernetesResource current;
        try {
            current = client.genericKubernetesResources(API_VERSION, kind).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new ConfigurationException("cannot read " + kind + " " + name + ": " + e.getMessage(), e);
        }
        if (current == null) {
            throw new ConfigurationException(kind + " " + name + " not found");
        }
        ObjectNode live = Json.MAPPER.valueToTree(current);
        if (externalCerts) {
            verifyExternal(kind, name, live, plan, handledPaths);
            return;
        }
        ObjectNode desired = live.deepCopy();
        ObjectNode annotations = desired.with("metadata").with("annotations");
        ArrayNode template;
        String templateText = annotations.path(TEMPLATE_ANNOTATION).asText("");
        ArrayNode liveWebhooks = live.path("webhooks").isArray() ? (ArrayNode) live.get("webhooks") : Json.MAPPER.createArrayNode();
        if (templateText.isEmpty()) {
            template = liveWebhooks.deepCopy();
            annotations.put(TEMPLATE_ANNOTATION, write(template));
        } else {
            try {
                JsonNode parsed = Json.MAPPER.readTree(templateText);
                if (!parsed.isArray()) {
                    throw new ConfigurationException(kind + " " + name + ": the template annotation is not a JSON list of webhooks");
                }
                template = (ArrayNode) parsed;
            } catch (JsonProcessingException e) {
                throw new ConfigurationException(kind + " " + name + ": the template annotation is not valid JSON: "
                        + e.getOriginalMessage());
            }
        }
        Map<String, JsonNode> liveByName = new HashMap<>();
        liveWebhooks.forEach(w -> liveByName.put(w.path("name").asText(), w));

        ArrayNode rebuilt = Json.MAPPER.createArrayNode();
        for (JsonNode t : template) {
            ObjectNode wh = (ObjectNode) t.deepCopy();
            String path = pathOf(kind, name, wh);
            if (!handledPaths.contains(path)) {
                LOG.info("Ignoring webhook {} in {}: no handler for path {}", wh.path("name").asText(), name, path);
                continue;
            }
            JsonNode liveEntry = liveByName.get(wh.path("name").asText());
            if (liveEntry != null) {
                mergeNamespaceSelector(kind, name, wh, liveEntry.get("namespaceSelector"));
            }
            ObjectNode clientConfig = wh.with("clientConfig");
            String liveCa = liveEntry == null ? null : liveEntry.path("clientConfig").path("caBundle").asText(null);
            clientConfig.put("caBundle", plan.desired(liveCa));
            if (clientConfig.has("service")) {
                ObjectNode service = clientConfig.with("service");
                service.put("namespace", config.namespace());
                service.put("name", config.serviceName());
                if (config.host() != null) {
                    clientConfig.put("url", "https://" + config.host() + ":" + port.getAsInt() + path);
                    clientConfig.remove("service");
                }
            }
            rebuilt.add(wh);
        }
        desired.set("webhooks", rebuilt);
        if (semanticallyEqual(live, desired)) {
            return;
        }
        GenericKubernetesResource update = Json.MAPPER.convertValue(desired, GenericKubernetesResource.class);
        try {
            client.genericKubernetesResources(API_VERSION, kind).resource(update).update();
            LOG.info("Updated caBundle and clients of {} {}", kind, name);
        } catch (KubernetesClientException e) {
            throw new ConfigurationException("cannot update " + kind + " " + name + ": " + e.getMessage(), e);
        }
    }

    private void verifyExternal(String kind, String name, ObjectNode live, CaBundlePlan plan, Set<String> handledPaths) {
        for (JsonNode wh : live.path("webhooks")) {
            String path = pathOf(kind, name, wh);
            if (!handledPaths.contains(path)) {
                continue;
            }
            // Whoever injects the external CA may keep the previous one next to it: containing it is enough.
            if (!plan.trustsTarget(wh.path("clientConfig").path("caBundle").asText(""))) {
                throw new ConfigurationException("caBundle of " + kind + " " + name + " (webhook "
                        + wh.path("name").asText() + ") does not match the external CA certificate: it must contain it");
            }
        }
    }

    static String pathOf(String kind, String name, JsonNode wh) {
        JsonNode cc = wh.path("clientConfig");
        if (cc.has("service")) {
            String p = cc.path("service").path("path").asText("");
            return p.isEmpty() ? "/" : p;
        }
        if (cc.has("url")) {
            try {
                String p = URI.create(cc.path("url").asText()).getPath();
                return p == null || p.isEmpty() ? "/" : p;
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException(kind + " " + name + ": webhook " + wh.path("name").asText()
                        + " has an invalid url: " + e.getMessage());
            }
        }
        throw new ConfigurationException(kind + " " + name + ": webhook " + wh.path("name").asText()
                + " has neither clientConfig.service nor clientConfig.url");
    }

    /**
     * Adds labels and expressions a user put into the live entry's namespaceSelector to the template's;
     * a label with two different values cannot be merged and is reported.
     */
    static void mergeNamespaceSelector(String kind, String name, ObjectNode templateEntry, JsonNode liveSelector) {
        if (liveSelector == null || !liveSelector.isObject() || liveSelector.isEmpty()) {
            return;
        }
        JsonNode existing = templateEntry.get("namespaceSelector");
        if (existing == null || !existing.isObject()) {
            templateEntry.set("namespaceSelector", liveSelector.deepCopy());
            return;
        }
        ObjectNode merged = (ObjectNode) existing;
        liveSelector.path("matchLabels").fields().forEachRemaining(e -> {
            JsonNode mine = merged.path("matchLabels").get(e.getKey());
            if (mine != null && !mine.equals(e.getValue())) {
                throw new ConfigurationException(kind + " " + name + ": namespaceSelector label " + e.getKey()
                        + " has different values in the template (" + mine.asText() + ") and the live object ("
                        + e.getValue().asText() + ")");
            }
            merged.with("matchLabels").set(e.getKey(), e.getValue());
        });
        for (JsonNode expr : liveSelector.path("matchExpressions")) {
            ArrayNode mine = merged.withArray("matchExpressions");
            boolean present = false;
            for (JsonNode m : mine) {
                present |= m.equals(expr);
            }
            if (!present) {
                mine.add(expr);
            }
        }
    }

    /** Equal apart from webhook order and matchExpressions order, as OpenKruise compares them. */
    static boolean semanticallyEqual(JsonNode a, JsonNode b) {
        return normalize(a).equals(normalize(b));
    }

    private static JsonNode normalize(JsonNode obj) {
        ObjectNode copy = (ObjectNode) obj.deepCopy();
        List<JsonNode> hooks = new ArrayList<>();
        copy.path("webhooks").forEach(hooks::add);
        hooks.sort(Comparator.comparing(h -> h.path("name").asText()));
        for (JsonNode h : hooks) {
            JsonNode exprs = h.path("namespaceSelector").path("matchExpressions");
            if (exprs.isArray()) {
                List<JsonNode> list = new ArrayList<>();
                exprs.forEach(list::add);
                list.sort(Comparator.comparing(JsonNode::toString));
                ArrayNode sorted = Json.MAPPER.createArrayNode();
                list.forEach(sorted::add);
                ((ObjectNode) h.get("namespaceSelector")).set("matchExpressions", sorted);
            }
        }
        ArrayNode arr = Json.MAPPER.createArrayNode();
        hooks.forEach(arr::add);
        copy.set("webhooks", arr);
        return copy;
    }

    private static String write(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
