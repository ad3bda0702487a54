package dev.kruisevertx.cache;

import java.util.List;

/** Thrown by {@link CacheMutationDetector#check()} when a caller changed cached objects. */
public final class CacheMutationException extends IllegalStateException {
    private final transient List<CacheMutationDetector.Mutation> mutations;

    CacheMutationException(List<CacheMutationDetector.Mutation> mutations) {
        super(describe(mutations));
        this.mutations = List.copyOf(mutations);
    }

    public List<CacheMutationDetector.Mutation> mutations() {
        return mutations;
    }

    private static String describe(List<CacheMutationDetector.Mutation> mutations) {
        StringBuilder sb = new StringBuilder(mutations.size() + " cached object(s) were modified in place; "
                + "copy before changing and write with a patch:");
        for (CacheMutationDetector.Mutation m : mutations) {
            sb.append("\n  ").append(m);
        }
        return sb.toString();
    }
}
