package dev.kruisevertx.webhook;

import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.webhook.crr.NodeLookup;
import dev.kruisevertx.webhook.podunavailablebudget.PodUnavailableBudgetWebhooks.BudgetLookup;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;

import java.util.List;
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
    private final BudgetLookup budgets;
    private final PubGuard pubGuard;

    private WebhookDependencies(FeatureGates gates, PodLookup pods, NodeLookup nodes, SidecarSetLookup sidecarSets,
                                BudgetLookup budgets, PubGuard pubGuard) {
        this.gates = Objects.requireNonNull(gates, "gates");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.sidecarSets = Objects.requireNonNull(sidecarSets, "sidecarSets");
        this.budgets = Objects.requireNonNull(budgets, "budgets");
        this.pubGuard = pubGuard;
    }

    /** The given gates, no pods, no nodes, no SidecarSets, no PodUnavailableBudgets. */
    public static WebhookDependencies of(FeatureGates gates) {
        return new WebhookDependencies(gates, (namespace, name) -> Optional.empty(), NodeLookup.NONE,
                SidecarSetLookup.NONE, namespace -> List.of(), null);
    }

    public WebhookDependencies withPods(PodLookup pods) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, budgets, pubGuard);
    }

    public WebhookDependencies withNodes(NodeLookup nodes) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, budgets, pubGuard);
    }

    public WebhookDependencies withSidecarSets(SidecarSetLookup sidecarSets) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, budgets, pubGuard);
    }

    /** The PodUnavailableBudgets of a namespace (budget validation, related-pub at pod creation). */
    public WebhookDependencies withBudgets(BudgetLookup budgets) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, budgets, pubGuard);
    }

    /** The budget check of pod deletions, evictions and updates on {@code /validate-pod}; none: not checked. */
    public WebhookDependencies withPubGuard(PubGuard pubGuard) {
        return new WebhookDependencies(gates, pods, nodes, sidecarSets, budgets, pubGuard);
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

    public BudgetLookup budgets() {
        return budgets;
    }

    /** The PUB guard, or empty when this process has none (tests and tools without a cluster). */
    public Optional<PubGuard> pubGuard() {
        return Optional.ofNullable(pubGuard);
    }
}
