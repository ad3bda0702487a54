package dev.kruisevertx.webhook;

import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertWriter;
import dev.kruisevertx.webhook.certs.CertWriters;
import dev.kruisevertx.webhook.configuration.CrdConversionPatcher;
import dev.kruisevertx.webhook.configuration.WebhookConfigurationPatcher;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * The webhook inside the manager, on every replica: keeps certificates and webhook configurations in sync
 * ({@link CertSyncController}), serves HTTPS ({@link WebhookServerVerticle}, deployed with the first
 * certificates) and reports readiness ({@link WebhookReadiness}). Deploying it returns at once; wait for
 * {@link #ready()} before starting controllers, as OpenKruise does.
 */
public final class WebhookVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookVerticle.class);
    private final WebhookConfig config;
    private final KubernetesClient client;
    private final AdmissionRegistry admission;
    private final ConversionRegistry conversion;
    private final WebhookMetrics metrics;
    private final boolean externalCerts;
    private final String bindHost;
    private final Clock clock;

    private CertSyncController sync;
    private WebhookReadiness readiness;
    private volatile WebhookServerVerticle server;
    private final Promise<Void> readyOrNot = Promise.promise();
    private Future<Void> ready;

    /**
     * @param externalCerts feature gate EnableExternalCerts (also selects the external certificate reader)
     */
    public WebhookVerticle(WebhookConfig config, KubernetesClient client, AdmissionRegistry admission,
                           ConversionRegistry conversion, MeterRegistry registry, boolean externalCerts) {
        this(config, client, admission, conversion, registry, externalCerts, config.bindHost(), Clock.systemUTC());
    }

    public WebhookVerticle(WebhookConfig config, KubernetesClient client, AdmissionRegistry admission,
                           ConversionRegistry conversion, MeterRegistry registry, boolean externalCerts,
                           String bindHost, Clock clock) {
        this.config = externalCerts ? config.withCertWriter(WebhookConfig.CertWriterType.EXTERNAL, config.certDir()) : config;
        this.client = client;
        this.admission = admission;
        this.conversion = conversion;
        this.metrics = new WebhookMetrics(registry);
        this.externalCerts = externalCerts;
        this.bindHost = bindHost;
        this.clock = clock;
    }

    @Override
    public Future<?> start() {
        CertWriter writer = CertWriters.forConfig(config, client, clock);
        readiness = new WebhookReadiness(vertx, () -> server == null ? -1 : server.actualPort());
        sync = new CertSyncController(vertx, config, writer,
                new WebhookConfigurationPatcher(client, config, externalCerts, this::advertisedPort),
                new CrdConversionPatcher(client, config, this::advertisedPort),
                admission::paths,
                this::serve,
                clock);
        sync.firstSync().onSuccess(readiness::certificatesSynced);
        readiness.awaitReady(config.initializeTimeout()).recover(e -> Future.failedFuture(
                e.getMessage() + (sync.lastError() == null ? "" : "; last certificate sync error: " + sync.lastError())))
                .onComplete(ar -> {
                    if (ar.succeeded()) {
                        readyOrNot.tryComplete();
                    } else {
                        readyOrNot.tryFail(ar.cause());
                    }
                });
        ready = readyOrNot.future();
        sync.trigger();
        vertx.executeBlocking(() -> {
            sync.watch(client);
            return null;
        }).onFailure(e -> LOG.warn("Cannot watch the webhook Secret, configurations and CRDs; changes are picked up "
                + "every {} only: {}", config.resyncPeriod(), e.getMessage()));
        return Future.succeededFuture();
    }

    private Future<?> serve(CertBundle bundle) {
        if (server != null) {
            return server.updateCertificates(bundle).onSuccess(changed -> {
                // Before the first full sync readiness stays off; afterwards it follows the served CA.
                if (sync.firstSync().succeeded()) {
                    readiness.certificatesSynced(bundle);
                }
            });
        }
        WebhookServerVerticle verticle = new WebhookServerVerticle(bindHost, config.port(), config.maxBodyBytes(),
                admission, conversion, metrics, bundle);
        return vertx.deployVerticle(verticle).onSuccess(id -> server = verticle).onFailure(e -> {
            InvalidConfigurationException named = InvalidConfigurationException.in(e);
            if (named != null) {
                // The port is taken or not ours to bind: waiting out the initialize timeout would not help.
                readyOrNot.tryFail(named);
            }
        });
    }

    @Override
    public Future<?> stop() {
        if (readiness != null) {
            readiness.close();
        }
        return sync == null ? Future.succeededFuture() : sync.stop();
    }

    /** Succeeds once certificates are synced and {@code /healthz} answers over HTTPS; fails after the initialize timeout. */
    public Future<Void> ready() {
        return ready;
    }

    public WebhookReadiness readiness() {
        return readiness;
    }

    public CertSyncController certSync() {
        return sync;
    }

    /** Certificates are served before configurations are patched, so with WEBHOOK_PORT=0 the bound port is known here. */
    private int advertisedPort() {
        return config.port() != 0 ? config.port() : port();
    }

    /** The bound HTTPS port, or -1 before the server runs. */
    public int port() {
        WebhookServerVerticle s = server;
        return s == null ? -1 : s.actualPort();
    }

    public WebhookMetrics metrics() {
        return metrics;
    }
}
