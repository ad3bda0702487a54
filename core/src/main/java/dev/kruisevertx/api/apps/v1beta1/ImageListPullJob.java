package dev.kruisevertx.api.apps.v1beta1;

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

/** {@code apps.kruise.io/v1beta1} ImageListPullJob, the storage version: one ImagePullJob per listed image, with their status aggregated. */
@Group(ImageListPullJob.GROUP)
@Version(value = ImageListPullJob.VERSION, storage = true, served = true)
@Kind(ImageListPullJob.KIND)
@Plural(ImageListPullJob.PLURAL)
@Singular("imagelistpulljob")
@AdditionalPrinterColumn(name = "TOTAL", jsonPath = ".status.desired",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull job")
@AdditionalPrinterColumn(name = "SUCCEEDED", jsonPath = ".status.succeeded",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull job succeeded")
@AdditionalPrinterColumn(name = "COMPLETED", jsonPath = ".status.completed",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of ImagePullJobs which are finished")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = ImageListPullJob.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ImageListPullJob extends CustomResource<ImageListPullJobSpec, ImageListPullJobStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "ImageListPullJob";
    public static final String PLURAL = "imagelistpulljobs";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";

    /** The spec, never null (an empty one when the object has none). */
    public ImageListPullJobSpec spec() {
        return getSpec() == null ? new ImageListPullJobSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public ImageListPullJobStatus status() {
        return getStatus() == null ? new ImageListPullJobStatus() : getStatus();
    }
}
