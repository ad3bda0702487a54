package dev.kruisevertx.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.common.WellKnown;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@value WellKnown#WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY} entry of ConfigMap
 * {@code kruise-configuration}: the custom workload kinds a WorkloadSpread may target, as OpenKruise reads it —
 * {@code {"workloads":[{"Group":"kubeflow.org","Version":"v1","Kind":"TFJob","replicasPath":"spec.replicas",
 * "subResources":[{"Group":"...","Version":"...","Kind":"..."}]}]}}, keys matched case-insensitively as Go's JSON
 * decoding does.
 */
public record CustomWorkloadWhiteList(List<Workload> workloads) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** No custom workloads (no ConfigMap, or no entry). */
    public static final CustomWorkloadWhiteList EMPTY = new CustomWorkloadWhiteList(List.of());

    public CustomWorkloadWhiteList {
        workloads = List.copyOf(workloads);
    }

    /** One permitted kind, the kinds its pods' owners may be, and where its replicas are. */
    public record Workload(String group, String version, String kind, List<Workload> subResources,
                           String replicasPath) {
        public Workload {
            group = group == null ? "" : group;
            version = version == null ? "" : version;
            kind = kind == null ? "" : kind;
            subResources = subResources == null ? List.of() : List.copyOf(subResources);
            replicasPath = replicasPath == null ? "" : replicasPath;
        }
    }

    /** From the ConfigMap's data: empty when the entry is absent or empty. */
    public static CustomWorkloadWhiteList fromConfigMapData(Map<String, String> data) {
        return fromConfigMapData(data, WellKnown.WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY);
    }

    /**
     * The entry {@code key} of the ConfigMap's data, which has the same shape: OpenKruise's PodUnavailableBudget and
     * PersistentPodState read {@value WellKnown#PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY} (group, version and kind of
     * each workload; the other fields stay empty). Empty when the entry is absent.
     */
    public static CustomWorkloadWhiteList fromConfigMapData(Map<String, String> data, String key) {
        String value = data == null ? null : data.get(key);
        return value == null ? EMPTY : parse(value, key);
    }

    /**
     * @throws IllegalArgumentException naming the entry when the value is not the expected JSON
     */
    public static CustomWorkloadWhiteList parse(String value) {
        return parse(value, WellKnown.WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY);
    }

    /**
     * @param key the entry the value comes from, named in the error
     * @throws IllegalArgumentException naming the entry when the value is not the expected JSON
     */
    public static CustomWorkloadWhiteList parse(String value, String key) {
        JsonNode root;
        try {
            root = JSON.readTree(value);
        } catch (IOException e) {
            throw bad(key, "it is not JSON");
        }
        if (root == null || root.isNull() || root.isMissingNode()) {
            return EMPTY;
        }
        if (!root.isObject()) {
            throw bad(key, "it must be a JSON object");
        }
        JsonNode list = field(root, "workloads");
        if (list == null || list.isNull()) {
            return EMPTY;
        }
        return new CustomWorkloadWhiteList(workloads(list, "workloads", key));
    }

    /** Whether {@code group} and {@code kind} are permitted (the top-level entries, not their sub-resources). */
    public boolean permits(String group, String kind) {
        for (Workload w : workloads) {
            if (w.group().equals(group) && w.kind().equals(kind)) {
                return true;
            }
        }
        return false;
    }

    /** The top-level entry for {@code group} and {@code kind}, if permitted. */
    public java.util.Optional<Workload> entry(String group, String kind) {
        for (Workload w : workloads) {
            if (w.group().equals(group) && w.kind().equals(kind)) {
                return java.util.Optional.of(w);
            }
        }
        return java.util.Optional.empty();
    }

    private static List<Workload> workloads(JsonNode list, String path, String key) {
        if (!list.isArray()) {
            throw bad(key, path + " must be a list");
        }
        List<Workload> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode w = list.get(i);
            String at = path + "[" + i + "]";
            if (!w.isObject()) {
                throw bad(key, at + " must be an object");
            }
            JsonNode subs = field(w, "subResources");
            out.add(new Workload(text(w, "group", at, key), text(w, "version", at, key), text(w, "kind", at, key),
                    subs == null || subs.isNull() ? List.of() : workloads(subs, at + ".subResources", key),
                    text(w, "replicasPath", at, key)));
        }
        return out;
    }

    private static String text(JsonNode object, String name, String at, String key) {
        JsonNode v = field(object, name);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw bad(key, at + "." + name + " must be a string");
        }
        return v.asText();
    }

    /** Go's encoding/json: an exact key first, else the first key equal ignoring case. */
    private static JsonNode field(JsonNode object, String name) {
        if (object.has(name)) {
            return object.get(name);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (key.toLowerCase(Locale.ROOT).equals(lower)) {
                return object.get(key);
            }
        }
        return null;
    }

    private static IllegalArgumentException bad(String key, String why) {
        return new IllegalArgumentException("ConfigMap kruise-configuration entry " + key + " is invalid: " + why);
    }
}
