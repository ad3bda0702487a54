package dev.kruisevertx.revision;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.sidecarset.GoJson;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static dev.kruisevertx.sidecarset.GoJson.BOOL;
import static dev.kruisevertx.sidecarset.GoJson.INT;
import static dev.kruisevertx.sidecarset.GoJson.STR;
import static dev.kruisevertx.sidecarset.GoJson.f;
import static dev.kruisevertx.sidecarset.GoJson.inline;
import static dev.kruisevertx.sidecarset.GoJson.o;
import static dev.kruisevertx.sidecarset.GoJson.ptr;
import static dev.kruisevertx.sidecarset.GoJson.slice;

/**
 * The data of a pod-template ControllerRevision byte for byte as OpenKruise v1.9 writes it (CloneSet's and Advanced
 * StatefulSet's {@code getPatch}): the workload is encoded as its Go type, decoded into a generic map and encoded
 * again, so the bytes are {@code {"spec":{"template":{"$patch":"replace",...}}}} with the template in Go's typed form
 * (fields Go always writes — {@code metadata.creationTimestamp: null}, each container's {@code resources: {}}, a
 * resourceFieldRef's {@code divisor: "0"}, a gRPC probe's {@code service: null} — present, zero {@code omitempty}
 * fields dropped, quantities canonical), every object's keys sorted, numbers as float64 and strings escaped as
 * {@code encoding/json} does ({@code <}, {@code >}, {@code &} as {@code \u003c} ...).
 *
 * <p>OpenKruise reuses an existing revision only when its {@code data} bytes are equal to what it computes
 * ({@code history.EqualRevision}), and names a new one by Kubernetes' {@code HashControllerRevision} of these bytes.
 * Writing the same bytes is what lets OpenKruise take back over from this manager without a rollout; reading its
 * revisions as equal after the same normalisation is what lets this manager take over without one.
 *
 * <p>Kubernetes types this project models in part (the many legacy volume sources, for instance) keep the fields it
 * does not model as written, so nothing a template holds is lost.
 */
public final class GoRevisionData {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private GoRevisionData() {
    }

    private static GoJson.Struct open(GoJson.Field... fields) {
        return new GoJson.Struct(List.of(fields), true);
    }

    private static final GoJson.Type QUANTITY = new GoJson.Quantity(false);
    private static final GoJson.Type RAW = new GoJson.Raw();
    private static final GoJson.MapOf STRING_MAP = new GoJson.MapOf(STR);
    private static final GoJson.MapOf QUANTITY_MAP = new GoJson.MapOf(QUANTITY);

