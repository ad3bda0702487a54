package dev.kruisevertx.webhook;

import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.webhook.crr.NodeLookup;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadLookup;

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
    private final WorkloadSpreadLookup workloadSpreads;

    private WebhookDependencies(FeatureGates gates, PodLookup pods, NodeLookup nodes, SidecarSetLookup sidecarSets,
                                WorkloadSpreadLookup workloadSpreads) {
        this.gates = Objects.requireNonNull(gates, "gates");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.sidecarSets = Objects.requireNonNull(sidecarSets, "sidecarSets");
        this.workloadSpreads = Objects.requireNonNull(workloadSpreads, "workloadSpreads");
    }

    /** The given gates, no pods, no nodes, no SidecarSets, no WorkloadSpreads. */
    public static WebhookDependencies of(FeatureGates gates) {
        return new WebhookDependencies(gates, (namespace, name) -> Optional.empty(), NodeLookup.NONE,
                SidecarSetLookup.NONE, WorkloadSpreadLookup.NONE);
    }

    public WebhookDependencies withPods(PodLookup pods) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, workloadSpreads);
    }

    public WebhookDependencies withNodes(NodeLookup nodes) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, workloadSpreads);
    }

    public WebhookDependencies withSidecarSets(SidecarSetLookup sidecarSets) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, workloadSpreads);
    }

    public WebhookDependencies withWorkloadSpreads(WorkloadSpreadLookup workloadSpreads) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, workloadSpreads);
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

    public WorkloadSpreadLookup workloadSpreads() {
        return workloadSpreads;
    }
}
