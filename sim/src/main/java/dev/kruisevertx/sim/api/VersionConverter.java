package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns objects of one resource into another served version of it, as a CRD's conversion strategy says.
 * {@link #NONE} only rewrites {@code apiVersion} (strategy "None"); a webhook-backed converter calls the CRD's
 * conversion webhook. Asynchronous so that a webhook call never blocks the API server's context.
 */
public interface VersionConverter {
    VersionConverter NONE = (type, objects, version) -> {
        List<ObjectNode> out = new ArrayList<>(objects.size());
        for (ObjectNode o : objects) {
            ObjectNode copy = o.deepCopy();
            copy.put("apiVersion", type.apiVersion(version));
            out.add(copy);
        }
        return Future.succeededFuture(out);
    };

    /** New objects in {@code version}, in the order given; never mutates {@code objects}. */
    Future<List<ObjectNode>> convert(ResourceType type, List<ObjectNode> objects, String version);
}