    // Kubernetes core/v1 and meta/v1 types (k8s.io/api v0.32, what OpenKruise v1.9 builds with) as a pod template
    // holds them. Resource lists are not rounded here: a revision holds the workload's template as stored.
    private static final GoJson.Struct RESOURCES = open(o("limits", QUANTITY_MAP), o("requests", QUANTITY_MAP),
            o("claims", slice(GoJson.struct(f("name", STR), o("request", STR)))));
    // Open: a container field newer than Kubernetes v0.32 is kept (Go would drop it), so that a revision never loses
    // part of a template and a change to such a field is still a change.
    private static final GoJson.Struct CONTAINER = new GoJson.Struct(GoJson.container(RESOURCES).fields(), true);
    private static final GoJson.Struct EPHEMERAL_CONTAINER = open(inline(CONTAINER), o("targetContainerName", STR));
    private static final GoJson.Struct OBJECT_META = open(o("name", STR), o("generateName", STR),
            o("namespace", STR), o("selfLink", STR), o("uid", STR), o("resourceVersion", STR),
            o("generation", INT), o("creationTimestamp", new GoJson.Time()), o("deletionTimestamp", ptr(RAW)),
            o("deletionGracePeriodSeconds", ptr(INT)), o("labels", STRING_MAP), o("annotations", STRING_MAP),
            o("ownerReferences", slice(RAW)), o("finalizers", slice(STR)), o("managedFields", slice(RAW)));
    private static final GoJson.Struct LABEL_SELECTOR = GoJson.struct(o("matchLabels", STRING_MAP),
            o("matchExpressions", slice(GoJson.struct(f("key", STR), f("operator", STR), o("values", slice(STR))))));
    private static final GoJson.Struct NODE_SELECTOR_TERM = GoJson.struct(
            o("matchExpressions", slice(GoJson.struct(f("key", STR), f("operator", STR), o("values", slice(STR))))),
            o("matchFields", slice(GoJson.struct(f("key", STR), f("operator", STR), o("values", slice(STR))))));
    private static final GoJson.Struct POD_AFFINITY_TERM = GoJson.struct(o("labelSelector", ptr(LABEL_SELECTOR)),
            o("namespaces", slice(STR)), f("topologyKey", STR), o("namespaceSelector", ptr(LABEL_SELECTOR)),
            o("matchLabelKeys", slice(STR)), o("mismatchLabelKeys", slice(STR)));
    private static final GoJson.Struct POD_AFFINITY = GoJson.struct(
            o("requiredDuringSchedulingIgnoredDuringExecution", slice(POD_AFFINITY_TERM)),
            o("preferredDuringSchedulingIgnoredDuringExecution", slice(GoJson.struct(f("weight", INT),
                    f("podAffinityTerm", POD_AFFINITY_TERM)))));
    private static final GoJson.Struct AFFINITY = GoJson.struct(
            o("nodeAffinity", ptr(GoJson.struct(
                    o("requiredDuringSchedulingIgnoredDuringExecution", ptr(GoJson.struct(
                            f("nodeSelectorTerms", slice(NODE_SELECTOR_TERM))))),
                    o("preferredDuringSchedulingIgnoredDuringExecution", slice(GoJson.struct(f("weight", INT),
                            f("preference", NODE_SELECTOR_TERM))))))),
            o("podAffinity", ptr(POD_AFFINITY)), o("podAntiAffinity", ptr(POD_AFFINITY)));
    private static final GoJson.Struct KEY_TO_PATH = GoJson.struct(f("key", STR), f("path", STR),
            o("mode", ptr(INT)));
    private static final GoJson.Struct DOWNWARD_API_FILE = GoJson.struct(f("path", STR),
            o("fieldRef", ptr(GoJson.OBJECT_FIELD_SELECTOR)), o("resourceFieldRef", ptr(GoJson.RESOURCE_FIELD_SELECTOR)),
            o("mode", ptr(INT)));
    private static final GoJson.Struct PVC_SPEC = open(o("accessModes", slice(STR)),
            o("selector", ptr(LABEL_SELECTOR)),
            o("resources", GoJson.struct(o("limits", QUANTITY_MAP), o("requests", QUANTITY_MAP))),
            o("volumeName", STR), o("storageClassName", ptr(STR)), o("volumeMode", ptr(STR)),
            o("dataSource", ptr(RAW)), o("dataSourceRef", ptr(RAW)), o("volumeAttributesClassName", ptr(STR)));
    private static final GoJson.Struct PROJECTION = open(
            o("secret", ptr(GoJson.struct(inline(GoJson.LOCAL_OBJECT_REFERENCE), o("items", slice(KEY_TO_PATH)),
                    o("optional", ptr(BOOL))))),
            o("downwardAPI", ptr(GoJson.struct(o("items", slice(DOWNWARD_API_FILE))))),
            o("configMap", ptr(GoJson.struct(inline(GoJson.LOCAL_OBJECT_REFERENCE), o("items", slice(KEY_TO_PATH)),
                    o("optional", ptr(BOOL))))),
            o("serviceAccountToken", ptr(GoJson.struct(o("audience", STR), o("expirationSeconds", ptr(INT)),
                    f("path", STR)))));
    private static final GoJson.Struct VOLUME = open(f("name", STR),
            o("hostPath", ptr(GoJson.struct(f("path", STR), o("type", ptr(STR))))),
            o("emptyDir", ptr(GoJson.struct(o("medium", STR), o("sizeLimit", ptr(QUANTITY))))),
            o("secret", ptr(GoJson.struct(o("secretName", STR), o("items", slice(KEY_TO_PATH)),
                    o("defaultMode", ptr(INT)), o("optional", ptr(BOOL))))),
            o("nfs", ptr(GoJson.struct(f("server", STR), f("path", STR), o("readOnly", BOOL)))),
            o("persistentVolumeClaim", ptr(GoJson.struct(f("claimName", STR), o("readOnly", BOOL)))),
            o("downwardAPI", ptr(GoJson.struct(o("items", slice(DOWNWARD_API_FILE)), o("defaultMode", ptr(INT))))),
            o("configMap", ptr(GoJson.struct(inline(GoJson.LOCAL_OBJECT_REFERENCE), o("items", slice(KEY_TO_PATH)),
                    o("defaultMode", ptr(INT)), o("optional", ptr(BOOL))))),
            o("projected", ptr(GoJson.struct(f("sources", slice(PROJECTION)), o("defaultMode", ptr(INT))))),
            o("csi", ptr(GoJson.struct(f("driver", STR), o("readOnly", ptr(BOOL)), o("fsType", ptr(STR)),
                    o("volumeAttributes", STRING_MAP), o("nodePublishSecretRef", ptr(GoJson.LOCAL_OBJECT_REFERENCE))))),
            o("ephemeral", ptr(GoJson.struct(o("volumeClaimTemplate", ptr(GoJson.struct(o("metadata", OBJECT_META),
                    f("spec", PVC_SPEC))))))));
    private static final GoJson.Struct PROFILE = GoJson.struct(f("type", STR), o("localhostProfile", ptr(STR)));
    private static final GoJson.Struct POD_SECURITY_CONTEXT = open(
            o("seLinuxOptions", ptr(RAW)), o("windowsOptions", ptr(RAW)),
            o("runAsUser", ptr(INT)), o("runAsGroup", ptr(INT)), o("runAsNonRoot", ptr(BOOL)),
            o("supplementalGroups", slice(INT)), o("supplementalGroupsPolicy", ptr(STR)), o("fsGroup", ptr(INT)),
            o("sysctls", slice(GoJson.struct(f("name", STR), f("value", STR)))),
            o("fsGroupChangePolicy", ptr(STR)), o("seccompProfile", ptr(PROFILE)), o("appArmorProfile", ptr(PROFILE)),
            o("seLinuxChangePolicy", ptr(STR)));
    private static final GoJson.Struct POD_SPEC = open(o("volumes", slice(VOLUME)),
            o("initContainers", slice(CONTAINER)), f("containers", slice(CONTAINER)),
            o("ephemeralContainers", slice(EPHEMERAL_CONTAINER)), o("restartPolicy", STR),
            o("terminationGracePeriodSeconds", ptr(INT)), o("activeDeadlineSeconds", ptr(INT)),
            o("dnsPolicy", STR), o("nodeSelector", STRING_MAP), o("serviceAccountName", STR),
            o("serviceAccount", STR), o("automountServiceAccountToken", ptr(BOOL)), o("nodeName", STR),
            o("hostNetwork", BOOL), o("hostPID", BOOL), o("hostIPC", BOOL), o("shareProcessNamespace", ptr(BOOL)),
            o("securityContext", ptr(POD_SECURITY_CONTEXT)),
            o("imagePullSecrets", slice(GoJson.LOCAL_OBJECT_REFERENCE)), o("hostname", STR), o("subdomain", STR),
            o("affinity", ptr(AFFINITY)), o("schedulerName", STR),
            o("tolerations", slice(GoJson.struct(o("key", STR), o("operator", STR), o("value", STR),
                    o("effect", STR), o("tolerationSeconds", ptr(INT))))),
            o("hostAliases", slice(GoJson.struct(f("ip", STR), o("hostnames", slice(STR))))),
            o("priorityClassName", STR), o("priority", ptr(INT)),
            o("dnsConfig", ptr(GoJson.struct(o("nameservers", slice(STR)), o("searches", slice(STR)),
                    o("options", slice(GoJson.struct(o("name", STR), o("value", ptr(STR)))))))),
            o("readinessGates", slice(GoJson.struct(f("conditionType", STR)))), o("runtimeClassName", ptr(STR)),
            o("enableServiceLinks", ptr(BOOL)), o("preemptionPolicy", ptr(STR)), o("overhead", QUANTITY_MAP),
            o("topologySpreadConstraints", slice(GoJson.struct(f("maxSkew", INT), f("topologyKey", STR),
                    f("whenUnsatisfiable", STR), o("labelSelector", ptr(LABEL_SELECTOR)), o("minDomains", ptr(INT)),
                    o("nodeAffinityPolicy", ptr(STR)), o("nodeTaintsPolicy", ptr(STR)),
                    o("matchLabelKeys", slice(STR))))),
            o("setHostnameAsFQDN", ptr(BOOL)), o("os", ptr(GoJson.struct(f("name", STR)))),
            o("hostUsers", ptr(BOOL)), o("schedulingGates", slice(GoJson.struct(f("name", STR)))),
            o("resourceClaims", slice(RAW)), o("resources", ptr(RESOURCES)));
    /** {@code core/v1.PodTemplateSpec}. */
    public static final GoJson.Struct POD_TEMPLATE_SPEC = open(o("metadata", OBJECT_META), o("spec", POD_SPEC));

