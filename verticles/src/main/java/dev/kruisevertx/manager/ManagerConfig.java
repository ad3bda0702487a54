package dev.kruisevertx.manager;

import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.WebhookConfig;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The manager's validated configuration, built from its flags and environment.
 *
 * @param metricsSecure  --metrics-secure: /metrics over HTTPS behind a TokenReview and SubjectAccessReview
 * @param metricsCertDir --metrics-cert-dir: tls.crt and tls.key for that, or null for a certificate made at start
 */
public record ManagerConfig(
        Path kubeconfig,
        ListenAddress metricsAddr,
        ListenAddress healthProbeAddr,
        ListenAddress debugAddr,
        boolean metricsSecure,
        Path metricsCertDir,
        boolean leaderElection,
        LeaderElection.Settings leaderElectionSettings,
        Duration syncPeriod,
        Duration cacheSyncTimeout,
        Duration webhookInitializeTimeout,
        double restConfigQps,
        int restConfigBurst,
        boolean cacheMutationDetector,
        Duration crdRecheckPeriod,
        FeatureGates featureGates,
        ManagerSettings settings,
        WebhookConfig webhook) {
}
