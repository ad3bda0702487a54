package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
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
 * {@code apps.kruise.io/v1alpha1} Advanced StatefulSet, served and converted to and from the v1beta1 storage version by the
 * {@code /convert} webhook. The v1beta1-only spec fields are kept in an annotation (see
 * {@code dev.kruisevertx.api.apps.v1beta1.StatefulSetConversion}) so that a v1alpha1 client never drops them.
 * Status and scale subresources and printer columns as OpenKruise (the last two only with {@code -o wide}).
 */
@Group(StatefulSet.GROUP)
@Version(value = StatefulSet.VERSION, storage = false, served = true)
@Kind(StatefulSet.KIND)
@Plural(StatefulSet.PLURAL)
@Singular("statefulset")
@ShortNames({"sts", "asts"})
@AdditionalPrinterColumn(name = "DESIRED", jsonPath = ".spec.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The desired number of pods.")
@AdditionalPrinterColumn(name = "CURRENT", jsonPath = ".status.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of currently all pods.")
@AdditionalPrinterColumn(name = "UPDATED", jsonPath = ".status.updatedReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods updated.")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.readyReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods ready.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = StatefulSet.AGE_DESCRIPTION)
@AdditionalPrinterColumn(name = "CONTAINERS", jsonPath = ".spec.template.spec.containers[*].name",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        getDescription = "The containers of currently advanced statefulset.")
@AdditionalPrinterColumn(name = "IMAGES", jsonPath = ".spec.template.spec.containers[*].image",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        getDescription = "The images of currently advanced statefulset.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StatefulSet extends CustomResource<StatefulSetSpec, StatefulSetStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "StatefulSet";
    public static final String PLURAL = "statefulsets";
    /** Name of the CRD object. */
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    // kubectl shows this text for the AGE column; it is the standard wording of metadata.creationTimestamp.
    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";
}