    /** The revision data of a pod template in OpenKruise's form, as a tree (keys sorted). */
    public static JsonNode of(PodTemplateSpec template) {
        return of(ApiJson.serialization().convertValue(template, JsonNode.class));
    }

    /** The revision data of a pod template given as a JSON tree, in OpenKruise's form. */
    public static JsonNode of(JsonNode template) {
        try {
            ObjectNode t = (ObjectNode) MAPPER.readTree(GoJson.encode(POD_TEMPLATE_SPEC, template));
            t.put(RevisionHistory.PATCH_DIRECTIVE, "replace");
            ObjectNode data = JsonNodeFactory.instance.objectNode();
            data.putObject("spec").set("template", t);
            return data;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a pod template: " + e.getOriginalMessage(), e);
        }
    }

    /** The bytes Go's {@code json.Marshal} writes for {@code data} decoded into a {@code map[string]interface{}}. */
    public static byte[] bytes(JsonNode data) {
        StringBuilder out = new StringBuilder();
        marshal(data, out);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The value to put in {@code ControllerRevision.data} so the API server stores exactly {@link #bytes}. */
    public static Object stored(JsonNode data) {
        return new StoredRevisionData(data);
    }

    /**
     * Whether a stored revision holds the same pod template as {@code data}: both read back as Go would decode them
     * (so a revision OpenKruise wrote, one this manager wrote before its data matched OpenKruise's, and the
     * template's own form compare by meaning), then compared ignoring null and empty fields.
     */
    public static boolean sameTemplate(ControllerRevision revision, JsonNode data) {
        if (revision.getData() == null) {
            return false;
        }
        JsonNode stored = RevisionData.SORTED.valueToTree(revision.getData());
        JsonNode a = normalized(stored);
        JsonNode b = normalized(data);
        if (a == null || b == null) {
            return RevisionData.sameData(revision, data);
        }
        return new String(bytes(RevisionData.prune(a)), StandardCharsets.UTF_8)
                .equals(new String(bytes(RevisionData.prune(b)), StandardCharsets.UTF_8));
    }

    private static JsonNode normalized(JsonNode data) {
        JsonNode template = data.path("spec").path("template");
        if (!template.isObject()) {
            return null;
        }
        ObjectNode copy = template.deepCopy();
        copy.remove(RevisionHistory.PATCH_DIRECTIVE);
        return of(copy);
    }

    private static void marshal(JsonNode n, StringBuilder out) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            out.append("null");
        } else if (n.isObject()) {
            List<String> keys = new ArrayList<>();
            n.fieldNames().forEachRemaining(keys::add);
            keys.sort(GoJson::compareBytes);
            out.append('{');
            for (int i = 0; i < keys.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                GoJson.quote(keys.get(i), out);
                out.append(':');
                marshal(n.get(keys.get(i)), out);
            }
            out.append('}');
        } else if (n.isArray()) {
            out.append('[');
            Iterator<JsonNode> it = n.elements();
            boolean first = true;
            while (it.hasNext()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                marshal(it.next(), out);
            }
            out.append(']');
        } else if (n.isNumber()) {
            out.append(float64(n.decimalValue()));
        } else if (n.isBoolean()) {
            out.append(n.booleanValue());
        } else {
            GoJson.quote(n.asText(), out);
        }
    }

