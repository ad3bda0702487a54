package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Server-side printing ({@code Accept: application/json;as=Table;g=meta.k8s.io;v=v1}) so that {@code kubectl get}
 * shows useful columns: pods, nodes, namespaces, deployments and replica sets get kubectl's usual columns; custom
 * resources get their CRD's {@code additionalPrinterColumns} (name and age when it declares none); everything else
 * name and age.
 */
final class Tables {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Tables.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private record Column(String name, String type, int priority, Function<JsonNode, Object> value) {
    }

    private Tables() {
    }

    static boolean wanted(String accept) {
        return accept != null && accept.contains("as=Table");
    }

    /** A Table for a list or a single object. */
    static ObjectNode table(ApiServer api, ResourceType type, String version, JsonNode listOrObject) {
        List<Column> columns = columns(api, type, version);
        ObjectNode table = JSON.objectNode();
        table.put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = table.putObject("metadata");
        ArrayNode defs = table.putArray("columnDefinitions");
        for (Column c : columns) {
            defs.addObject().put("name", c.name()).put("type", c.type()).put("format", c.name().equals("Name") ? "name" : "")
                    .put("description", "").put("priority", c.priority());
        }
        ArrayNode rows = table.putArray("rows");
        if (listOrObject.has("items")) {
            JsonNode lm = listOrObject.path("metadata");
            for (String f : List.of("resourceVersion", "continue", "remainingItemCount")) {
                if (lm.has(f)) {
                    meta.set(f, lm.get(f));
                }
            }
            listOrObject.path("items").forEach(item -> rows.add(row(columns, item)));
        } else {
            meta.set("resourceVersion", listOrObject.path("metadata").path("resourceVersion"));
            rows.add(row(columns, listOrObject));
        }
        return table;
    }

    private static ObjectNode row(List<Column> columns, JsonNode o) {
        ObjectNode row = JSON.objectNode();
        ArrayNode cells = row.putArray("cells");
        for (Column c : columns) {
            Object v = c.value().apply(o);
            if (v == null) {
                cells.addNull();
            } else if (v instanceof Number n) {
                cells.add(n.longValue());
            } else if (v instanceof JsonNode j) {
                cells.add(j);
            } else {
                cells.add(v.toString());
            }
        }
        ObjectNode partial = row.putObject("object");
        partial.put("kind", "PartialObjectMetadata").put("apiVersion", "meta.k8s.io/v1");
        partial.set("metadata", o.path("metadata").deepCopy());
        return row;
    }

    private static List<Column> columns(ApiServer api, ResourceType type, String version) {
        List<Column> cols = new ArrayList<>();
        cols.add(new Column("Name", "string", 0, o -> o.path("metadata").path("name").asText()));
        boolean core = !type.custom();
        switch (core ? type.kind() : "") {
            case "Pod" -> {
                cols.add(new Column("Ready", "string", 0, Tables::podReady));
                cols.add(new Column("Status", "string", 0, Tables::podStatus));
                cols.add(new Column("Restarts", "string", 0, o -> {
                    long r = 0;
                    for (JsonNode cs : o.path("status").path("containerStatuses")) {
                        r += cs.path("restartCount").asLong();
                    }
                    return Long.toString(r);
                }));
                cols.add(age());
                cols.add(new Column("IP", "string", 1, o -> o.path("status").path("podIP").asText("<none>")));
                cols.add(new Column("Node", "string", 1, o -> o.path("spec").path("nodeName").asText("<none>")));
            }
            case "Node" -> {
                cols.add(new Column("Status", "string", 0, o -> {
                    String ready = "Unknown";
                    for (JsonNode c : o.path("status").path("conditions")) {
                        if (c.path("type").asText().equals("Ready")) {
                            ready = c.path("status").asText().equals("True") ? "Ready" : "NotReady";
                        }
                    }
                    return o.path("spec").path("unschedulable").asBoolean() ? ready + ",SchedulingDisabled" : ready;
                }));
                cols.add(new Column("Roles", "string", 0, o -> "<none>"));
                cols.add(age());
                cols.add(new Column("Version", "string", 0, o -> o.path("status").path("nodeInfo").path("kubeletVersion").asText("")));
                cols.add(new Column("Internal-IP", "string", 1, o -> {
                    for (JsonNode a : o.path("status").path("addresses")) {
                        if (a.path("type").asText().equals("InternalIP")) {
                            return a.path("address").asText();
                        }
                    }
                    return "<none>";
                }));
            }
            case "Namespace" -> {
                cols.add(new Column("Status", "string", 0, o -> o.path("status").path("phase").asText("")));
                cols.add(age());
            }
            case "Deployment", "ReplicaSet", "StatefulSet" -> {
                cols.add(new Column("Ready", "string", 0, o -> o.path("status").path("readyReplicas").asLong(0) + "/" + o.path("spec").path("replicas").asLong(1)));
                cols.add(age());
            }
            default -> {
                // As kube-apiserver: a custom resource shows its CRD's columns for the version, and Age only when
                // the CRD declares none (most declare their own AGE column).
                List<Column> declared = type.custom() ? printerColumns(api, type, version) : List.of();
                if (declared.isEmpty()) {
                    cols.add(age());
                } else {
                    cols.addAll(declared);
                }
            }
        }
        return cols;
    }

