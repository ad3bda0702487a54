package dev.kruisevertx.takeover;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads the objects of {@code src/test/resources/openkruise-v1.9} (written as OpenKruise v1.9.0 leaves them; see
 * {@code generate.py} there) into a namespace, as OpenKruise's controllers and the API server would have: each
 * object created, then its {@code status} written through the status subresource. Placeholders are filled in as the
 * objects get their uids: {@code __NS__}, {@code __UID_<Kind>_<name>__}, {@code __POD_UID_<pod>__} and
 * {@code __NODE<i>__}.
 */
final class OpenKruiseFixtures {
    static final String DIR = "/openkruise-v1.9/";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final KubernetesClient client;
    private final String namespace;
    private final List<String> nodes;
    private final Map<String, String> uids = new HashMap<>();
    /** Every object loaded, by kind, in order. */
    final Map<String, List<GenericKubernetesResource>> loaded = new HashMap<>();

    OpenKruiseFixtures(KubernetesClient client, String namespace, List<String> nodes) {
        this.client = client;
        this.namespace = namespace;
        this.nodes = nodes;
    }

    static JsonNode read(String file) throws IOException {
        try (InputStream in = OpenKruiseFixtures.class.getResourceAsStream(DIR + file)) {
            if (in == null) {
                throw new IOException("no fixture " + file);
            }
            return MAPPER.readTree(in);
        }
    }

    /** Objects that need running pods, loaded by {@link #loadDeferred}. */
    private final List<JsonNode> deferred = new ArrayList<>();

    /**
     * Loads one fixture file but its ContainerRecreateRequests: a CRR is created while its pod runs (the webhook
     * reads the container's status), so those wait for {@link #loadDeferred}.
     */
    void load(String file) throws IOException {
        for (JsonNode o : (ArrayNode) read(file)) {
            if (o.path("kind").asText().equals("ContainerRecreateRequest")) {
                deferred.add(o);
            } else {
                create(o);
            }
        }
    }

    /** Loads the objects {@link #load} held back, once the pods run. */
    void loadDeferred() throws IOException {
        for (JsonNode o : deferred) {
            create(o);
        }
        deferred.clear();
    }

    private void create(JsonNode template) throws IOException {
        String text = MAPPER.writeValueAsString(template).replace("__NS__", namespace);
        for (int i = 0; i < nodes.size(); i++) {
            text = text.replace("__NODE" + i + "__", nodes.get(i));
        }
        for (Map.Entry<String, String> e : uids.entrySet()) {
            text = text.replace(e.getKey(), e.getValue());
        }
        ObjectNode object = (ObjectNode) MAPPER.readTree(text);
        JsonNode status = object.remove("status");
        String apiVersion = object.path("apiVersion").asText();
        String kind = object.path("kind").asText();
        GenericKubernetesResource created = client.genericKubernetesResources(apiVersion, kind)
                .inNamespace(namespace).resource(Serialization.unmarshal(MAPPER.writeValueAsString(object),
                        GenericKubernetesResource.class)).create();
        String name = created.getMetadata().getName();
        uids.put("__UID_" + kind + "_" + name + "__", created.getMetadata().getUid());
        if (kind.equals("Pod")) {
            uids.put("__POD_UID_" + name + "__", created.getMetadata().getUid());
        }
        if (status != null && !kind.equals("Pod")) {
            // What OpenKruise's controller (or the CRR daemon) last wrote; a pod's status is the kubelet's.
            created.setAdditionalProperty("status", MAPPER.convertValue(status, Map.class));
            created = client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace)
                    .resource(created).updateStatus();
        }
        loaded.computeIfAbsent(kind, k -> new ArrayList<>()).add(created);
    }

    /** The status a fixture object was loaded with (as a JSON tree). */
    static JsonNode status(String file, String kind, String name) throws IOException {
        for (JsonNode o : read(file)) {
            if (o.path("kind").asText().equals(kind) && o.path("metadata").path("name").asText().equals(name)) {
                return o.path("status");
            }
        }
        throw new IllegalArgumentException("no " + kind + " " + name + " in " + file);
    }
}
