package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The discovery documents clients read to map kinds to resources: /api, /apis, /api/v1, /apis/g/v, /version. */
final class Discovery {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> ALL_VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    private final ResourceRegistry registry;

    Discovery(ResourceRegistry registry) {
        this.registry = registry;
    }

    ObjectNode version() {
        ObjectNode v = JSON.objectNode();
        v.put("major", "1").put("minor", "32").put("gitVersion", "v1.32.0-kruise-sim").put("gitCommit", "embedded")
                .put("gitTreeState", "clean").put("buildDate", "2026-01-01T00:00:00Z").put("goVersion", "go1.23")
                .put("compiler", "gc").put("platform", "linux/amd64");
        return v;
    }

    ObjectNode coreVersions(String serverAddress) {
        ObjectNode v = JSON.objectNode();
        v.put("kind", "APIVersions");
        v.putArray("versions").add("v1");
        v.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0").put("serverAddress", serverAddress);
        return v;
    }

    ObjectNode groups() {
        ObjectNode list = JSON.objectNode();
        list.put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        groupVersions().forEach((g, versions) -> groups.add(group(g, versions)));
        return list;
    }

    ObjectNode group(String name) {
        List<String> versions = groupVersions().get(name);
        if (versions == null) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource");
        }
        ObjectNode g = group(name, versions);
        g.put("kind", "APIGroup").put("apiVersion", "v1");
        return g;
    }

    private static ObjectNode group(String name, List<String> versions) {
        ObjectNode g = JSON.objectNode();
        g.put("name", name);
        ArrayNode vs = g.putArray("versions");
        for (String v : versions) {
            vs.addObject().put("groupVersion", name + "/" + v).put("version", v);
        }
        g.putObject("preferredVersion").put("groupVersion", name + "/" + versions.get(0)).put("version", versions.get(0));
        return g;
    }

    /** Served versions by group, highest priority first (GA before beta before alpha, then by number). */
    private Map<String, List<String>> groupVersions() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (ResourceType t : registry.all()) {
            if (t.group().isEmpty()) {
                continue;
            }
            List<String> vs = out.computeIfAbsent(t.group(), k -> new ArrayList<>());
            for (String v : t.versions()) {
                if (!vs.contains(v)) {
                    vs.add(v);
                }
            }
        }
        out.values().forEach(vs -> vs.sort(Comparator.comparing(Discovery::priority).reversed()));
        return out;
    }

    private static long priority(String version) {
        Matcher m = KUBE_VERSION.matcher(version);
        if (!m.matches()) {
            return 0;
        }
        long major = Long.parseLong(m.group(1));
        long stability = m.group(2) == null ? 3 : m.group(2).equals("beta") ? 2 : 1;
        long minor = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
        return stability * 1_000_000_000L + major * 10_000L + minor;
    }

    /** The built-in resources kube-apiserver puts in the "all" category (what {@code kubectl get all} lists). */
    private static final java.util.Set<String> IN_CATEGORY_ALL = java.util.Set.of("/pods", "/services",
            "apps/deployments", "apps/replicasets", "apps/statefulsets", "apps/daemonsets", "batch/jobs");

    ObjectNode resources(String group, String version) {
        ObjectNode list = JSON.objectNode();
        list.put("kind", "APIResourceList").put("apiVersion", "v1");
        list.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = list.putArray("resources");
        List<ResourceType> served = registry.servedAt(group, version);
        for (ResourceType t : served) {
            ObjectNode r = resources.addObject();
            r.put("name", t.plural()).put("singularName", t.singular()).put("namespaced", t.namespaced()).put("kind", t.kind());
            ArrayNode verbs = r.putArray("verbs");
            ALL_VERBS.forEach(verbs::add);
            if (!t.shortNames().isEmpty()) {
                ArrayNode sn = r.putArray("shortNames");
                t.shortNames().forEach(sn::add);
            }
            if (!t.custom() && IN_CATEGORY_ALL.contains(t.group() + "/" + t.plural())) {
                r.putArray("categories").add("all");
            }
            if (t.statusSubresource()) {
                sub(resources, t, "status", t.kind(), null);
            }
            if (t.scale() != null) {
                sub(resources, t, "scale", "Scale", "autoscaling");
            }
            if (t.kind().equals("Pod") && group.isEmpty()) {
                ObjectNode b = sub(resources, t, "binding", "Binding", null);
                b.putArray("verbs").add("create");
                ObjectNode e = sub(resources, t, "eviction", "Eviction", "policy");
                e.putArray("verbs").add("create");
                sub(resources, t, "ephemeralcontainers", "Pod", null);
            }
        }
        if (group.isEmpty()) {
            ObjectNode b = resources.addObject();
            b.put("name", "bindings").put("singularName", "binding").put("namespaced", true).put("kind", "Binding");
            b.putArray("verbs").add("create");
        }
        if (served.isEmpty()) {
            throw new ApiException(404, "NotFound", "the server could not find the requested resource");
        }
        return list;
    }

    private static ObjectNode sub(ArrayNode resources, ResourceType t, String name, String kind, String group) {
        ObjectNode r = resources.addObject();
        r.put("name", t.plural() + "/" + name).put("singularName", "").put("namespaced", t.namespaced()).put("kind", kind);
        if (group != null) {
            r.put("group", group).put("version", "v1");
        }
        r.putArray("verbs").add("get").add("patch").add("update");
        return r;
    }
}
