package dev.kruisevertx.webhook.configuration;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.webhook.WebhookConfig;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
public class WebhookConfigurationPatcherTest {
    static final byte[] CA = "-----BEGIN CERTIFICATE-----\nfake-ca\n-----END CERTIFICATE-----\n".getBytes(StandardCharsets.UTF_8);
    static final String CA_B64 = Base64.getEncoder().encodeToString(CA);
    static final Set<String> PATHS = Set.of("/mutate-pod", "/mutate-apps-kruise-io-v1alpha1-cloneset",
            "/validate-apps-kruise-io-v1alpha1-cloneset");

    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeEach
    void setUp() {
        client = KubeClients.forTest(server.createClient().getConfiguration());
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    static MutatingWebhook mutating(String name, String path) {
        return new MutatingWebhookBuilder().withName(name)
                .withNewClientConfig().withNewService().withNamespace("kruise-system").withName("kruise-webhook-service")
                .withPath(path).endService().endClientConfig()
                .withAdmissionReviewVersions("v1", "v1beta1").withSideEffects("None").withFailurePolicy("Fail")
                .build();
    }

    /** The chart's two configurations, with empty template annotations, as helm installs them. */
    public static void installChartConfigurations(KubernetesClient client) {
        client.admissionRegistration().v1().mutatingWebhookConfigurations().resource(new MutatingWebhookConfigurationBuilder()
                .withNewMetadata().withName(WebhookConfigurationPatcher.MUTATING_NAME).addToAnnotations("template", "").endMetadata()
                .withWebhooks(mutating("mpod.kb.io", "/mutate-pod"),
                        mutating("mcloneset.kb.io", "/mutate-apps-kruise-io-v1alpha1-cloneset"),
                        mutating("mgone.kb.io", "/mutate-apps-kruise-io-v1alpha1-gone"))
                .build()).create();
        client.admissionRegistration().v1().validatingWebhookConfigurations().resource(new ValidatingWebhookConfigurationBuilder()
                .withNewMetadata().withName(WebhookConfigurationPatcher.VALIDATING_NAME).endMetadata()
                .addNewWebhook().withName("vcloneset.kb.io")
                .withNewClientConfig().withNewService().withNamespace("x").withName("y")
                .withPath("/validate-apps-kruise-io-v1alpha1-cloneset").endService().endClientConfig()
                .withAdmissionReviewVersions("v1").withSideEffects("None").endWebhook()
                .build()).create();
    }

    MutatingWebhookConfiguration mutatingConfig() {
        return client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(WebhookConfigurationPatcher.MUTATING_NAME).get();
    }

    ValidatingWebhookConfiguration validatingConfig() {
        return client.admissionRegistration().v1().validatingWebhookConfigurations().withName(WebhookConfigurationPatcher.VALIDATING_NAME).get();
    }

    @Test
    void patchesCaBundleAndServiceKeepsTemplateAndDropsUnhandledPaths() {
        installChartConfigurations(client);
        WebhookConfig config = WebhookConfig.fromEnv(java.util.Map.of("POD_NAMESPACE", "kruise-x", "SERVICE_NAME", "svc-x"), false);
        new WebhookConfigurationPatcher(client, config, false).ensure(CA, PATHS);

        MutatingWebhookConfiguration m = mutatingConfig();
        assertEquals(List.of("mpod.kb.io", "mcloneset.kb.io"), m.getWebhooks().stream().map(MutatingWebhook::getName).toList());
        for (MutatingWebhook w : m.getWebhooks()) {
            assertEquals(CA_B64, w.getClientConfig().getCaBundle());
            assertEquals("kruise-x", w.getClientConfig().getService().getNamespace());
            assertEquals("svc-x", w.getClientConfig().getService().getName());
        }
        String template = m.getMetadata().getAnnotations().get("template");
        assertTrue(template.contains("mgone.kb.io"), "the template keeps the original entries: " + template);
        assertEquals(CA_B64, validatingConfig().getWebhooks().get(0).getClientConfig().getCaBundle());
        assertEquals("kruise-x", validatingConfig().getWebhooks().get(0).getClientConfig().getService().getNamespace());
    }

    @Test
    void handEditedCaBundleIsRestoredAndUserSelectorsSurvive() {
        installChartConfigurations(client);
        WebhookConfigurationPatcher patcher = new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), false);
        patcher.ensure(CA, PATHS);
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(WebhookConfigurationPatcher.MUTATING_NAME)
                .edit(c -> {
                    c.getWebhooks().get(0).getClientConfig().setCaBundle("aGFja2Vk");
                    c.getWebhooks().get(0).setNamespaceSelector(new io.fabric8.kubernetes.api.model.LabelSelectorBuilder()
                            .addToMatchExpressions(new LabelSelectorRequirementBuilder().withKey("team").withOperator("NotIn")
                                    .withValues("infra").build()).build());
                    return c;
                });
        patcher.ensure(CA, PATHS);
        MutatingWebhook pod = mutatingConfig().getWebhooks().get(0);
        assertEquals(CA_B64, pod.getClientConfig().getCaBundle());
        assertEquals("team", pod.getNamespaceSelector().getMatchExpressions().get(0).getKey());
        String rv = mutatingConfig().getMetadata().getResourceVersion();
        patcher.ensure(CA, PATHS);
        assertEquals(rv, mutatingConfig().getMetadata().getResourceVersion(), "a settled configuration is not rewritten");
    }

    @Test
    void webhookHostWritesUrls() {
        installChartConfigurations(client);
        WebhookConfig config = WebhookConfig.fromEnv(java.util.Map.of("WEBHOOK_HOST", "10.0.0.5", "WEBHOOK_PORT", "9443"), false);
        new WebhookConfigurationPatcher(client, config, false).ensure(CA, PATHS);
        MutatingWebhook pod = mutatingConfig().getWebhooks().get(0);
        assertEquals("https://10.0.0.5:9443/mutate-pod", pod.getClientConfig().getUrl());
        assertNull(pod.getClientConfig().getService());
    }

    @Test
    void externalCertsOnlyVerify() {
        installChartConfigurations(client);
        WebhookConfigurationPatcher external = new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), true);
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> external.ensure(CA, PATHS));
        assertTrue(e.getMessage().contains("does not match the external CA"), e.getMessage());
        assertEquals(3, mutatingConfig().getWebhooks().size(), "external mode never rewrites");
        new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), false).ensure(CA, PATHS);
        external.ensure(CA, PATHS);
    }

    @Test
    void missingConfigurationIsReportedByName() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), false).ensure(CA, PATHS));
        assertTrue(e.getMessage().contains("kruise-mutating-webhook-configuration not found"), e.getMessage());
    }

    public static CustomResourceDefinition crd(String plural, String group, String strategy) {
        return new CustomResourceDefinitionBuilder().withNewMetadata().withName(plural + "." + group).endMetadata()
                .withNewSpec().withGroup(group).withScope("Namespaced")
                .withNewNames().withKind("K" + plural).withPlural(plural).endNames()
                .addNewVersion().withName("v1alpha1").withServed(true).withStorage(false).endVersion()
                .addNewVersion().withName("v1beta1").withServed(true).withStorage(true).endVersion()
                .withNewConversion().withStrategy(strategy).endConversion()
                .endSpec().build();
    }

    @Test
    void crdsWithWebhookConversionGetTheConvertClientConfig() {
        client.apiextensions().v1().customResourceDefinitions().resource(crd("clonesets", "apps.kruise.io", "Webhook")).create();
        client.apiextensions().v1().customResourceDefinitions().resource(crd("broadcastjobs", "apps.kruise.io", "None")).create();
        client.apiextensions().v1().customResourceDefinitions().resource(crd("widgets", "example.com", "Webhook")).create();
        CrdConversionPatcher patcher = new CrdConversionPatcher(client, WebhookConfig.defaults());
        assertEquals(1, patcher.ensure(CA));
        CustomResourceDefinition cs = client.apiextensions().v1().customResourceDefinitions().withName("clonesets.apps.kruise.io").get();
        var webhook = cs.getSpec().getConversion().getWebhook();
        assertEquals(List.of("v1", "v1beta1"), webhook.getConversionReviewVersions());
        assertEquals(CA_B64, webhook.getClientConfig().getCaBundle());
        assertEquals("/convert", webhook.getClientConfig().getService().getPath());
        assertEquals(443, webhook.getClientConfig().getService().getPort());
        assertEquals("kruise-webhook-service", webhook.getClientConfig().getService().getName());
        assertNull(client.apiextensions().v1().customResourceDefinitions().withName("broadcastjobs.apps.kruise.io").get()
                .getSpec().getConversion().getWebhook());
        assertNull(client.apiextensions().v1().customResourceDefinitions().withName("widgets.example.com").get()
                .getSpec().getConversion().getWebhook());
        assertEquals(0, patcher.ensure(CA), "nothing to do the second time");
        WebhookConfig host = WebhookConfig.defaults().withHost("kruise.local");
        new CrdConversionPatcher(client, host).ensure(CA);
        assertEquals("https://kruise.local:9876/convert", client.apiextensions().v1().customResourceDefinitions()
                .withName("clonesets.apps.kruise.io").get().getSpec().getConversion().getWebhook().getClientConfig().getUrl());
    }
}
