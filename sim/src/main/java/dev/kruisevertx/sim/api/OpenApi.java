package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A skeleton OpenAPI v3 (index plus one document per group-version) listing each resource's operations and the
 * {@code fieldValidation} parameter, without schemas. That is what kubectl reads to decide that the server
 * validates fields itself, so {@code kubectl apply} works without {@code --validate=false}.
 */
final class OpenApi {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final ResourceRegistry registry;

    OpenApi(ResourceRegistry registry) {
        this.registry = registry;
    }

    ObjectNode index() {
        ObjectNode index = JSON.objectNode();
        ObjectNode paths = index.putObject("paths");
        Set<String> gvs = new LinkedHashSet<>();
        for (ResourceType t : registry.all()) {
            for (String v : t.versions()) {
                gvs.add(t.group().isEmpty() ? "api/" + v : "apis/" + t.group() + "/" + v);
            }
        }
        for (String gv : gvs) {
            paths.putObject(gv).put("serverRelativeURL", "/openapi/v3/" + gv);
        }
        return index;
    }

    /** The document of {@code api/v1} or {@code apis/<group>/<version>}; null when nothing is served there. */
    ObjectNode groupVersion(String group, String version) {
        ObjectNode doc = JSON.objectNode();
        doc.put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", "v1.32.0");
        ObjectNode paths = doc.putObject("paths");
        List<ResourceType> served = registry.servedAt(group, version);
        for (ResourceType t : served) {
            String prefix = (group.isEmpty() ? "/api/" : "/apis/" + group + "/") + version
                    + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural();
            ObjectNode collection = paths.putObject(prefix);
            operation(collection, "post", t, version);
            operation(collection, "get", t, version);
            ObjectNode item = paths.putObject(prefix + "/{name}");
            for (String op : new String[]{"get", "put", "patch", "delete"}) {
                operation(item, op, t, version);
            }
        }
        if (served.isEmpty()) {
            return null;
        }
        doc.putObject("components").putObject("schemas");
        return doc;
    }

    private static void operation(ObjectNode path, String method, ResourceType t, String version) {
        ObjectNode op = path.putObject(method);
        op.put("operationId", method + t.kind());
        op.putObject("x-kubernetes-group-version-kind").put("group", t.group()).put("version", version).put("kind", t.kind());
        ArrayNode params = op.putArray("parameters");
        if (!method.equals("get") && !method.equals("delete")) {
            params.addObject().put("name", "fieldValidation").put("in", "query").putObject("schema").put("type", "string");
            params.addObject().put("name", "fieldManager").put("in", "query").putObject("schema").put("type", "string");
        }
        params.addObject().put("name", "dryRun").put("in", "query").putObject("schema").put("type", "string");
        op.putObject("responses").putObject("200").put("description", "OK");
    }
}
