package dev.kruisevertx.api.apps.v1beta1;

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
 * {@code apps.kruise.io/v1beta1} Advanced DaemonSet, the storage version: one pod per eligible node, with in-place update, surge, partition, node selector for the update, pause, progressive create and a preDelete hook. Status subresource and printer columns as OpenKruise (the last two only with {@code -o wide}).
 */
@Group(DaemonSet.GROUP)
@Version(value = DaemonSet.VERSION, storage = true, served = true)
@Kind(DaemonSet.KIND)
@Plural(DaemonSet.PLURAL)
@Singular("daemonset")
@ShortNames({"daemon", "ads"})
@AdditionalPrinterColumn(name = "DESIRED", jsonPath = ".status.desiredNumberScheduled",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The desired number of pods.")
@AdditionalPrinterColumn(name = "CURRENT", jsonPath = ".status.currentNumberScheduled",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The current number of pods.")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.numberReady",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The ready number of pods.")
@AdditionalPrinterColumn(name = "UP-TO-DATE", jsonPath = ".status.updatedNumberScheduled",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The updated number of pods.")
@AdditionalPrinterColumn(name = "AVAILABLE", jsonPath = ".status.numberAvailable",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The updated number of pods.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = DaemonSet.AGE_DESCRIPTION)
@AdditionalPrinterColumn(name = "CONTAINERS", jsonPath = ".spec.template.spec.containers[*].name",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        getDescription = "The containers of currently  daemonset.")
@AdditionalPrinterColumn(name = "IMAGES", jsonPath = ".spec.template.spec.containers[*].image",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        getDescription = "The images of currently advanced daemonset.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DaemonSet extends CustomResource<DaemonSetSpec, DaemonSetStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "DaemonSet";
    public static final String PLURAL = "daemonsets";
    /** Name of the CRD object. */
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    // kubectl shows this text for the AGE column; it is the standard wording of metadata.creationTimestamp.
    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";
}
