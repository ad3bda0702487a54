package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.sim.OptionChecks;

import java.time.Duration;

/** Settings of the built-in workload controllers. Setters return this for chaining. */
public final class BuiltinControllersOptions {
    private Duration jobBackoff = Duration.ofSeconds(10);

    /**
     * The first delay before a Job replaces a failed pod; it doubles with each further failure up to 6 minutes, as
     * kube's job controller does (10s there; tests shorten it).
     */
    public Duration jobBackoff() {
        return jobBackoff;
    }

    public BuiltinControllersOptions setJobBackoff(Duration jobBackoff) {
        this.jobBackoff = OptionChecks.notNegative("jobBackoff", jobBackoff);
        return this;
    }

    public BuiltinControllersOptions copy() {
        return new BuiltinControllersOptions().setJobBackoff(jobBackoff);
    }
}
