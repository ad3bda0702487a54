package dev.kruisevertx.webhook.certs;

import dev.kruisevertx.webhook.WebhookConfig;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;

/** Chooses the certificate writer the configuration asks for. */
public final class CertWriters {
    private CertWriters() {
    }

    public static CertPolicy policy(WebhookConfig config, Clock clock) {
        return new CertPolicy(config.certValidity(), config.caValidity(), config.caMinRemaining(),
                config.renewBefore(), clock);
    }

    public static CertWriter forConfig(WebhookConfig config, KubernetesClient client, Clock clock) {
        return switch (config.certWriter()) {
            case EXTERNAL -> new ExternalCertReader(client, config.namespace(), config.secretName());
            case FS -> new FsCertWriter(config.certDir(), policy(config, clock));
            case SECRET -> new SecretCertWriter(client, config.namespace(), config.secretName(), policy(config, clock));
        };
    }
}
