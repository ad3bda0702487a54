package dev.kruisevertx.sim.invariants;

import java.util.Set;

/**
 * An invariant that judges pod deletions, and so has to know the deletions the run itself asked for (those are
 * never the controllers' fault).
 */
abstract class DeletionJudgingInvariant extends NamedInvariant {
    private final Set<String> expectedDeletions;

    DeletionJudgingInvariant(String name, Set<String> expectedDeletions) {
        super(name);
        this.expectedDeletions = expectedDeletions;
    }

    /** Whether the run deleted the pod {@code podKey} (namespace/name) itself. */
    final boolean runDeleted(String podKey) {
        return expectedDeletions.contains(podKey);
    }
}
