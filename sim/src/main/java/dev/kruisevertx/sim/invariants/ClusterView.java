package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The pods and workloads as the checker's watches last delivered them, by uid. */
public final class ClusterView {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Readiness times have second precision; a pod this close to minReadySeconds counts as available. */
    private static final long READY_SLACK_MS = 1000;

    private final Map<String, JsonNode> pods = new LinkedHashMap<>();
    private final Map<String, JsonNode> workloads = new LinkedHashMap<>();
    private final Map<String, WorkloadKind> kinds = new HashMap<>();
    private final Set<String> deletionRequested = ConcurrentHashMap.newKeySet();

    void putPod(JsonNode pod) {
        pods.put(uid(pod), pod);
    }

    void removePod(JsonNode pod) {
        pods.remove(uid(pod));
    }

    void putWorkload(WorkloadKind kind, JsonNode w) {
        workloads.put(uid(w), w);
        kinds.put(uid(w), kind);
    }

    void removeWorkload(JsonNode w) {
        workloads.remove(uid(w));
    }

    void deletionRequested(String workloadUid) {
        deletionRequested.add(workloadUid);
    }

    /**
     * Being deleted: a deletionTimestamp, or the run asked for its deletion. The second matters with background
     * deletion, where the workload goes at once and the garbage collector then deletes its pods: the checker's pod
     * watch may show those deletions before its workload watch shows the workload gone (two streams, no order).
     */
    public boolean retiring(JsonNode workload) {
        return terminating(workload) || deletionRequested.contains(uid(workload));
    }

    public JsonNode pod(String uid) {
        return pods.get(uid);
    }

    public JsonNode workload(String uid) {
        return workloads.get(uid);
    }

    public WorkloadKind kind(String workloadUid) {
        return kinds.get(workloadUid);
    }

    public Map<String, JsonNode> workloads() {
        return workloads;
    }

    /** The uid of the pod's controller, whether or not that workload is known. */
    public static String controllerUid(JsonNode pod) {
        for (JsonNode ref : pod.at("/metadata/ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref.path("uid").asText();
            }
        }
        return null;
    }

    /** The pods (terminating included) whose controller is the workload. */
    public List<JsonNode> podsOf(String workloadUid) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode p : pods.values()) {
            if (workloadUid.equals(controllerUid(p))) {
                out.add(p);
            }
        }
        return out;
    }

    /** Whether some known workload of the pod's namespace selects it. */
    public boolean selectedByAnyWorkload(JsonNode pod) {
        for (JsonNode w : workloads.values()) {
            if (w.at("/metadata/namespace").asText().equals(pod.at("/metadata/namespace").asText()) && selects(w, pod)) {
                return true;
            }
        }
        return false;
    }

    public static boolean selects(JsonNode workload, JsonNode pod) {
        JsonNode sel = workload.at("/spec/selector");
        if (sel.isMissingNode() || sel.isNull()) {
            return false;
        }
        LabelSelector selector = MAPPER.convertValue(sel, LabelSelector.class);
        Map<String, String> labels = MAPPER.convertValue(pod.at("/metadata/labels"), Map.class);
        return LabelSelectors.matches(selector, labels == null ? Map.of() : labels);
    }

    public static boolean terminating(JsonNode pod) {
        JsonNode dt = pod.at("/metadata/deletionTimestamp");
        return !dt.isMissingNode() && !dt.isNull();
    }

    /** Not being deleted and not finished. */
    public static boolean active(JsonNode pod) {
        String phase = pod.at("/status/phase").asText("");
        return !terminating(pod) && !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /** The Ready condition is True (however recently). */
    public static boolean ready(JsonNode pod) {
        for (JsonNode c : pod.at("/status/conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                return "True".equals(c.path("status").asText());
            }
        }
        return false;
    }

    /** Active, Ready, and Ready for at least minReadySeconds at {@code nowMillis}. */
    public static boolean available(JsonNode pod, int minReadySeconds, long nowMillis) {
        if (!active(pod)) {
            return false;
        }
        for (JsonNode c : pod.at("/status/conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                if (!"True".equals(c.path("status").asText())) {
                    return false;
                }
                if (minReadySeconds <= 0) {
                    return true;
                }
                String since = c.path("lastTransitionTime").asText(null);
                if (since == null) {
                    return true;
                }
                long readyMs = Instant.parse(since).toEpochMilli();
                return nowMillis - readyMs + READY_SLACK_MS >= minReadySeconds * 1000L;
            }
        }
        return false;
    }

    public static String uid(JsonNode o) {
        return o.at("/metadata/uid").asText();
    }

    public static String key(JsonNode o) {
        return o.at("/metadata/namespace").asText() + "/" + o.at("/metadata/name").asText();
    }

    public static String revision(JsonNode pod) {
        return pod.at("/metadata/labels/controller-revision-hash").asText(null);
    }
}
