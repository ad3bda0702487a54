package dev.kruisevertx.takeover;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.revision.GoRevisionData;
import dev.kruisevertx.revision.RevisionData;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether this manager would take over the workloads another controller (OpenKruise) has been running without
 * rolling their pods: for each workload, the update revision this manager would resolve from the template is the one
 * already in its status. A workload whose template matches none of its ControllerRevisions, or matches a revision
 * other than {@code status.updateRevision}, would get a new update revision, and every pod not at it would be
 * updated. Pure: the caller lists the workloads and revisions.
 */
public final class TakeoverCheck {
    /** One workload to look at: its kind, its object, its pod template and {@code status.updateRevision}. */
    public record Workload(String kind, HasMetadata object, PodTemplateSpec template, String updateRevision) {
    }

    /** A workload this manager would roll, and why (names and reasons only). */
    public record Finding(String kind, String namespace, String name, String reason) {
        public String describe() {
            return kind + " " + namespace + "/" + name + " (" + reason + ")";
        }
    }

    /**
     * @param adopted   workloads whose update revision stays as it is
     * @param wouldRoll workloads that would get another update revision
     */
    public record Report(int adopted, List<Finding> wouldRoll) {
        /** The start-up log line: counts, then at most {@code limit} names with their reasons. */
        public String summary(int limit) {
            StringBuilder s = new StringBuilder("takeover check: ").append(adopted)
                    .append(adopted == 1 ? " workload adopted unchanged, " : " workloads adopted unchanged, ")
                    .append(wouldRoll.size()).append(" would roll");
            for (int i = 0; i < Math.min(limit, wouldRoll.size()); i++) {
                s.append(i == 0 ? ": " : "; ").append(wouldRoll.get(i).describe());
            }
            if (wouldRoll.size() > limit) {
                s.append("; and ").append(wouldRoll.size() - limit).append(" more");
            }
            return s.toString();
        }

        /** The {@code /debug/controllers} section. */
        public Map<String, Object> view() {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            out.put("adoptedUnchanged", adopted);
            List<Map<String, String>> roll = new ArrayList<>();
            for (Finding f : wouldRoll) {
                roll.add(Map.of("kind", f.kind(), "namespace", f.namespace(), "name", f.name(),
                        "reason", f.reason()));
            }
            out.put("wouldRoll", roll);
            return out;
        }
    }

    private TakeoverCheck() {
    }

    public static Report check(List<Workload> workloads, List<ControllerRevision> revisions) {
        Map<String, List<ControllerRevision>> byOwner = new HashMap<>();
        for (ControllerRevision r : revisions) {
            String owner = controllerUid(r);
            if (owner != null) {
                byOwner.computeIfAbsent(owner, k -> new ArrayList<>()).add(r);
            }
        }
        int adopted = 0;
        List<Finding> roll = new ArrayList<>();
        for (Workload w : workloads) {
            String reason = reason(w, byOwner.getOrDefault(w.object().getMetadata().getUid(), List.of()));
            if (reason == null) {
                adopted++;
            } else {
                roll.add(new Finding(w.kind(), w.object().getMetadata().getNamespace(),
                        w.object().getMetadata().getName(), reason));
            }
        }
        roll.sort(java.util.Comparator.comparing(Finding::kind).thenComparing(Finding::namespace)
                .thenComparing(Finding::name));
        return new Report(adopted, List.copyOf(roll));
    }

    /** Why the workload would roll, or null when its update revision stays. */
    static String reason(Workload w, List<ControllerRevision> owned) {
        if (w.updateRevision() == null || w.updateRevision().isEmpty()) {
            // Never reconciled: nothing rolls, its pods (if any) get the first revision.
            return null;
        }
        if (w.template() == null) {
            return "no pod template";
        }
        JsonNode data;
        try {
            data = GoRevisionData.of(w.template());
        } catch (RuntimeException e) {
            return "pod template cannot be read: " + e.getMessage();
        }
        ControllerRevision equal = null;
        for (ControllerRevision r : RevisionData.sorted(owned)) {
            if (GoRevisionData.sameTemplate(r, data)) {
                equal = r;
            }
        }
        if (equal == null) {
            return "template matches none of its " + owned.size() + " ControllerRevisions; a new update revision"
                    + " would replace " + w.updateRevision();
        }
        if (!equal.getMetadata().getName().equals(w.updateRevision())) {
            return "template matches revision " + equal.getMetadata().getName() + ", not status.updateRevision "
                    + w.updateRevision();
        }
        return null;
    }

    private static String controllerUid(ControllerRevision r) {
        if (r.getMetadata().getOwnerReferences() == null) {
            return null;
        }
        for (OwnerReference o : r.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(o.getController())) {
                return o.getUid();
            }
        }
        return null;
    }
}
