package dev.kruisevertx.statefulset;

import dev.kruisevertx.inplace.InPlaceUpdateCalculator;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.revision.RevisionHistory;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The pod templates of an Advanced StatefulSet's revisions, as the decision needs them: the template a pod of some
 * revision is created from, and the in-place update from a pod's revision to the update revision (worked out once
 * per revision and remembered).
 */
final class StatefulSetRevisionTemplates {
    private final Map<String, ControllerRevision> byName;
    private final String updateRevision;
    private final PodTemplateSpec updateTemplate;
    private final InPlaceUpdateOptions options;
    private final Map<String, Optional<InPlaceUpdateSpec>> inPlace = new HashMap<>();

    StatefulSetRevisionTemplates(Map<String, ControllerRevision> byName, String updateRevision,
                                 PodTemplateSpec updateTemplate, InPlaceUpdateOptions options) {
        this.byName = Map.copyOf(byName);
        this.updateRevision = updateRevision;
        this.updateTemplate = updateTemplate;
        this.options = options;
    }

    boolean has(String revision) {
        return byName.containsKey(revision);
    }

    /** The template to create a pod of {@code revision} from: the set's own for the update revision or one unknown. */
    PodTemplateSpec templateFor(String revision) {
        ControllerRevision r = byName.get(revision);
        if (revision.equals(updateRevision) || r == null) {
            return updateTemplate;
        }
        try {
            return RevisionHistory.templateOf(r);
        } catch (IllegalArgumentException e) {
            return updateTemplate;
        }
    }

    /** The in-place update from {@code revision} to the update revision, or null when one is not possible. */
    InPlaceUpdateSpec inPlaceSpec(String revision) {
        ControllerRevision from = revision == null ? null : byName.get(revision);
        if (from == null) {
            return null;
        }
        return inPlace.computeIfAbsent(from.getMetadata().getName(), n -> {
            try {
                return Optional.ofNullable(InPlaceUpdateCalculator.calculate(RevisionHistory.templateOf(from),
                        updateTemplate, updateRevision, options));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }).orElse(null);
    }
}
