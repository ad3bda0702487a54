package dev.kruisevertx.webhook.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;

import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import dev.kruisevertx.sidecarset.SidecarSetNamespaceIndex;
import dev.kruisevertx.sidecarset.SidecarSetRevisionChoice;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the SidecarSet webhooks read besides the object: the other SidecarSets (name conflicts), the revisions an
 * injection strategy may pin, and for pod injection the SidecarSets that may apply to a namespace and the labels of
 * namespaces. The manager wires the shared watch cache ({@link CachedSidecarSetLookup}); lookups run on the event
 * loop, so they must be in-memory and bounded by what they return (index look-ups, not scans).
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

    /**
     * The SidecarSets that may apply to a pod of {@code namespace}: those the namespace index files under it plus the
     * cluster-scoped ones (OpenKruise's two index look-ups). This default scans {@link #sidecarSets()}.
     */
    default List<SidecarSet> candidates(String namespace) {
        List<String> keys = SidecarSetNamespaceIndex.lookups(namespace);
        List<SidecarSet> out = new ArrayList<>();
        for (SidecarSet set : sidecarSets()) {
            if (SidecarSetNamespaceIndex.keys(set).stream().anyMatch(keys::contains)) {
                out.add(set);
            }
        }
        return out;
    }

    /** The labels of a namespace, empty when the namespace is not known (a namespaceSelector then does not match). */
    default Optional<Map<String, String>> namespaceLabels(String namespace) {
        return Optional.empty();
    }

    /** The ControllerRevisions of SidecarSets (in the kruise namespace). */
    default SidecarSetRevisionChoice.Revisions revisions() {
        return new SidecarSetRevisionChoice.Revisions() {
            @Override
            public Optional<ControllerRevision> byName(String name) {
                return Optional.empty();
            }

            @Override
            public List<ControllerRevision> of(String sidecarSetName) {
                return List.of();
            }
        };
    }

    /**
     * The {@code SidecarSet_PatchPodMetadata_WhiteList} value of the ConfigMap {@code kruise-configuration} in the
     * kruise namespace, completed off the event loop; empty when the ConfigMap or the key is absent.
     */
    default io.vertx.core.Future<Optional<String>> patchPodMetadataWhitelist() {
        return io.vertx.core.Future.succeededFuture(Optional.empty());
    }

    /** Whether a ControllerRevision of {@code set} matches the revision name or custom version. */
    boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision);
}
