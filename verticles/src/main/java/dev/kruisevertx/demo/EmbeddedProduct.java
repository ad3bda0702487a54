package dev.kruisevertx.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.crd.KruiseCrds;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.Manifests;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * What the chart would install into an embedded cluster (CRDs, the kruise-system namespace, the webhook
 * configurations), and the environment that makes the manager's webhook serve on localhost where the embedded
 * API server reaches it by URL. Used by {@code demo} and by the end-to-end tests, so both run the product the
 * same way. Blocking: call from a plain thread.
 */
public final class EmbeddedProduct {
    private EmbeddedProduct() {
    }

    public static void install(EmbeddedCluster cluster) {
        List<JsonNode> crds = new ArrayList<>();
        KruiseCrds.all().forEach(crd -> crds.addAll(Manifests.parse(Serialization.asJson(crd))));
        try {
            cluster.installCrdDocuments(crds).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing CRDs", e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("CRD installation failed: " + e.getMessage(), e);
        }
        installChartObjects(cluster);
    }

    /** The chart's objects other than CRDs: the kruise-system namespace and the two webhook configurations. */
    public static void installChartObjects(EmbeddedCluster cluster) {
        ManifestApplier.apply(cluster.client(), """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: kruise-system
                  labels:
                    control-plane: openkruise
                """);
        ManifestApplier.applyResource(cluster.client(), "/demo/webhook-configurations.yaml");
        // The chart's Service of the manager's metrics listener, which kubectl kruise why reaches through the API
        // server's service proxy (selector as the chart's; no pod matches here: see exposeManager).
        ManifestApplier.apply(cluster.client(), """
                apiVersion: v1
                kind: Service
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  ports:
                    - name: metrics
                      port: %d
                      targetPort: metrics
                      protocol: TCP
                  selector:
                    control-plane: controller-manager
                """.formatted(MANAGER_SERVICE, MANAGER_NAMESPACE, MANAGER_SERVICE_PORT));
    }

    public static final String MANAGER_NAMESPACE = "kruise-system";
    public static final String MANAGER_SERVICE = "kruise-manager";
    public static final int MANAGER_SERVICE_PORT = 8080;

    /**
     * The manager runs on this machine, not in a pod: the service proxy sends the requests for the manager's Service
     * to its metrics listener, as the Service's endpoint would in a cluster.
     */
    public static void exposeManager(EmbeddedCluster cluster, int metricsPort) {
        cluster.serviceProxy().map(MANAGER_NAMESPACE, MANAGER_SERVICE, MANAGER_SERVICE_PORT, "127.0.0.1:" + metricsPort);
    }

    /**
     * The manager environment for a webhook on 127.0.0.1 with certificates in {@code certDir}. The port is 0: the
     * server binds any free port and writes that one into the configurations (a port picked in advance can be
     * taken by another process before the manager binds it).
     */
    public static Map<String, String> localWebhookEnv(Map<String, String> base, Path certDir) {
        Map<String, String> env = new HashMap<>(base);
        env.put("WEBHOOK_HOST", "127.0.0.1");
        env.put("WEBHOOK_PORT", "0");
        env.put("WEBHOOK_CERT_WRITER", "fs");
        env.put("WEBHOOK_CERT_DIR", certDir.toString());
        return env;
    }

}
