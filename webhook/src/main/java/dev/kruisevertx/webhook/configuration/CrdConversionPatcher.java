package dev.kruisevertx.webhook.configuration;

import dev.kruisevertx.webhook.WebhookConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ServiceReferenceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookConversion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.IntSupplier;
import java.util.Objects;

/**
 * Points the conversion webhook of every kruise CRD whose conversion strategy is {@code Webhook} at
 * {@code /convert} with the current CA (as a {@link CaBundlePlan} wants it) (service port 443, or {@code url} with WEBHOOK_HOST), review versions
 * v1 and v1beta1. Blocking: call from a worker thread.
 */
public final class CrdConversionPatcher {
    private static final Logger LOG = LoggerFactory.getLogger(CrdConversionPatcher.class);
    public static final String CONVERT_PATH = "/convert";
    public static final List<String> REVIEW_VERSIONS = List.of("v1", "v1beta1");

    private final KubernetesClient client;
    private final WebhookConfig config;
    private final IntSupplier port;

    public CrdConversionPatcher(KubernetesClient client, WebhookConfig config) {
        this(client, config, config::port);
    }

    /** @param port the port written into a URL client config; WEBHOOK_PORT=0 means the port the server was bound to */
    public CrdConversionPatcher(KubernetesClient client, WebhookConfig config, IntSupplier port) {
        this.client = client;
        this.config = config;
        this.port = port;
    }

    /** Whether a CRD belongs to kruise (apps.kruise.io, policy.kruise.io). */
    public static boolean isKruise(CustomResourceDefinition crd) {
        String group = crd.getSpec() == null ? null : crd.getSpec().getGroup();
        return group != null && (group.equals("kruise.io") || group.endsWith(".kruise.io"));
    }

    WebhookClientConfig desiredClientConfig(String caBundleBase64) {
        WebhookClientConfigBuilder b = new WebhookClientConfigBuilder().withCaBundle(caBundleBase64);
        if (config.host() != null) {
            b.withUrl("https://" + config.host() + ":" + port.getAsInt() + CONVERT_PATH);
        } else {
            b.withService(new ServiceReferenceBuilder().withNamespace(config.namespace())
                    .withName(config.serviceName()).withPort(443).withPath(CONVERT_PATH).build());
        }
        return b.build();
    }

    /** @return how many CRDs were updated */
    public int ensure(byte[] caBundle) {
        return ensure(CaBundlePlan.exactly(caBundle));
    }

    /** @return how many CRDs were updated; each CRD's caBundle is brought in line with {@code plan} */
    public int ensure(CaBundlePlan plan) {
        List<CustomResourceDefinition> crds;
        try {
            crds = client.apiextensions().v1().customResourceDefinitions().list().getItems();
        } catch (KubernetesClientException e) {
            throw new ConfigurationException("cannot list CustomResourceDefinitions: " + e.getMessage(), e);
        }
        int updated = 0;
        for (CustomResourceDefinition crd : crds) {
            if (!isKruise(crd) || crd.getSpec().getVersions() == null || crd.getSpec().getVersions().isEmpty()
                    || crd.getSpec().getConversion() == null
                    || !"Webhook".equals(crd.getSpec().getConversion().getStrategy())) {
                continue;
            }
            WebhookConversion current = crd.getSpec().getConversion().getWebhook();
            String liveCa = current == null || current.getClientConfig() == null ? null
                    : current.getClientConfig().getCaBundle();
            WebhookClientConfig desired = desiredClientConfig(plan.desired(liveCa));
            if (current != null && Objects.equals(current.getClientConfig(), desired)
                    && Objects.equals(current.getConversionReviewVersions(), REVIEW_VERSIONS)) {
                continue;
            }
            CustomResourceDefinition changed = new CustomResourceDefinitionBuilder(crd)
                    .editSpec().editConversion()
                    .withNewWebhook().withClientConfig(desired).withConversionReviewVersions(REVIEW_VERSIONS).endWebhook()
                    .endConversion().endSpec().build();
            try {
                client.apiextensions().v1().customResourceDefinitions().resource(changed).update();
                updated++;
                LOG.info("Updated conversion webhook of CRD {}", crd.getMetadata().getName());
            } catch (KubernetesClientException e) {
                throw new ConfigurationException("cannot update CRD " + crd.getMetadata().getName() + ": " + e.getMessage(), e);
            }
        }
        return updated;
    }
}
