package dev.kruisevertx.sim.invariants;

/** An invariant whose name (what its violations are filed under) is fixed when it is made. */
abstract class NamedInvariant implements Invariant {
    private final String name;

    NamedInvariant(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }
}
