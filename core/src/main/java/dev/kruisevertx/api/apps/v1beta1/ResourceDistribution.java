package dev.kruisevertx.api.apps.v1beta1;

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
 * {@code apps.kruise.io/v1beta1} ResourceDistribution as OpenKruise's master serves it: served next to v1alpha1, which
 * stays the storage version (as in OpenKruise v1.9.0), converted by {@code /convert}
 * ({@link ResourceDistributionConversion}). v1alpha1's {@code targets.namespaceLabelSelector} is
 * {@code targets.namespaceSelector} and a condition's {@code failedNamespace} is {@code failedNamespaces}.
 */
@Group(ResourceDistribution.GROUP)
@Version(value = ResourceDistribution.VERSION, storage = false, served = true)
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
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "ResourceDistribution";
    public static final String PLURAL = "resourcedistributions";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
}
