package dev.kruisevertx.api.common;

/**
 * Label, annotation, condition, finalizer and env names OpenKruise v1.9 reads or writes. Every component uses these
 * constants so a pod or PVC touched by OpenKruise and by this project carry exactly the same keys.
 */
public final class WellKnown {
    private WellKnown() {
    }

    // ---- Workload pods and PVCs --------------------------------------------------------------------------------

    /**
     * Pod label: revision of the pod ({@code <name>-<hash>}, or the bare hash with gate CloneSetShortHash). OpenKruise's
     * CloneSet and Advanced StatefulSet write the apps/v1 key, so existing pods keep matching after a swap.
     */
    public static final String CONTROLLER_REVISION_HASH_LABEL = "controller-revision-hash";
    /** Label of UnitedDeployment subsets: the UnitedDeployment revision a subset workload was built from. */
    public static final String SUBSET_REVISION_HASH_LABEL = "apps.kruise.io/controller-revision-hash";
    /** Pod label: the template hash, kept next to the revision label. */
    public static final String POD_TEMPLATE_HASH_LABEL = "pod-template-hash";
    /** Pod and PVC label: the CloneSet instance both belong to. */
    public static final String CLONESET_INSTANCE_ID_LABEL = "apps.kruise.io/cloneset-instance-id";
    /** Pod label: the owning workload should delete this pod (the value may carry a deletion option). */
    public static final String SPECIFIED_DELETE_LABEL = "apps.kruise.io/specified-delete";
    /** CloneSet label: count replicas for scaling without the pods in PreparingDelete. */
    public static final String CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL =
            "apps.kruise.io/cloneset-scaling-exclude-preparing-delete";
    /** Pod annotation (Kubernetes): lower cost = deleted first on scale-down. */
    public static final String POD_DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";
    /** PVC annotation: hash of the volumeClaimTemplates the PVC was created from. */
    public static final String CLONESET_VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION =
            "kruise.io/cloneset-volumeclaimtemplate-hash";
    /** Default of CloneSet {@code updateStrategy.maxUnavailable}. */
    public static final String DEFAULT_CLONESET_MAX_UNAVAILABLE = "20%";

    // ---- Lifecycle ---------------------------------------------------------------------------------------------

    /** Pod label: lifecycle state, one of the {@code LIFECYCLE_STATE_*} values ({@link LifecycleState}). */
    public static final String LIFECYCLE_STATE_LABEL = "lifecycle.apps.kruise.io/state";
    /** Pod label: when the lifecycle state last changed. */
    public static final String LIFECYCLE_TIMESTAMP_LABEL = "lifecycle.apps.kruise.io/timestamp";
    public static final String LIFECYCLE_STATE_PREPARING_NORMAL = "PreparingNormal";
    public static final String LIFECYCLE_STATE_NORMAL = "Normal";
    public static final String LIFECYCLE_STATE_PREPARING_UPDATE = "PreparingUpdate";
    public static final String LIFECYCLE_STATE_UPDATING = "Updating";
    public static final String LIFECYCLE_STATE_UPDATED = "Updated";
    public static final String LIFECYCLE_STATE_PREPARING_DELETE = "PreparingDelete";

    // ---- In-place update ---------------------------------------------------------------------------------------

    /** Pod annotation: JSON {@link InPlaceUpdateState}. */
    /** On each Job/BroadcastJob an AdvancedCronJob creates: the run's scheduled time (RFC 3339). */
    public static final String SCHEDULED_AT_ANNOTATION = "apps.kruise.io/scheduled-at";
    public static final String INPLACE_UPDATE_STATE_ANNOTATION = "apps.kruise.io/inplace-update-state";
    /** Pre-v1.0 name of {@link #INPLACE_UPDATE_STATE_ANNOTATION}, still read. */
    public static final String INPLACE_UPDATE_STATE_ANNOTATION_OLD = "inplace-update-state";
    /** Pod annotation: the update to apply once the in-place grace period ends. */
    public static final String INPLACE_UPDATE_GRACE_ANNOTATION = "apps.kruise.io/inplace-update-grace";
    /** Pre-v1.0 name of {@link #INPLACE_UPDATE_GRACE_ANNOTATION}, still read. */
    public static final String INPLACE_UPDATE_GRACE_ANNOTATION_OLD = "inplace-update-grace";
    /** Pod annotation: container hashes reported by kruise-daemon (JSON {@link RuntimeContainerMetaSet}). */
    public static final String RUNTIME_CONTAINERS_META_ANNOTATION = "apps.kruise.io/runtime-containers-meta";
    /** Readiness-gate condition held False while a pod is updated in place. */
    public static final String INPLACE_UPDATE_READY_CONDITION = "InPlaceUpdateReady";
    /** Readiness-gate condition Kruise components set False to take a pod out of service (e.g. markPodNotReady). */
    public static final String KRUISE_POD_READY_CONDITION = "KruisePodReady";

