package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** {@code apps.kruise.io/v1alpha1} ImagePullJob, served; field-identical to {@code v1beta1} (the storage version), so the API server converts by apiVersion alone, as in OpenKruise. */
@Group(ImagePullJob.GROUP)
@Version(value = ImagePullJob.VERSION, storage = false, served = true)
@Kind(ImagePullJob.KIND)
@Plural(ImagePullJob.PLURAL)
@Singular("imagepulljob")
@AdditionalPrinterColumn(name = "TOTAL", jsonPath = ".status.desired",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of all nodes matched by this job")
@AdditionalPrinterColumn(name = "ACTIVE", jsonPath = ".status.active",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull task active")
@AdditionalPrinterColumn(name = "SUCCEED", jsonPath = ".status.succeeded",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull task succeeded")
@AdditionalPrinterColumn(name = "FAILED", jsonPath = ".status.failed",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull tasks failed")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = ImagePullJob.AGE_DESCRIPTION)
@AdditionalPrinterColumn(name = "MESSAGE", jsonPath = ".status.message",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Summary of status when job is failed")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImagePullJob extends CustomResource<ImagePullJobSpec, ImagePullJobStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "ImagePullJob";
    public static final String PLURAL = "imagepulljobs";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";

    /** The spec, never null (an empty one when the object has none). */
    public ImagePullJobSpec spec() {
        return getSpec() == null ? new ImagePullJobSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public ImagePullJobStatus status() {
        return getStatus() == null ? new ImagePullJobStatus() : getStatus();
    }
}
