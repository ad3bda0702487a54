package dev.kruisevertx.webhook.deletionprotection;

import java.util.Optional;

/**
 * The pure decision of OpenKruise's ResourcesDeletionProtection: whether deleting one object is refused, given its
 * label, whether it is already being deleted, the gates and what the cluster holds. The messages are OpenKruise
 * v1.9.0's, so scripts matching them keep working.
 */
public final class DeletionProtection {
    public static final String LABEL = "policy.kruise.io/delete-protection";
    public static final String ALWAYS = "Always";
    public static final String CASCADING = "Cascading";
    static final String FORBIDDEN = "forbidden by ResourcesProtectionDeletion for " + LABEL + "=";

    private DeletionProtection() {
    }

    /** The effective gates: ResourcesDeletionProtection and DeletionProtectionForCRDCascadingGate. */
    public record Gates(boolean resourcesDeletionProtection, boolean crdCascading) {
    }

    /**
     * What the decision reads about the cluster; a null count was not looked up (the decision only reads the counts
     * {@link #lookups} asked for).
     *
     * @param replicas        {@code spec.replicas} of a workload, null when unset
     * @param activePods      pods of the namespace that are neither finished nor being deleted
     * @param boundClaims     PersistentVolumeClaims of the namespace in phase Bound and not being deleted
     * @param activeResources objects of the CRD without a deletionTimestamp
     */
    public record ClusterState(Integer replicas, Integer activePods, Integer boundClaims, Integer activeResources) {
        public static final ClusterState EMPTY = new ClusterState(null, null, null, null);

        public static ClusterState replicas(Integer replicas) {
            return new ClusterState(replicas, null, null, null);
        }

        public static ClusterState namespace(int activePods, int boundClaims) {
            return new ClusterState(null, activePods, boundClaims, null);
        }

        public static ClusterState customResources(int active) {
            return new ClusterState(null, null, null, active);
        }
    }

    /** What must be read from the cluster before {@link #decide} can answer. */
    public enum Lookup {
        NONE, NAMESPACE_CONTENTS, CUSTOM_RESOURCES
    }

    /**
     * The answer: refused with OpenKruise's message, or allowed, possibly with a warning for a label value that
     * protects nothing (a typo such as {@code always} silently protecting nothing is worth telling the user).
     */
    public record Decision(boolean refused, String message) {
        static final Decision ALLOW = new Decision(false, null);

        public static Decision refuse(String message) {
            return new Decision(true, message);
        }

        static Decision warn(String message) {
            return new Decision(false, message);
        }

        /** The warning of an allowed delete, if any. */
        public Optional<String> warning() {
            return refused ? Optional.empty() : Optional.ofNullable(message);
        }
    }

    /** The lookups the decision needs; none when the label, the gates or the object's state decide alone. */
    public static Lookup lookups(ProtectedKind kind, String label, boolean deleting, Gates gates) {
        if (!gates.resourcesDeletionProtection() || deleting || !CASCADING.equals(label)) {
            return Lookup.NONE;
        }
        return switch (kind.cascading()) {
            case NAMESPACE_CONTENTS -> Lookup.NAMESPACE_CONTENTS;
            case CUSTOM_RESOURCES -> gates.crdCascading() ? Lookup.CUSTOM_RESOURCES : Lookup.NONE;
            default -> Lookup.NONE;
        };
    }

    /**
     * @param kind     the kind deleted
     * @param label    the value of {@value #LABEL}, or null
     * @param deleting the object already has a deletionTimestamp (a repeated delete changes nothing)
     * @param gates    the effective gates
     * @param state    the counts {@link #lookups} asked for
     */
    public static Decision decide(ProtectedKind kind, String label, boolean deleting, Gates gates, ClusterState state) {
        if (!gates.resourcesDeletionProtection() || deleting || label == null) {
            return Decision.ALLOW;
        }
        if (ALWAYS.equals(label)) {
            return Decision.refuse(FORBIDDEN + label);
        }
        if (!CASCADING.equals(label)) {
            return Decision.warn(LABEL + "=" + printable(label) + " protects nothing: the values are " + ALWAYS
                    + " and " + CASCADING + " (case-sensitive)");
        }
        return switch (kind.cascading()) {
            case REPLICAS -> state.replicas() != null && state.replicas() > 0
                    ? Decision.refuse(FORBIDDEN + label + " and replicas " + state.replicas() + ">0") : Decision.ALLOW;
            case NAMESPACE_CONTENTS -> namespace(label, state);
            case CUSTOM_RESOURCES -> {
                if (!gates.crdCascading()) {
                    yield Decision.refuse("feature-gate DeletionProtectionForCRDCascadingGate is not enabled");
                }
                yield count(state.activeResources()) > 0
                        ? Decision.refuse(FORBIDDEN + label + " and active CRs " + state.activeResources() + ">0")
                        : Decision.ALLOW;
            }
            case NOT_APPLICABLE -> Decision.warn(LABEL + "=" + CASCADING + " protects no " + kind.kind()
                    + ": only " + ALWAYS + " does");
        };
    }

    private static Decision namespace(String label, ClusterState state) {
        if (count(state.activePods()) > 0) {
            return Decision.refuse(FORBIDDEN + label + " and active pods " + state.activePods() + ">0");
        }
        if (count(state.boundClaims()) > 0) {
            return Decision.refuse(FORBIDDEN + label + " and \"Bound\" status pvc " + state.boundClaims() + ">0");
        }
        return Decision.ALLOW;
    }

    private static int count(Integer n) {
        return n == null ? 0 : n;
    }

    /** A label value as shown in a warning: label values are short by the API's rules, but a review may lie. */
    static String printable(String value) {
        String cut = value.length() > 63 ? value.substring(0, 63) + "..." : value;
        return '"' + cut.replaceAll("[^\\x20-\\x7e]", "?") + '"';
    }
}