    // ---- Image pre-download ------------------------------------------------------------------------------------

    public static final String IMAGE_PREDOWNLOAD_CREATED_ANNOTATION = "apps.kruise.io/pre-predownload-created";
    public static final String IMAGE_PREDOWNLOAD_IGNORED_ANNOTATION = "apps.kruise.io/image-predownload-ignored";
    public static final String IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION =
            "apps.kruise.io/image-predownload-parallelism";
    public static final String IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION =
            "apps.kruise.io/image-predownload-timeout-seconds";
    public static final String IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION =
            "apps.kruise.io/image-predownload-min-updated-ready-pods";

    // ---- Container launch priority -----------------------------------------------------------------------------

    public static final String CONTAINER_LAUNCH_PRIORITY_ENV = "KRUISE_CONTAINER_PRIORITY";
    public static final String CONTAINER_LAUNCH_BARRIER_ENV = "KRUISE_CONTAINER_BARRIER";
    /** Pod annotation; value {@link #CONTAINER_LAUNCH_ORDERED} launches containers in their order. */
    public static final String CONTAINER_LAUNCH_PRIORITY_ANNOTATION = "apps.kruise.io/container-launch-priority";
    public static final String CONTAINER_LAUNCH_ORDERED = "Ordered";
    public static final String CONTAINER_LAUNCH_PRIORITY_COMPLETED_ANNOTATION =
            "apps.kruise.io/container-launch-priority-completed";

    // ---- SidecarSet --------------------------------------------------------------------------------------------

    public static final String SIDECARSET_HASH_ANNOTATION = "kruise.io/sidecarset-hash";
    public static final String SIDECARSET_HASH_WITHOUT_IMAGE_ANNOTATION = "kruise.io/sidecarset-hash-without-image";
    public static final String SIDECARSET_INJECTED_LIST_ANNOTATION = "kruise.io/sidecarset-injected-list";
    public static final String SIDECARSET_INPLACE_UPDATE_STATE_ANNOTATION = "kruise.io/sidecarset-inplace-update-state";
    public static final String SIDECARSET_WORKING_HOT_UPGRADE_CONTAINER_ANNOTATION =
            "kruise.io/sidecarset-working-hotupgrade-container";
    public static final String SIDECARSET_CANARY_ANNOTATION = "apps.kruise.io/sidecarset-canary";
    public static final String SIDECARSET_BASE_ANNOTATION = "apps.kruise.io/sidecarset-base";
    /** SidecarSet v1alpha1 label: custom version of the SidecarSet. */
    public static final String SIDECARSET_CUSTOM_VERSION_LABEL = "apps.kruise.io/sidecarset-custom-version";
    /** Pod condition set by the SidecarSet controller. */
    public static final String SIDECARSET_UPGRADABLE_CONDITION = "SidecarSetUpgradable";
    public static final String SIDECAR_ENV_IS_INJECTED = "IS_INJECTED";
    public static final String SIDECAR_ENV_SIDECARSET_VERSION = "SIDECARSET_VERSION";
    public static final String SIDECAR_ENV_SIDECARSET_VERSION_ALT = "SIDECARSET_VERSION_ALT";
    /** Sidecar env "true": kill the sidecar (through a CRR) when the job's main containers exit. */
    public static final String TERMINATE_SIDECAR_WHEN_JOB_EXIT_ENV = "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT";
    /** Sidecar env: image that replaces the sidecar's in place to stop it when the job exits. */
    public static final String TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE_ENV =
            "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE";
    public static final String TERMINATE_SIDECAR_IGNORE_EXIT_CODE_ENV = "KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE";

