package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code apps.kruise.io/v1alpha1} UnitedDeployment, the only (and storage) version in OpenKruise v1.9.0: one
 * application spread over topology subsets, each a workload (CloneSet, Advanced StatefulSet, StatefulSet or
 * Deployment) made from one template. Status and scale subresources and printer columns as OpenKruise.
 */
@Group(UnitedDeployment.GROUP)
@Version(value = UnitedDeployment.VERSION, storage = true, served = true)
@Kind(UnitedDeployment.KIND)
@Plural(UnitedDeployment.PLURAL)
@Singular("uniteddeployment")
@ShortNames("ud")
@AdditionalPrinterColumn(name = "DESIRED", jsonPath = ".spec.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The desired number of pods.")
@AdditionalPrinterColumn(name = "CURRENT", jsonPath = ".status.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of currently all pods.")
@AdditionalPrinterColumn(name = "UPDATED", jsonPath = ".status.updatedReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods updated.")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.readyReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods ready.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = CloneSet.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeployment extends CustomResource<UnitedDeploymentSpec, UnitedDeploymentStatus>
        implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "UnitedDeployment";
    public static final String PLURAL = "uniteddeployments";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    /** Label on every subset workload (and its pods): the subset's name in the topology. */
    public static final String SUBSET_NAME_LABEL = "apps.kruise.io/subset-name";
    /** Annotation on a subset workload recording the subset patch applied to it. */
    public static final String SUBSET_PATCH_ANNOTATION = "apps.kruise.io/subset-patch";
    /**
     * Label on a subset workload and its pods: the name of the UnitedDeployment revision it was made from
     * (OpenKruise's own key, so the subset workload's controllers never overwrite it with theirs).
     */
    public static final String CONTROLLER_REVISION_HASH_LABEL = "apps.kruise.io/controller-revision-hash";
    /** Label on pods kept in an unschedulable subset while a temporary pod stands in for them (Adaptive reservation). */
    public static final String RESERVED_POD_LABEL = "apps.kruise.io/united-deployment-reserved-pod";

    /** The spec, never null (an empty one when the object has none). */
    public UnitedDeploymentSpec spec() {
        return getSpec() == null ? new UnitedDeploymentSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public UnitedDeploymentStatus status() {
        return getStatus() == null ? new UnitedDeploymentStatus() : getStatus();
    }
}
