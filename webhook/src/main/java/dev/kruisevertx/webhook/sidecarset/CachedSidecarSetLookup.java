package dev.kruisevertx.webhook.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.sidecarset.SidecarSetNamespaceIndex;
import dev.kruisevertx.sidecarset.SidecarSetRevisionChoice;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link SidecarSetLookup} over the manager's shared watch cache, as OpenKruise's webhook reads its informer cache:
 * the candidates of a pod come from two look-ups of the SidecarSet namespace index (its namespace and the cluster
 * scope), so an admission costs what it finds, not the number of SidecarSets; revisions come from an index on the
 * {@code kruise.io/sidecarset-name} label. The manager starts the SidecarSet, Namespace and ControllerRevision
 * informers on every replica, leader or not, since the webhook serves everywhere.
 */
public final class CachedSidecarSetLookup implements SidecarSetLookup {
    /** ControllerRevision index: the SidecarSet a revision belongs to (its {@code kruise.io/sidecarset-name} label). */
    public static final String REVISION_INDEX = "sidecarset-revision-owner";
    public static final Function<ControllerRevision, List<String>> REVISION_OWNER = r -> {
        Map<String, String> labels = r.getMetadata() == null ? null : r.getMetadata().getLabels();
        String owner = labels == null ? null : labels.get(REVISION_OWNER_LABEL);
        return owner == null ? List.of() : List.of(owner);
    };

    private final CachedResource<SidecarSet> sets;
    private final CachedResource<Namespace> namespaces;
    private final CachedResource<ControllerRevision> revisions;
    private final String kruiseNamespace;
    private final Supplier<Future<Optional<String>>> whitelist;

    /**
     * @param kruiseNamespace the namespace OpenKruise keeps SidecarSet revisions and {@code kruise-configuration} in
     * @param whitelist       reads the patchPodMetadata whitelist (off the event loop)
     */
    public CachedSidecarSetLookup(WatchCache cache, String kruiseNamespace, Supplier<Future<Optional<String>>> whitelist) {
        this.sets = cache.resource(SidecarSet.class);
        this.namespaces = cache.resource(Namespace.class);
        this.revisions = cache.resource(ControllerRevision.class);
        this.kruiseNamespace = kruiseNamespace;
        this.whitelist = whitelist;
    }

    /** Registers the indexes this lookup reads; call before the informers start. */
    public static void registerIndexes(WatchCache cache) {
        cache.addIndex(SidecarSet.class, SidecarSetNamespaceIndex.NAME, SidecarSetNamespaceIndex.FUNCTION);
        cache.addIndex(ControllerRevision.class, REVISION_INDEX, REVISION_OWNER);
    }

    /** The kinds whose informers back this lookup. */
    public static List<Class<? extends io.fabric8.kubernetes.api.model.HasMetadata>> kinds() {
        return List.of(SidecarSet.class, Namespace.class, ControllerRevision.class);
    }

    @Override
    public List<SidecarSet> sidecarSets() {
        return sets.list();
    }

    @Override
    public List<SidecarSet> candidates(String namespace) {
        List<SidecarSet> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String key : SidecarSetNamespaceIndex.lookups(namespace)) {
            for (SidecarSet set : sets.byIndex(SidecarSetNamespaceIndex.NAME, key)) {
                if (seen.add(set.getMetadata().getName())) {
                    out.add(set);
                }
            }
        }
        return out;
    }

    @Override
    public Optional<Map<String, String>> namespaceLabels(String namespace) {
        Namespace ns = namespaces.get(null, namespace);
        if (ns == null) {
            return Optional.empty();
        }
        return Optional.of(ns.getMetadata().getLabels() == null ? Map.of() : ns.getMetadata().getLabels());
    }

    @Override
    public SidecarSetRevisionChoice.Revisions revisions() {
        return new SidecarSetRevisionChoice.Revisions() {
            @Override
            public Optional<ControllerRevision> byName(String name) {
                return Optional.ofNullable(revisions.get(kruiseNamespace, name));
            }

            @Override
            public List<ControllerRevision> of(String sidecarSetName) {
                return revisions.byIndex(REVISION_INDEX, sidecarSetName).stream()
                        .filter(r -> kruiseNamespace.equals(r.getMetadata().getNamespace()))
                        .toList();
            }
        };
    }

    @Override
    public boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision) {
        String owner = set.getMetadata() == null ? null : set.getMetadata().getName();
        if (owner == null) {
            return false;
        }
        return SidecarSetLookup.of(List::of, () -> revisions().of(owner)).hasRevision(set, revision);
    }

    @Override
    public Future<Optional<String>> patchPodMetadataWhitelist() {
        return whitelist.get();
    }
}