    private static final BigDecimal EXP_ABOVE = new BigDecimal("1e21");
    private static final BigDecimal EXP_BELOW = new BigDecimal("1e-6");

    /**
     * A number as Go writes a float64 ({@code json.Unmarshal} into interface{} makes every number one): the
     * shortest decimal that reads back as the same double, plain between 1e-6 and 1e21, else with an exponent
     * ({@code 1e+21}).
     */
    static String float64(BigDecimal exact) {
        double d = exact.doubleValue();
        if (d == 0) {
            return "0";
        }
        BigDecimal shortest = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        BigDecimal abs = shortest.abs();
        if (abs.compareTo(EXP_BELOW) >= 0 && abs.compareTo(EXP_ABOVE) < 0) {
            return shortest.toPlainString();
        }
        BigInteger unscaled = shortest.unscaledValue();
        String digits = unscaled.abs().toString();
        int exponent = digits.length() - 1 - shortest.scale();
        StringBuilder s = new StringBuilder();
        if (unscaled.signum() < 0) {
            s.append('-');
        }
        s.append(digits.charAt(0));
        if (digits.length() > 1) {
            s.append('.').append(digits, 1, digits.length());
        }
        s.append('e').append(exponent < 0 ? '-' : '+');
        int e = Math.abs(exponent);
        if (e < 10) {
            s.append('0');
        }
        return s.append(e).toString();
    }
}
