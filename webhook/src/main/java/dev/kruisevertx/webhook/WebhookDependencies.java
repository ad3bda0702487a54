package dev.kruisevertx.webhook;

import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.webhook.crr.NodeLookup;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtectionLookup;
import dev.kruisevertx.webhook.podunavailablebudget.PodUnavailableBudgetWebhooks.BudgetLookup;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadLookup;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodAdmission;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

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
    private PodLookup pods = (namespace, name) -> Optional.empty();
    private NodeLookup nodes = NodeLookup.NONE;
    private SidecarSetLookup sidecarSets = SidecarSetLookup.NONE;
    private WorkloadSpreadLookup workloadSpreads = WorkloadSpreadLookup.NONE;
    private DeletionProtectionLookup deletionProtection = DeletionProtectionLookup.NONE;
    private WorkloadSpreadPodAdmission workloadSpreadPods;
    private MeterRegistry meters = new SimpleMeterRegistry();
    private BudgetLookup budgets = namespace -> List.of();
    private PubGuard pubGuard;
    private dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateLookup persistentPodStates =
            dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateLookup.NONE;
    private dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerLookup podProbeMarkers =
            dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerLookup.NONE;

    private WebhookDependencies(FeatureGates gates) {
        this.gates = Objects.requireNonNull(gates, "gates");
    }

    /**
     * The given gates, no pods, no nodes, no SidecarSets, no WorkloadSpreads, empty namespaces and CRDs for deletion
     * protection, and a registry of its own for the webhooks' counters.
     */
    public static WebhookDependencies of(FeatureGates gates) {
        return new WebhookDependencies(gates);
    }

    /** A copy to change one lookup in (each {@code with...} returns a new value; this one stays as it is). */
    private WebhookDependencies copy() {
        WebhookDependencies c = new WebhookDependencies(gates);
        c.pods = pods;
        c.nodes = nodes;
        c.sidecarSets = sidecarSets;
        c.workloadSpreads = workloadSpreads;
        c.deletionProtection = deletionProtection;
        c.workloadSpreadPods = workloadSpreadPods;
        c.meters = meters;
        c.budgets = budgets;
        c.pubGuard = pubGuard;
        c.persistentPodStates = persistentPodStates;
        c.podProbeMarkers = podProbeMarkers;
        return c;
    }

    public WebhookDependencies withPods(PodLookup pods) {
        WebhookDependencies c = copy();
        c.pods = Objects.requireNonNull(pods, "pods");
        return c;
    }

    public WebhookDependencies withNodes(NodeLookup nodes) {
        WebhookDependencies c = copy();
        c.nodes = Objects.requireNonNull(nodes, "nodes");
        return c;
    }

    public WebhookDependencies withSidecarSets(SidecarSetLookup sidecarSets) {
        WebhookDependencies c = copy();
        c.sidecarSets = Objects.requireNonNull(sidecarSets, "sidecarSets");
        return c;
    }

    public WebhookDependencies withWorkloadSpreads(WorkloadSpreadLookup workloadSpreads) {
        WebhookDependencies c = copy();
        c.workloadSpreads = Objects.requireNonNull(workloadSpreads, "workloadSpreads");
        return c;
    }

    /**
     * The WorkloadSpread bookkeeping of the pod webhooks (subset choice and status records); without it no
     * WorkloadSpread step runs on pods.
     */
    public WebhookDependencies withWorkloadSpreadPods(WorkloadSpreadPodAdmission workloadSpreadPods) {
        WebhookDependencies c = copy();
        c.workloadSpreadPods = Objects.requireNonNull(workloadSpreadPods, "workloadSpreadPods");
        return c;
    }

    /** What {@code Cascading} deletion protection counts: active pods, Bound claims, objects of a CRD. */
    public WebhookDependencies withDeletionProtection(DeletionProtectionLookup deletionProtection) {
        WebhookDependencies c = copy();
        c.deletionProtection = Objects.requireNonNull(deletionProtection, "deletionProtection");
        return c;
    }

    /** Where the webhooks' own counters go (the manager's /metrics registry). */
    public WebhookDependencies withMeters(MeterRegistry meters) {
        WebhookDependencies c = copy();
        c.meters = Objects.requireNonNull(meters, "meters");
        return c;
    }

    /** The PodUnavailableBudgets of a namespace (budget validation, related-pub at pod creation). */
    public WebhookDependencies withBudgets(BudgetLookup budgets) {
        WebhookDependencies c = copy();
        c.budgets = Objects.requireNonNull(budgets, "budgets");
        return c;
    }

    /** The budget check of pod deletions, evictions and updates on {@code /validate-pod}; none: not checked. */
    public WebhookDependencies withPubGuard(PubGuard pubGuard) {
        WebhookDependencies c = copy();
        c.pubGuard = pubGuard;
        return c;
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

    /** The WorkloadSpread bookkeeping of the pod webhooks, empty when not wired. */
    public Optional<WorkloadSpreadPodAdmission> workloadSpreadPods() {
        return Optional.ofNullable(workloadSpreadPods);
    }

    public DeletionProtectionLookup deletionProtection() {
        return deletionProtection;
    }

    public MeterRegistry meters() {
        return meters;
    }

    public BudgetLookup budgets() {
        return budgets;
    }

    /** The PUB guard, or empty when this process has none (tests and tools without a cluster). */
    public Optional<PubGuard> pubGuard() {
        return Optional.ofNullable(pubGuard);
    }

    /** The PersistentPodStates of a namespace and the PPS custom workload whitelist (validation, pod step 6). */
    public WebhookDependencies withPersistentPodStates(
            dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateLookup persistentPodStates) {
        WebhookDependencies c = copy();
        c.persistentPodStates = Objects.requireNonNull(persistentPodStates, "persistentPodStates");
        return c;
    }

    public dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateLookup persistentPodStates() {
        return persistentPodStates;
    }

    /** The PodProbeMarkers of the serverless step of {@code /mutate-pod} (gate EnablePodProbeMarkerOnServerless). */
    public WebhookDependencies withPodProbeMarkers(dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerLookup markers) {
        WebhookDependencies c = copy();
        c.podProbeMarkers = Objects.requireNonNull(markers, "podProbeMarkers");
        return c;
    }

    public dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerLookup podProbeMarkers() {
        return podProbeMarkers;
    }
}
