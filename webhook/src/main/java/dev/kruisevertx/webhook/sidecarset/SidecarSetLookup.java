package dev.kruisevertx.webhook.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;

import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What SidecarSet validation reads besides the object: the other SidecarSets (name conflicts) and the revisions an
 * injection strategy may pin. The manager wires the shared watch cache; lookups run on the event loop, so they must
 * be in-memory.
 */
public interface SidecarSetLookup {
    /** No other SidecarSets and no revisions. */
    SidecarSetLookup NONE = new SidecarSetLookup() {
        @Override
        public List<SidecarSet> sidecarSets() {
            return List.of();
        }

        @Override
        public boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision) {
            return false;
        }
    };

    /** Label naming the SidecarSet a ControllerRevision belongs to. */
    String REVISION_OWNER_LABEL = "kruise.io/sidecarset-name";

    /**
     * A lookup over in-memory lists (the shared cache's SidecarSets and ControllerRevisions): a revision matches by
     * name or by its custom-version label, among the revisions labelled with the SidecarSet's name.
     */
    static SidecarSetLookup of(Supplier<List<SidecarSet>> sets, Supplier<List<ControllerRevision>> revisions) {
        return new SidecarSetLookup() {
            @Override
            public List<SidecarSet> sidecarSets() {
                return sets.get();
            }

            @Override
            public boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision) {
                String owner = set.getMetadata() == null ? null : set.getMetadata().getName();
                for (ControllerRevision r : revisions.get()) {
                    Map<String, String> labels = r.getMetadata().getLabels();
                    if (labels == null || owner == null || !owner.equals(labels.get(REVISION_OWNER_LABEL))) {
                        continue;
                    }
                    if (revision.getRevisionName() != null) {
                        if (revision.getRevisionName().equals(r.getMetadata().getName())) {
                            return true;
                        }
                    } else if (revision.getCustomVersion() != null
                            && revision.getCustomVersion().equals(labels.get(SidecarSet.CUSTOM_VERSION_LABEL))) {
                        return true;
                    }
                }
                return false;
            }
        };
    }

    /** Every SidecarSet in the cluster (the cache's objects: never modified). */
    List<SidecarSet> sidecarSets();

    /** Whether a ControllerRevision of {@code set} matches the revision name or custom version. */
    boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision);
}
