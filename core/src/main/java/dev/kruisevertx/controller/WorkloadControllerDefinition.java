package dev.kruisevertx.controller;

import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.time.Clock;

/**
 * The definition every workload controller (one that creates and deletes pods for its objects) shares, on top of
 * its name and kind: the clock its decisions read, and the expectations each instance keeps of its own writes,
 * named after the controller so their leak metric says whose they are.
 */
public abstract class WorkloadControllerDefinition extends NamedControllerDefinition {
    private final Clock clock;

    /** @param clock what decisions and expectation timeouts read as now (a test's fixed or stepped clock) */
    protected WorkloadControllerDefinition(String name, Class<? extends HasMetadata> primaryType, Clock clock) {
        super(name, primaryType);
        this.clock = clock;
    }

    protected final Clock clock() {
        return clock;
    }

    /** The gauge of scale expectations that outlived their timeout: {@code <name>_scale_expectation_leakage}. */
    public final String leakageMetric() {
        return name() + "_scale_expectation_leakage";
    }

    /**
     * What this controller's reconciles wait for the cache to show: its pod creates and deletes
     * ({@code scale}) and its pod updates ({@code versions}). A controller instance starts with none (a regained
     * leadership starts afresh), and its event handlers and reconciler share them.
     */
    public record Expectations(ScaleExpectations scale, ResourceVersionExpectations versions) {
    }

    /** Fresh expectations for one controller instance, timing out after the manager's expectation timeout. */
    protected final Expectations expectations(ControllerContext ctx) {
        return new Expectations(
                new ScaleExpectations(ctx.settings().expectationTimeout(), clock, ctx.registry(), leakageMetric()),
                new ResourceVersionExpectations(ctx.settings().expectationTimeout(), clock));
    }
}
