package dev.kruisevertx.webhook;

import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.webhook.crr.NodeLookup;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtectionLookup;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.util.Objects;
import java.util.Optional;

/**
 * What the webhooks read besides the admission request: the effective feature gates and the lookups into the shared
 * watch cache. One immutable value instead of a growing parameter list, so a new webhook adds one lookup here (with a
 * harmless default) and no caller that does not need it changes. Lookups run on the event loop: in-memory only, or
 * returning a Future computed off the loop.
 */
public final class WebhookDependencies {
    private final FeatureGates gates;
    private final PodLookup pods;
    private final NodeLookup nodes;
    private final SidecarSetLookup sidecarSets;
    private final DeletionProtectionLookup deletionProtection;
    private final MeterRegistry meters;

    private WebhookDependencies(FeatureGates gates, PodLookup pods, NodeLookup nodes, SidecarSetLookup sidecarSets,
                                DeletionProtectionLookup deletionProtection, MeterRegistry meters) {
        this.gates = Objects.requireNonNull(gates, "gates");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.sidecarSets = Objects.requireNonNull(sidecarSets, "sidecarSets");
        this.deletionProtection = Objects.requireNonNull(deletionProtection, "deletionProtection");
        this.meters = Objects.requireNonNull(meters, "meters");
    }

    /**
     * The given gates, no pods, no nodes, no SidecarSets, empty namespaces and CRDs for deletion protection, and a
     * registry of its own for the webhooks' counters.
     */
    public static WebhookDependencies of(FeatureGates gates) {
        return new WebhookDependencies(gates, (namespace, name) -> Optional.empty(), NodeLookup.NONE,
                SidecarSetLookup.NONE, DeletionProtectionLookup.NONE, new SimpleMeterRegistry());
    }

    public WebhookDependencies withPods(PodLookup pods) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, deletionProtection, meters);
    }

    public WebhookDependencies withNodes(NodeLookup nodes) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, deletionProtection, meters);
    }

    public WebhookDependencies withSidecarSets(SidecarSetLookup sidecarSets) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, deletionProtection, meters);
    }

    /** What {@code Cascading} deletion protection counts: active pods, Bound claims, objects of a CRD. */
    public WebhookDependencies withDeletionProtection(DeletionProtectionLookup deletionProtection) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, deletionProtection, meters);
    }

    /** Where the webhooks' own counters go (the manager's /metrics registry). */
    public WebhookDependencies withMeters(MeterRegistry meters) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, deletionProtection, meters);
    }

    public DeletionProtectionLookup deletionProtection() {
        return deletionProtection;
    }

    public MeterRegistry meters() {
        return meters;
    }

    public FeatureGates gates() {
        return gates;
    }

    public PodLookup pods() {
        return pods;
    }

    public NodeLookup nodes() {
        return nodes;
    }

    public SidecarSetLookup sidecarSets() {
        return sidecarSets;
    }
}
