package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** {@code apps.kruise.io/v1beta1} NodeImage, the storage version, cluster-scoped, one per node and named after it: the images the node agent pulls there and how each pull went. */
@Group(NodeImage.GROUP)
@Version(value = NodeImage.VERSION, storage = true, served = true)
@Kind(NodeImage.KIND)
@Plural(NodeImage.PLURAL)
@Singular("nodeimage")
@AdditionalPrinterColumn(name = "DESIRED", jsonPath = ".status.desired",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of all images on this node")
@AdditionalPrinterColumn(name = "PULLING", jsonPath = ".status.pulling",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull task active")
@AdditionalPrinterColumn(name = "SUCCEED", jsonPath = ".status.succeeded",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull task succeeded")
@AdditionalPrinterColumn(name = "FAILED", jsonPath = ".status.failed",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of image pull tasks failed")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = NodeImage.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class NodeImage extends CustomResource<NodeImageSpec, NodeImageStatus> {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "NodeImage";
    public static final String PLURAL = "nodeimages";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";

    /** The spec, never null (an empty one when the object has none). */
    public NodeImageSpec spec() {
        return getSpec() == null ? new NodeImageSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public NodeImageStatus status() {
        return getStatus() == null ? new NodeImageStatus() : getStatus();
    }
}
