package dev.kruisevertx.webhook;

import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.webhook.crr.NodeLookup;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;

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

    private WebhookDependencies(FeatureGates gates, PodLookup pods, NodeLookup nodes, SidecarSetLookup sidecarSets) {
        this.gates = Objects.requireNonNull(gates, "gates");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.sidecarSets = Objects.requireNonNull(sidecarSets, "sidecarSets");
    }

    /** The given gates, no pods, no nodes, no SidecarSets. */
    public static WebhookDependencies of(FeatureGates gates) {
        return new WebhookDependencies(gates, (namespace, name) -> Optional.empty(), NodeLookup.NONE,
                SidecarSetLookup.NONE);
    }

    public WebhookDependencies withPods(PodLookup pods) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets);
    }

    public WebhookDependencies withNodes(NodeLookup nodes) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets);
    }

    public WebhookDependencies withSidecarSets(SidecarSetLookup sidecarSets) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets);
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
