package dev.kruisevertx.webhook.deletionprotection;

import java.util.Optional;

/**
 * The kinds whose deletion the label {@code policy.kruise.io/delete-protection} can refuse, as OpenKruise v1.9.0 lists
 * them, and what {@code Cascading} means for each. Found by group and kind (any version), so a kind this project does
 * not serve yet (UnitedDeployment) is protected as soon as its objects reach a protected path.
 */
public enum ProtectedKind {
    /** {@code Cascading}: refused while the namespace has active pods or Bound claims. */
    NAMESPACE("", "Namespace", Cascading.NAMESPACE_CONTENTS),
    /** {@code Cascading} does not apply: only {@code Always} protects it. */
    SERVICE("", "Service", Cascading.NOT_APPLICABLE),
    INGRESS("networking.k8s.io", "Ingress", Cascading.NOT_APPLICABLE),
    /** {@code Cascading}: refused while objects of the CRD exist (gate DeletionProtectionForCRDCascadingGate). */
    CUSTOM_RESOURCE_DEFINITION("apiextensions.k8s.io", "CustomResourceDefinition", Cascading.CUSTOM_RESOURCES),
    DEPLOYMENT("apps", "Deployment", Cascading.REPLICAS),
    REPLICA_SET("apps", "ReplicaSet", Cascading.REPLICAS),
    STATEFUL_SET("apps", "StatefulSet", Cascading.REPLICAS),
    ADVANCED_STATEFUL_SET("apps.kruise.io", "StatefulSet", Cascading.REPLICAS),
    CLONE_SET("apps.kruise.io", "CloneSet", Cascading.REPLICAS),
    UNITED_DEPLOYMENT("apps.kruise.io", "UnitedDeployment", Cascading.REPLICAS);

    /** What {@code Cascading} waits for before a delete is allowed. */
    public enum Cascading {
        /** {@code spec.replicas} is 0 or unset. */
        REPLICAS,
        /** No active pods and no Bound PersistentVolumeClaims in the namespace. */
        NAMESPACE_CONTENTS,
        /** No object of the CRD's storage version without a deletionTimestamp. */
        CUSTOM_RESOURCES,
        /** The value is accepted on the label but protects nothing. */
        NOT_APPLICABLE
    }

    private final String group;
    private final String kind;
    private final Cascading cascading;

    ProtectedKind(String group, String kind, Cascading cascading) {
        this.group = group;
        this.kind = kind;
        this.cascading = cascading;
    }

    public String group() {
        return group;
    }

    public String kind() {
        return kind;
    }

    public Cascading cascading() {
        return cascading;
    }

    /** The protected kind of {@code group}/{@code kind}, or empty for any other kind. */
    public static Optional<ProtectedKind> of(String group, String kind) {
        String g = group == null ? "" : group;
        for (ProtectedKind k : values()) {
            if (k.group.equals(g) && k.kind.equals(kind)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
