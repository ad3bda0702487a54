package dev.kruisevertx.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.sim.api.ApiException;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import dev.kruisevertx.sim.api.VersionConverter;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Conversion between served versions of a custom resource as its CRD's {@code spec.conversion} says: "None"
 * rewrites apiVersion; "Webhook" sends a ConversionReview (apiextensions.k8s.io/v1) to the conversion webhook.
 * As in kube-apiserver, a webhook may change labels and annotations but no other metadata.
 */
public final class CrdConversion implements VersionConverter {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ApiServer api;
    private final WebhookClient client;

    public CrdConversion(ApiServer api, WebhookClient client) {
        this.api = api;
        this.client = client;
    }

    @Override
    public Future<List<ObjectNode>> convert(ResourceType type, List<ObjectNode> objects, String version) {
        JsonNode conversion = conversionOf(type);
        if (conversion == null || !"Webhook".equals(conversion.path("strategy").asText("None"))) {
            return NONE.convert(type, objects, version);
        }
        String desired = type.apiVersion(version);
        ObjectNode review = MAPPER.createObjectNode();
        review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request");
        String uid = UUID.randomUUID().toString();
        request.put("uid", uid).put("desiredAPIVersion", desired);
        objects.forEach(request.putArray("objects")::add);
        String what = "conversion webhook for " + type.kind() + "." + type.group();
        return client.post(conversion.path("webhook").path("clientConfig"), 30_000, review)
                .recover(e -> Future.failedFuture(new ApiException(500, "InternalError", what + " failed: " + e.getMessage())))
                .map(answer -> {
                    JsonNode response = answer.path("response");
                    if (!uid.equals(response.path("uid").asText())) {
                        throw new ApiException(500, "InternalError", what + " returned a response with a different uid");
                    }
                    JsonNode result = response.path("result");
                    if (!"Success".equals(result.path("status").asText())) {
                        throw new ApiException(500, "InternalError", what + " failed: " + result.path("message").asText("no message"));
                    }
                    JsonNode converted = response.path("convertedObjects");
                    if (converted.size() != objects.size()) {
                        throw new ApiException(500, "InternalError", what + " returned " + converted.size() + " objects for " + objects.size());
                    }
                    List<ObjectNode> out = new ArrayList<>();
                    for (int i = 0; i < objects.size(); i++) {
                        JsonNode c = converted.get(i);
                        if (!c.isObject() || !desired.equals(c.path("apiVersion").asText())) {
                            throw new ApiException(500, "InternalError", what + " returned an object in "
                                    + c.path("apiVersion").asText("<none>") + " instead of " + desired);
                        }
                        out.add(keepMetadata((ObjectNode) c.deepCopy(), objects.get(i)));
                    }
                    return out;
                });
    }

    private JsonNode conversionOf(ResourceType type) {
        if (!type.custom()) {
            return null;
        }
        ResourceType crds = api.registry().byKey("customresourcedefinitions.apiextensions.k8s.io").orElseThrow();
        ObjectNode crd = api.store().get(crds, null, type.key());
        return crd == null ? null : crd.path("spec").path("conversion");
    }

    private static ObjectNode keepMetadata(ObjectNode converted, ObjectNode original) {
        ObjectNode meta = original.path("metadata").deepCopy();
        JsonNode cm = converted.path("metadata");
        for (String f : List.of("labels", "annotations")) {
            if (cm.has(f)) {
                meta.set(f, cm.get(f));
            } else {
                meta.remove(f);
            }
        }
        converted.set("metadata", meta);
        return converted;
    }
}
