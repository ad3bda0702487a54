package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Puts together everything one decision reads ({@link StatefulSetPlanner.Input}) from a snapshot, the resolved
 * revisions, the feature gates and the time of the decision. Pure: the reconciler and the decision benchmark both
 * use it.
 */
final class StatefulSetStateBuilder {
    private StatefulSetStateBuilder() {
    }

    /** The revision a pod is at: its {@code controller-revision-hash} label. */
    static String revisionOf(Pod pod) {
        return Pods.label(pod, WellKnown.CONTROLLER_REVISION_HASH_LABEL);
    }

    /**
     * @throws IllegalArgumentException when the set's settings cannot be read (a maxUnavailable)
     */
    private static final InPlaceUpdater UPDATER = new InPlaceUpdater(RevisionLabels.plain());

    static StatefulSetPlanner.Input build(StatefulSetSnapshot snap, TemplateRevisions.Resolution revs,
                                          FeatureGates gates, Instant now) {
        StatefulSet set = snap.set();
        ControllerRevision update = revs.update();
        String updateRevision = update.getMetadata().getName();
        Map<String, ControllerRevision> byName = new HashMap<>();
        snap.history().forEach(r -> byName.put(r.getMetadata().getName(), r));
        byName.put(updateRevision, update);
        String statusCurrent = set.getStatus() == null ? null : set.getStatus().getCurrentRevision();
        String currentRevision = statusCurrent != null && byName.containsKey(statusCurrent) ? statusCurrent
                : updateRevision;
        StatefulSetSettings settings = StatefulSetSettings.of(set, snap.desired().size(), gates);
        StatefulSetRevisionTemplates templates = new StatefulSetRevisionTemplates(byName, updateRevision,
                set.getSpec().getTemplate(), settings.inPlaceOptions());
        Function<Pod, String> revisionOf = StatefulSetStateBuilder::revisionOf;
        Predicate<Pod> inPlaceUpdatable = p -> settings.inPlacePolicy() && templates.inPlaceSpec(revisionOf(p)) != null;
        StatefulSetOrdinalPlanner.State state = new StatefulSetOrdinalPlanner.State(snap.setName(), snap.desired(),
                settings.parallel(), settings.rollingUpdate(), settings.partition(), settings.maxUnavailable(),
                settings.paused(), settings.scaleMaxUnavailable(), settings.minReadySeconds(), currentRevision,
                updateRevision, snap.pods(), revisionOf, inPlaceUpdatable, settings.inPlaceOnly(), settings.priority(),
                now, claims(snap, settings), p -> UPDATER.checkCompleted(p).done());
        return new StatefulSetPlanner.Input(snap, settings, state, templates);
    }

    /** volumeClaimUpdateStrategy OnPodRollingUpdate (gate StatefulSetAutoResizePVCGate) as the ordinals see it. */
    private static StatefulSetOrdinalPlanner.Claims claims(StatefulSetSnapshot snap, StatefulSetSettings settings) {
        if (!settings.resizeClaims()) {
            return StatefulSetOrdinalPlanner.Claims.NONE;
        }
        return new StatefulSetOrdinalPlanner.Claims(true,
                p -> snap.claimsOf(p).stream().allMatch(e -> StatefulSetClaims.matches(e.getKey(), e.getValue())),
                p -> snap.claimsOf(p).stream().allMatch(e -> StatefulSetClaims.compatibleWithoutSize(e.getKey(),
                        e.getValue()) && StatefulSetClaims.ready(e.getKey())),
                p -> snap.claimsOf(p).stream().allMatch(e -> StatefulSetClaims.resizeCompleted(e.getKey(),
                        e.getValue())));
    }
}
