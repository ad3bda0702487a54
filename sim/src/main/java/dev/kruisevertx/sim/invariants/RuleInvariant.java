package dev.kruisevertx.sim.invariants;

/**
 * An invariant that tracks one kind's state once per rule it checks: each instance checks one rule, named after it
 * (so each has its own count), and reports only that rule's violations.
 */
abstract class RuleInvariant extends NamedInvariant {
    RuleInvariant(String rule) {
        super(rule);
    }

    /** Reports {@code v} when it is this instance's rule. */
    final void report(Violations out, Violation v) {
        if (v.invariant().equals(name())) {
            out.report(v);
        }
    }
}
