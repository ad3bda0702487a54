package dev.kruisevertx.manager;

import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.WebhookConfig;

import java.nio.file.Path;
import java.time.Duration;

/** The manager's validated configuration, built from its flags and environment. */
public record ManagerConfig(
        Path kubeconfig,
        ListenAddress metricsAddr,
        ListenAddress healthProbeAddr,
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
