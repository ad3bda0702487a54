package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code apps.kruise.io/v1alpha1} ResourceDistribution (cluster-scoped), the storage and only served version in
 * OpenKruise v1.9.0: one Secret or ConfigMap ({@code spec.resource}) copied into the namespaces {@code spec.targets}
 * selects, each copy owned by the distribution and annotated with its name and the resource's hash.
 */
@Group(ResourceDistribution.GROUP)
@Version(value = ResourceDistribution.VERSION, storage = true, served = true)
@Kind(ResourceDistribution.KIND)
@Plural(ResourceDistribution.PLURAL)
@Singular("resourcedistribution")
@ShortNames("distributor")
@AdditionalPrinterColumn(name = "TOTAL", jsonPath = ".status.desired", type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "The desired number of desired distribution and syncs.")
@AdditionalPrinterColumn(name = "SUCCEED", jsonPath = ".status.succeeded", type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "The number of successful distribution and syncs.")
@AdditionalPrinterColumn(name = "FAILED", jsonPath = ".status.failed", type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "The number of failed distributions and syncs.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceDistribution extends CustomResource<ResourceDistributionSpec, ResourceDistributionStatus> {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "ResourceDistribution";
    public static final String PLURAL = "resourcedistributions";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
    /** Annotation on every copy: the SHA-256 of {@code spec.resource} as written. */
    public static final String HASH_ANNOTATION = "kruise.io/resourcedistribution.resource.hashcode";
    /** Annotation on every copy: the name of the distribution it came from. */
    public static final String FROM_ANNOTATION = "kruise.io/resourcedistribution.resource.from";

    /** The spec, never null (an empty one when the object has none). */
    public ResourceDistributionSpec spec() {
        return getSpec() == null ? new ResourceDistributionSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public ResourceDistributionStatus status() {
        return getStatus() == null ? new ResourceDistributionStatus() : getStatus();
    }
}
