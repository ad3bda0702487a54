package dev.kruisevertx.webhook.configuration;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.webhook.WebhookConfig;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static dev.kruisevertx.webhook.configuration.CaBundlePlanTest.b64;
import static dev.kruisevertx.webhook.configuration.CaBundlePlanTest.loaded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The patchers apply {@link CaBundlePlan}s: a bundle that already holds the wanted CAs is never rewritten. */
@EnableKubernetesMockClient(crud = true)
class CaBundlePatchingTest {
    static final Set<String> PATHS = WebhookConfigurationPatcherTest.PATHS;
    static CertBundle oldCa;
    static CertBundle newCa;

    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeAll
    static void certificates() {
        oldCa = new CertIssuer().issueAll(CaBundlePlanTest.DNS, Duration.ofDays(30), Duration.ofDays(30));
        newCa = new CertIssuer().issueAll(CaBundlePlanTest.DNS, Duration.ofDays(30), Duration.ofDays(30));
    }

    @BeforeEach
    void setUp() {
        client = KubeClients.forTest(server.createClient().getConfiguration());
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    MutatingWebhookConfiguration mutating() {
        return client.admissionRegistration().v1().mutatingWebhookConfigurations()
                .withName(WebhookConfigurationPatcher.MUTATING_NAME).get();
    }

    static CaBundlePlan plan(CertBundle target, CertBundle alsoTrust, boolean keepOthers) {
        return CaBundlePlan.of(target.caBundle(), alsoTrust == null ? null : alsoTrust.caBundle(), keepOthers, Instant.now());
    }

    @Test
    void aCaChangeGoesThroughTheMergedBundleAndTheOldCaIsDroppedAfterTheWindow() throws Exception {
        WebhookConfigurationPatcherTest.installChartConfigurations(client);
        WebhookConfigurationPatcher patcher = new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), false);
        patcher.ensure(plan(oldCa, null, false), PATHS);
        assertEquals(b64(oldCa.caCertPem()), mutating().getWebhooks().get(0).getClientConfig().getCaBundle(),
                "one CA alone, as OpenKruise writes it");

        patcher.ensure(plan(newCa, oldCa, false), PATHS);
        MutatingWebhookConfiguration merged = mutating();
        for (var wh : merged.getWebhooks()) {
            assertEquals(List.of(newCa.caCertificate(), oldCa.caCertificate()), loaded(wh.getClientConfig().getCaBundle()),
                    wh.getName());
        }
        var validating = client.admissionRegistration().v1().validatingWebhookConfigurations()
                .withName(WebhookConfigurationPatcher.VALIDATING_NAME).get();
        assertEquals(List.of(newCa.caCertificate(), oldCa.caCertificate()),
                loaded(validating.getWebhooks().get(0).getClientConfig().getCaBundle()));

        // After the swap, inside the window (this replica or another one): nothing to write.
        patcher.ensure(plan(newCa, null, true), PATHS);
        patcher.ensure(plan(newCa, oldCa, true), PATHS);
        assertEquals(merged.getMetadata().getResourceVersion(), mutating().getMetadata().getResourceVersion(),
                "a bundle holding the wanted CAs is not rewritten");

        patcher.ensure(plan(newCa, null, false), PATHS);
        for (var wh : mutating().getWebhooks()) {
            assertEquals(b64(newCa.caCertPem()), wh.getClientConfig().getCaBundle(), wh.getName());
        }
    }

    @Test
    void externalCertificatesAreAcceptedInABundleThatContainsThem() {
        WebhookConfigurationPatcherTest.installChartConfigurations(client);
        new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), false)
                .ensure(CaBundlePlan.of((oldCa.caCertPem() + newCa.caCertPem()).getBytes(), null, false, Instant.now()), PATHS);
        String version = mutating().getMetadata().getResourceVersion();
        WebhookConfigurationPatcher external = new WebhookConfigurationPatcher(client, WebhookConfig.defaults(), true);
        external.ensure(newCa.caBundle(), PATHS);
        external.ensure(oldCa.caBundle(), PATHS);
        assertEquals(version, mutating().getMetadata().getResourceVersion(), "external mode never writes");
        CertBundle other = new CertIssuer().issueAll(CaBundlePlanTest.DNS, Duration.ofDays(1), Duration.ofDays(1));
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> external.ensure(other.caBundle(), PATHS));
        assertEquals(true, e.getMessage().contains("does not match the external CA certificate"), e.getMessage());
    }

    @Test
    void crdConversionCaBundlesFollowThePlanToo() throws Exception {
        client.apiextensions().v1().customResourceDefinitions()
                .resource(WebhookConfigurationPatcherTest.crd("clonesets", "apps.kruise.io", "Webhook")).create();
        CrdConversionPatcher patcher = new CrdConversionPatcher(client, WebhookConfig.defaults());
        assertEquals(1, patcher.ensure(plan(oldCa, null, false)));
        assertEquals(1, patcher.ensure(plan(newCa, oldCa, false)));
        String bundle = client.apiextensions().v1().customResourceDefinitions().withName("clonesets.apps.kruise.io").get()
                .getSpec().getConversion().getWebhook().getClientConfig().getCaBundle();
        assertEquals(List.of(newCa.caCertificate(), oldCa.caCertificate()), loaded(bundle));
        assertEquals(0, patcher.ensure(plan(newCa, null, true)), "held already: not rewritten");
        assertEquals(1, patcher.ensure(plan(newCa, null, false)));
        assertEquals(0, patcher.ensure(newCa.caBundle()));
    }
}
