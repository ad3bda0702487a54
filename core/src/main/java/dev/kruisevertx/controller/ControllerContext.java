package dev.kruisevertx.controller;

import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;

/**
 * Everything a controller is built from. The cache is shared by every controller and the webhook; {@code shards}
 * says which keys this replica reconciles ({@code --shards}).
 */
public record ControllerContext(
        Vertx vertx,
        WatchCache cache,
        KubernetesClient client,
        KubeExecutor kube,
        FeatureGates gates,
        MeterRegistry registry,
        PlanRecorder plans,
        ManagerSettings settings,
        Shards shards) {

    /** A context without sharding: one shard, every key owned. */
    public ControllerContext(Vertx vertx, WatchCache cache, KubernetesClient client, KubeExecutor kube,
                             FeatureGates gates, MeterRegistry registry, PlanRecorder plans, ManagerSettings settings) {
        this(vertx, cache, client, kube, gates, registry, plans, settings, Shards.single());
    }
}