    // ---- Other workloads ---------------------------------------------------------------------------------------

    /** Pod annotation: the WorkloadSpread (and subset) the pod was counted in. */
    public static final String MATCHED_WORKLOADSPREAD_ANNOTATION = "apps.kruise.io/matched-workloadspread";
    public static final String SUBSET_NAME_LABEL = "apps.kruise.io/subset-name";
    public static final String SUBSET_PATCH_ANNOTATION = "apps.kruise.io/subset-patch";
    public static final String UNITED_DEPLOYMENT_RESERVED_POD_LABEL = "apps.kruise.io/united-deployment-reserved-pod";
    public static final String EPHEMERAL_JOB_ID_ENV = "KRUISE_EJOB_ID";
    /** Finalizer the ImagePullJob v1alpha1 webhook adds on create. */
    public static final String DELETION_PROTECTION_FINALIZER = "apps.kruise.io/deletion-protection";
    public static final String USING_ENHANCED_LIVENESS_ANNOTATION = "apps.kruise.io/using-enhanced-liveness";
    public static final String CONTAINER_PROBE_CONTEXT_ANNOTATION = "apps.kruise.io/container-probe-context";

    // ---- ContainerRecreateRequest ------------------------------------------------------------------------------

    public static final String CRR_POD_UID_LABEL = "crr.apps.kruise.io/pod-uid";
    public static final String CRR_NODE_NAME_LABEL = "crr.apps.kruise.io/node-name";
    public static final String CRR_ACTIVE_LABEL = "crr.apps.kruise.io/active";
    public static final String CRR_UNREADY_ACQUIRED_FINALIZER = "crr.apps.kruise.io/unready-acquired";
    public static final String CRR_SYNC_CONTAINER_STATUSES_ANNOTATION = "crr.apps.kruise.io/sync-container-statuses";

    // ---- Policy ------------------------------------------------------------------------------------------------

    /** Label on namespaces and workloads: {@link #DELETE_PROTECTION_ALWAYS} or {@link #DELETE_PROTECTION_CASCADING}. */
    public static final String DELETE_PROTECTION_LABEL = "policy.kruise.io/delete-protection";
    public static final String DELETE_PROTECTION_ALWAYS = "Always";
    public static final String DELETE_PROTECTION_CASCADING = "Cascading";
    /** Pod annotation: the PodUnavailableBudget protecting the pod. */
    public static final String PUB_RELATED_ANNOTATION = "pub.kruise.io/related-pub";
    /** Pre-v1.0 name of {@link #PUB_RELATED_ANNOTATION}, still read. */
    public static final String PUB_RELATED_ANNOTATION_OLD = "kruise.io/related-pub";
    public static final String PUB_NO_PROTECT_ANNOTATION = "pub.kruise.io/no-protect";
    /** PUB v1alpha1 annotation: comma list of protected operations. */
    public static final String PUB_PROTECT_OPERATIONS_ANNOTATION = "kruise.io/pub-protect-operations";
    /** PUB v1alpha1 annotation: total replicas to protect. */
    public static final String PUB_PROTECT_TOTAL_REPLICAS_ANNOTATION = "pub.kruise.io/protect-total-replicas";
    /** Prefix of pod labels that mark a pod unavailable for PUB accounting. */
    public static final String UNAVAILABLE_POD_LABEL_PREFIX = "unavailable-pod.kruise.io/";

    // ---- Manager configuration ---------------------------------------------------------------------------------

    /** ConfigMap in the kruise namespace holding the whitelists below. */
    public static final String KRUISE_CONFIGURATION_CONFIGMAP = "kruise-configuration";
    public static final String SIDECARSET_PATCH_POD_METADATA_WHITELIST_KEY = "SidecarSet_PatchPodMetadata_WhiteList";
    public static final String PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY = "PPS_Watch_Custom_Workload_WhiteList";
    public static final String WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY =
            "WorkloadSpread_Watch_Custom_Workload_WhiteList";
}
