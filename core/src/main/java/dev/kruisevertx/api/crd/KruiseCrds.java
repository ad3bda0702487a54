package dev.kruisevertx.api.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CRDs of every Kruise kind this project serves, as installed into a cluster and committed under {@code crds/}.
 *
 * <p>fabric8's CRD generator writes one YAML per CRD into {@code META-INF/fabric8/} during the build; this class
 * reads those files from the classpath and applies {@link CrdPostProcessor} so the result matches OpenKruise's CRDs
 * where the generator cannot (printer column order, listKind, atomic selectors, integer formats).
 *
 * <p>A new kind is added by listing its class in {@link #KINDS}; kinds with several versions list one class per
 * version (they share one CRD).
 */
public final class KruiseCrds {
    /** Every CustomResource class, one per served version. */
    public static final List<Class<? extends CustomResource<?, ?>>> KINDS = List.of(
            CloneSet.class,
            ContainerRecreateRequest.class,
            dev.kruisevertx.api.apps.v1alpha1.StatefulSet.class,
            dev.kruisevertx.api.apps.v1beta1.StatefulSet.class,
            dev.kruisevertx.api.apps.v1alpha1.DaemonSet.class,
            dev.kruisevertx.api.apps.v1beta1.DaemonSet.class,
            dev.kruisevertx.api.apps.v1alpha1.BroadcastJob.class,
            dev.kruisevertx.api.apps.v1beta1.BroadcastJob.class,
            dev.kruisevertx.api.apps.v1alpha1.AdvancedCronJob.class,
            dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob.class,
            dev.kruisevertx.api.apps.v1alpha1.SidecarSet.class,
            dev.kruisevertx.api.apps.v1beta1.SidecarSet.class,
            dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment.class,
            dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget.class,
            dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread.class,
            dev.kruisevertx.api.apps.v1alpha1.EphemeralJob.class,
            dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution.class,
            dev.kruisevertx.api.apps.v1alpha1.NodeImage.class,
            dev.kruisevertx.api.apps.v1beta1.NodeImage.class,
            dev.kruisevertx.api.apps.v1alpha1.ImagePullJob.class,
            dev.kruisevertx.api.apps.v1beta1.ImagePullJob.class,
            dev.kruisevertx.api.apps.v1alpha1.ImageListPullJob.class,
            dev.kruisevertx.api.apps.v1beta1.ImageListPullJob.class,
            dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker.class,
            dev.kruisevertx.api.apps.v1alpha1.NodePodProbe.class,
            dev.kruisevertx.api.apps.v1alpha1.PersistentPodState.class,
            dev.kruisevertx.api.apps.v1beta1.CloneSet.class,
            dev.kruisevertx.api.apps.v1beta1.WorkloadSpread.class,
            dev.kruisevertx.api.apps.v1beta1.PersistentPodState.class,
            dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudget.class,
            dev.kruisevertx.api.apps.v1beta1.ContainerRecreateRequest.class,
            dev.kruisevertx.api.apps.v1beta1.UnitedDeployment.class,
            dev.kruisevertx.api.apps.v1beta1.ResourceDistribution.class);

    /**
     * CRDs whose versions differ in fields and are converted by the {@code /convert} webhook, as OpenKruise patches
     * them; the webhook's certificate controller fills in the caBundle at run time.
     */
    static final java.util.Set<String> WEBHOOK_CONVERSION = java.util.Set.of(
            dev.kruisevertx.api.apps.v1beta1.StatefulSet.CRD_NAME,
            dev.kruisevertx.api.apps.v1beta1.DaemonSet.CRD_NAME,
            dev.kruisevertx.api.apps.v1beta1.SidecarSet.CRD_NAME,
            CloneSet.CRD_NAME,
            dev.kruisevertx.api.apps.v1beta1.WorkloadSpread.CRD_NAME,
            dev.kruisevertx.api.apps.v1beta1.PersistentPodState.CRD_NAME,
            dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudget.CRD_NAME,
            ContainerRecreateRequest.CRD_NAME,
            dev.kruisevertx.api.apps.v1beta1.UnitedDeployment.CRD_NAME,
            dev.kruisevertx.api.apps.v1beta1.ResourceDistribution.CRD_NAME);
    static final String CONVERSION_SERVICE_NAMESPACE = "kruise-system";
    static final String CONVERSION_SERVICE_NAME = "kruise-webhook-service";
    static final String CONVERSION_PATH = "/convert";

    private static final String GENERATED_DIR = "META-INF/fabric8/";
    private static final ObjectMapper YAML = new YAMLMapper();
    // Plain scalars where YAML allows them (as controller-gen writes CRDs); strings that would read back as numbers
    // or booleans stay quoted.
    private static final YAMLMapper YAML_OUT = YAMLMapper.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .build();

    private KruiseCrds() {
    }

    /**
     * Registers every Kruise kind with a serialization (e.g. {@code client.getKubernetesSerialization()}), so
     * documents and watch events read by apiVersion/kind turn into these classes.
     */
    public static void registerKinds(KubernetesSerialization serialization) {
        for (Class<? extends CustomResource<?, ?>> kind : KINDS) {
            serialization.registerKubernetesResource(kind);
        }
    }

    /** Every CRD, in {@link #KINDS} order. */
    public static List<CustomResourceDefinition> all() {
        List<CustomResourceDefinition> crds = new ArrayList<>();
        for (Map.Entry<String, List<Class<? extends CustomResource<?, ?>>>> e : kindsByCrdName().entrySet()) {
            crds.add(load(e.getKey(), e.getValue()));
        }
        return crds;
    }

    /** The CRD serving {@code kind}. */
    public static CustomResourceDefinition of(Class<? extends CustomResource<?, ?>> kind) {
        String name = crdName(kind);
        List<Class<? extends CustomResource<?, ?>>> versions = kindsByCrdName().get(name);
        if (versions == null) {
            throw new IllegalArgumentException(kind.getName() + " is not listed in KruiseCrds.KINDS");
        }
        return load(name, versions);
    }

    /** File name OpenKruise uses for a CRD: {@code <group>_<plural>.yaml}. */
    public static String fileName(CustomResourceDefinition crd) {
        return crd.getSpec().getGroup() + "_" + crd.getSpec().getNames().getPlural() + ".yaml";
    }

    /** The CRD as committed under {@code crds/}. */
    public static String toYaml(CustomResourceDefinition crd) {
        return "# Generated from the Java model by fabric8's CRD generator plus dev.kruisevertx.api.crd.CrdPostProcessor.\n"
                + "# Do not edit; refresh with: mvn -B -pl core -am verify -Dkruise.crds.update=true\n"
                + writeYaml(ApiJson.serialization().convertValue(crd, JsonNode.class));
    }

    private static String writeYaml(JsonNode tree) {
        try {
            return YAML_OUT.writeValueAsString(tree);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write CRD YAML", e);
        }
    }

    static String crdName(Class<? extends HasMetadata> kind) {
        return HasMetadata.getPlural(kind) + "." + HasMetadata.getGroup(kind);
    }

    private static Map<String, List<Class<? extends CustomResource<?, ?>>>> kindsByCrdName() {
        Map<String, List<Class<? extends CustomResource<?, ?>>>> byName = new LinkedHashMap<>();
        for (Class<? extends CustomResource<?, ?>> kind : KINDS) {
            byName.computeIfAbsent(crdName(kind), n -> new ArrayList<>()).add(kind);
        }
        return byName;
    }

    private static CustomResourceDefinition load(String crdName, List<Class<? extends CustomResource<?, ?>>> versions) {
        String resource = GENERATED_DIR + crdName + "-v1.yml";
        JsonNode generated;
        try (InputStream in = KruiseCrds.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("generated CRD " + resource + " is not on the classpath; "
                        + "it is written by crd-generator-maven-plugin during the core module build");
            }
            generated = YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read generated CRD " + resource, e);
        }
        JsonNode processed = CrdPostProcessor.process(generated, versions);
        if (WEBHOOK_CONVERSION.contains(crdName)) {
            addWebhookConversion((com.fasterxml.jackson.databind.node.ObjectNode) processed.path("spec"));
        }
        return ApiJson.serialization().convertValue(processed, CustomResourceDefinition.class);
    }

    private static void addWebhookConversion(com.fasterxml.jackson.databind.node.ObjectNode spec) {
        com.fasterxml.jackson.databind.node.ObjectNode conversion = spec.putObject("conversion");
        conversion.put("strategy", "Webhook");
        com.fasterxml.jackson.databind.node.ObjectNode webhook = conversion.putObject("webhook");
        webhook.putObject("clientConfig").putObject("service")
                .put("name", CONVERSION_SERVICE_NAME)
                .put("namespace", CONVERSION_SERVICE_NAMESPACE)
                .put("path", CONVERSION_PATH);
        webhook.putArray("conversionReviewVersions").add("v1").add("v1beta1");
    }
}