    private static List<Column> printerColumns(ApiServer api, ResourceType type, String version) {
        List<Column> out = new ArrayList<>();
        ResourceType crds = api.registry().byKey("customresourcedefinitions.apiextensions.k8s.io").orElseThrow();
        ObjectNode crd = api.store().get(crds, null, type.key());
        if (crd == null) {
            return out;
        }
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (!v.path("name").asText().equals(version)) {
                continue;
            }
            for (JsonNode pc : v.path("additionalPrinterColumns")) {
                String path = pc.path("jsonPath").asText("");
                String colType = pc.path("type").asText("string");
                String name = pc.path("name").asText(path);
                ColumnPath columnPath;
                try {
                    columnPath = ColumnPath.parse(path);
                } catch (IllegalArgumentException e) {
                    // The column stays, empty, as kube-apiserver keeps a column whose path finds nothing.
                    LOG.debug("printer column {} of {}: {}", name, type.key(), e.getMessage());
                    out.add(new Column(name, colType.equals("date") ? "string" : colType, pc.path("priority").asInt(0), o -> null));
                    continue;
                }
                if (colType.equals("date")) {
                    out.add(new Column(name, "string", pc.path("priority").asInt(0), o -> {
                        JsonNode n = columnPath.first(o);
                        return JsonPaths.missing(n) ? null : ageOf(n.asText(null));
                    }));
                } else {
                    out.add(new Column(name, colType, pc.path("priority").asInt(0), o -> {
                        JsonNode n = columnPath.first(o);
                        return JsonPaths.missing(n) ? null : n.isValueNode() ? (n.isNumber() ? (Object) n.asLong() : n.asText()) : n.toString();
                    }));
                }
            }
        }
        return out;
    }

    private static Column age() {
        return new Column("Age", "string", 0, o -> ageOf(o.path("metadata").path("creationTimestamp").asText(null)));
    }

    private static String ageOf(String timestamp) {
        if (timestamp == null) {
            return "<unknown>";
        }
        try {
            Duration d = Duration.between(Instant.parse(timestamp), Instant.now());
            long s = Math.max(0, d.getSeconds());
            if (s < 120) {
                return s + "s";
            }
            if (s < 600) {
                return (s / 60) + "m" + (s % 60) + "s";
            }
            if (s < 3 * 3600) {
                return (s / 60) + "m";
            }
            if (s < 48 * 3600) {
                return (s / 3600) + "h";
            }
            return (s / 86400) + "d";
        } catch (DateTimeParseException e) {
            return "<invalid>";
        }
    }

    private static String podReady(JsonNode o) {
        int total = o.path("spec").path("containers").size();
        int ready = 0;
        for (JsonNode cs : o.path("status").path("containerStatuses")) {
            if (cs.path("ready").asBoolean()) {
                ready++;
            }
        }
        return ready + "/" + total;
    }

    private static String podStatus(JsonNode o) {
        if (o.path("metadata").has("deletionTimestamp")) {
            return "Terminating";
        }
        String reason = o.path("status").path("phase").asText("Pending");
        for (JsonNode cs : o.path("status").path("containerStatuses")) {
            JsonNode waiting = cs.path("state").path("waiting");
            if (waiting.has("reason")) {
                reason = waiting.path("reason").asText();
            }
        }
        return reason;
    }
}
