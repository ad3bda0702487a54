package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resources the embedded API server serves: a fixed table of built-in kinds plus whatever stored
 * CustomResourceDefinitions declare. Only touched from the API server's context.
 */
public final class ResourceRegistry {
    private static final ResourceType.ScaleSubresource BUILT_IN_SCALE =
            new ResourceType.ScaleSubresource(".spec.replicas", ".status.replicas", ".spec.selector");

    private final Map<String, ResourceType> byKey = new LinkedHashMap<>();

    public ResourceRegistry() {
        core("namespaces", "Namespace", false, true, "ns");
        core("pods", "Pod", true, true, "po");
        core("nodes", "Node", false, true, "no");
        core("configmaps", "ConfigMap", true, false, "cm");
        core("secrets", "Secret", true, false);
        core("services", "Service", true, true, "svc");
        core("events", "Event", true, false, "ev");
        core("persistentvolumeclaims", "PersistentVolumeClaim", true, true, "pvc");
        core("persistentvolumes", "PersistentVolume", false, true, "pv");
        core("serviceaccounts", "ServiceAccount", true, false, "sa");
        core("endpoints", "Endpoints", true, false, "ep");
        builtIn("apps", "controllerrevisions", "ControllerRevision", true, false, null);
        builtIn("apps", "deployments", "Deployment", true, true, BUILT_IN_SCALE, "deploy");
        builtIn("apps", "replicasets", "ReplicaSet", true, true, BUILT_IN_SCALE, "rs");
        builtIn("apps", "statefulsets", "StatefulSet", true, true, BUILT_IN_SCALE, "sts");
        builtIn("apps", "daemonsets", "DaemonSet", true, true, null, "ds");
        builtIn("coordination.k8s.io", "leases", "Lease", true, false, null);
        builtIn("events.k8s.io", "events", "Event", true, false, null, "ev");
        builtIn("policy", "poddisruptionbudgets", "PodDisruptionBudget", true, true, null, "pdb");
        builtIn("batch", "jobs", "Job", true, true, null);
        builtIn("networking.k8s.io", "ingresses", "Ingress", true, true, null, "ing");
        builtIn("admissionregistration.k8s.io", "mutatingwebhookconfigurations",
                "MutatingWebhookConfiguration", false, false, null);
        builtIn("admissionregistration.k8s.io", "validatingwebhookconfigurations",
                "ValidatingWebhookConfiguration", false, false, null);
        builtIn("apiextensions.k8s.io", "customresourcedefinitions", "CustomResourceDefinition", false, true,
                null, "crd", "crds");
    }

    private void core(String plural, String kind, boolean namespaced, boolean status, String... shortNames) {
        builtIn("", plural, kind, namespaced, status, null, shortNames);
    }

    private void builtIn(String group, String plural, String kind, boolean namespaced, boolean status,
                         ResourceType.ScaleSubresource scale, String... shortNames) {
        String singular = kind.toLowerCase();
        put(new ResourceType(group, List.of("v1"), "v1", plural, singular, kind, namespaced, status, scale,
                List.of(shortNames), false));
    }

    private void put(ResourceType type) {
        byKey.put(type.key(), type);
    }

    public Optional<ResourceType> find(String group, String version, String plural) {
        ResourceType type = byKey.get(group.isEmpty() ? plural : plural + "." + group);
        return type != null && type.serves(version) ? Optional.of(type) : Optional.empty();
    }

    public Optional<ResourceType> byKey(String key) {
        return Optional.ofNullable(byKey.get(key));
    }

    /** The resource for an apiVersion + kind, as found in ownerReferences and manifests. */
    public Optional<ResourceType> byKind(String apiVersion, String kind) {
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        return byKey.values().stream()
                .filter(t -> t.group().equals(group) && t.kind().equals(kind) && t.serves(version))
                .findFirst();
    }

    public Collection<ResourceType> all() {
        return byKey.values();
    }

    /** The types served at {@code group}/{@code version} (the core group is ""), as discovery and OpenAPI list them. */
    public List<ResourceType> servedAt(String group, String version) {
        return byKey.values().stream().filter(t -> t.group().equals(group) && t.serves(version)).toList();
    }

    /**
     * Serves the resource a CRD declares. Returns the previous type when the CRD replaced one, so the caller
     * can tell a new resource from an update.
     */
    public ResourceType register(JsonNode crd) {
        ResourceType type = fromCrd(crd);
        put(type);
        return type;
    }

    public Optional<ResourceType> unregister(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        String key = spec.path("names").path("plural").asText() + "." + spec.path("group").asText();
        ResourceType removed = byKey.get(key);
        if (removed != null && removed.custom()) {
            byKey.remove(key);
            return Optional.of(removed);
        }
        return Optional.empty();
    }

    /** Reads a CRD into a resource type; throws IllegalArgumentException with a readable reason when invalid. */
    public static ResourceType fromCrd(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asText("");
        JsonNode names = spec.path("names");
        String plural = names.path("plural").asText("");
        String kind = names.path("kind").asText("");
        if (group.isEmpty() || plural.isEmpty() || kind.isEmpty()) {
            throw new IllegalArgumentException("CustomResourceDefinition needs spec.group, spec.names.plural and spec.names.kind");
        }
        String expectedName = plural + "." + group;
        String name = crd.path("metadata").path("name").asText("");
        if (!name.equals(expectedName)) {
            throw new IllegalArgumentException("metadata.name: Invalid value: \"" + name + "\": must be spec.names.plural+\".\"+spec.group (" + expectedName + ")");
        }
        List<String> versions = new ArrayList<>();
        String storage = null;
        boolean status = false;
        ResourceType.ScaleSubresource scale = null;
        for (JsonNode v : spec.path("versions")) {
            if (!v.path("served").asBoolean(true)) {
                continue;
            }
            String version = v.path("name").asText();
            versions.add(version);
            if (v.path("storage").asBoolean(false)) {
                storage = version;
            }
            JsonNode sub = v.path("subresources");
            // Versions may differ in subresources in principle; this server gives a resource the union.
            status |= sub.has("status");
            JsonNode sc = sub.path("scale");
            if (sc.isObject()) {
                scale = new ResourceType.ScaleSubresource(sc.path("specReplicasPath").asText(".spec.replicas"),
                        sc.path("statusReplicasPath").asText(".status.replicas"),
                        sc.path("labelSelectorPath").asText(""));
            }
        }
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("CustomResourceDefinition " + name + " serves no version");
        }
        if (storage == null) {
            storage = versions.get(0);
        }
        List<String> shortNames = new ArrayList<>();
        names.path("shortNames").forEach(n -> shortNames.add(n.asText()));
        String singular = names.path("singular").asText(kind.toLowerCase());
        boolean namespaced = !"Cluster".equals(spec.path("scope").asText("Namespaced"));
        return new ResourceType(group, List.copyOf(versions), storage, plural, singular, kind, namespaced, status,
                scale, List.copyOf(shortNames), true);
    }
}
