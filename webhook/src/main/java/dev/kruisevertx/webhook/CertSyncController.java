package dev.kruisevertx.webhook;

import dev.kruisevertx.cache.InformerHandlers;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertWriter;
import dev.kruisevertx.webhook.configuration.CaBundlePlan;
import dev.kruisevertx.webhook.configuration.CrdConversionPatcher;
import dev.kruisevertx.webhook.configuration.WebhookConfigurationPatcher;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One loop, one key (as OpenKruise's webhook controller): make sure certificates exist and are fresh, hand
 * them to the server, then patch the CA into the webhook configurations and CRDs. When the CA itself changes, the
 * new CA is patched in next to the served one before the certificate is swapped (see {@link #sync}). Runs after every change
 * to the Secret, either configuration or a kruise CRD, and every resync period; failures retry with
 * exponential backoff. Runs of the loop never overlap; triggers during a run cause exactly one more run.
 * Blocking work happens on worker threads; the loop state lives on one Vert.x context.
 */
public final class CertSyncController {
    private static final Logger LOG = LoggerFactory.getLogger(CertSyncController.class);
    private static final long BASE_RETRY_MS = 5;
    private static final long MAX_RETRY_MS = 30_000;
    /**
     * How long a CA change waits between writing the two-CA caBundles and swapping the certificate, by default 30
     * seconds, kube-apiserver's longest webhook timeout: kube-apiserver reads webhook configurations and CRDs through
     * watches (a write arrives after a moment, longer on a loaded API server), and a call it began with the old
     * caBundle may still be dialing; every such call has ended by then. The old certificate is still served
     * meanwhile, so waiting costs nothing; CA changes are rare (OpenKruise's CA lives ten years).
     */
    public static final Duration DEFAULT_TRUST_PROPAGATION = Duration.ofSeconds(30);

    private final Vertx vertx;
    private final Context context;
    private final WebhookConfig config;
    private final CertWriter writer;
    private final WebhookConfigurationPatcher configurations;
    private final CrdConversionPatcher crds;
    private final Supplier<Set<String>> handledPaths;
    private final Function<CertBundle, Future<?>> onCertificates;
    private final Clock clock;
    private final Promise<CertBundle> firstSync = Promise.promise();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    private boolean running;
    private boolean dirty;
    private boolean stopped;
    private int failures;
    private long timerId = -1;
    private volatile CertBundle current;
    /** What the server serves (set once the swap succeeded); null before the first serve. */
    private volatile CertBundle served;
    /** Until when CAs other than the current one stay in the caBundles; null before the first serve. */
    private volatile Instant overlapUntil;
    private volatile Duration trustPropagation = DEFAULT_TRUST_PROPAGATION;
    private volatile String lastError;
    private volatile long completedSyncs;

    public CertSyncController(Vertx vertx, WebhookConfig config, CertWriter writer,
                              WebhookConfigurationPatcher configurations, CrdConversionPatcher crds,
                              Supplier<Set<String>> handledPaths, Function<CertBundle, Future<?>> onCertificates,
                              Clock clock) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.config = config;
        this.writer = writer;
        this.configurations = configurations;
        this.crds = crds;
        this.handledPaths = handledPaths;
        this.onCertificates = onCertificates;
        this.clock = clock;
    }

    /** Completes after the first successful sync (certificates served and configurations patched). */
    public Future<CertBundle> firstSync() {
        return firstSync.future();
    }

    /** Changes how long a CA change waits before the swap ({@link #DEFAULT_TRUST_PROPAGATION}); for tests. */
    public void setTrustPropagation(Duration delay) {
        this.trustPropagation = delay;
    }

    public CertBundle current() {
        return current;
    }

    /** The error of the last failed sync, or null after a success. */
    public String lastError() {
        return lastError;
    }

    public long completedSyncs() {
        return completedSyncs;
    }

    /** Asks for a sync soon; safe from any thread. */
    public void trigger() {
        context.runOnContext(v -> {
            if (stopped) {
                return;
            }
            if (running) {
                dirty = true;
                return;
            }
            cancelTimer();
            run();
        });
    }

    private void run() {
        running = true;
        dirty = false;
        String dns = config.dnsName();
        vertx.executeBlocking(() -> writer.ensure(dns))
                .compose(this::sync)
                .onComplete(ar -> context.runOnContext(v -> finished(ar.succeeded() ? ar.result() : null, ar.cause())));
    }

    /**
     * Serves {@code bundle} and brings every caBundle in line. When its CA differs from the one being served (a CA
     * renewal, a replaced Secret, another replica's new CA), kube-apiserver must trust the new CA before any new
     * connection meets the new certificate: first every caBundle gets the new CA next to the served one, then the
     * certificate is swapped, and the served CA stays in the bundles for the overlap window (see
     * {@link #overlapWindow()}), for replicas that swap later.
     */
    private Future<CertBundle> sync(CertBundle bundle) {
        CertBundle before = served;
        boolean caChanges = before != null && !sameCa(before, bundle);
        Future<?> ready = caChanges
                ? patch(plan(bundle, before)).compose(v -> {
                    LOG.info("Webhook CA changes: every caBundle now trusts the new CA next to the served one; "
                            + "swapping the certificate in {}", trustPropagation);
                    Promise<Void> waited = Promise.promise();
                    vertx.setTimer(Math.max(1, trustPropagation.toMillis()), id -> waited.complete());
                    return waited.future();
                })
                : Future.succeededFuture();
        return ready
                .compose(v -> onCertificates.apply(bundle))
                .compose(v -> {
                    served = bundle;
                    if (before == null || caChanges) {
                        overlapUntil = clock.instant().plus(overlapWindow());
                    }
                    return patch(plan(bundle, null));
                })
                .map(bundle);
    }

    private CaBundlePlan plan(CertBundle bundle, CertBundle stillServed) {
        Instant now = clock.instant();
        Instant until = overlapUntil;
        return CaBundlePlan.of(bundle.caBundle(), stillServed == null ? null : stillServed.caBundle(),
                until != null && now.isBefore(until), now);
    }

    private Future<Void> patch(CaBundlePlan plan) {
        return vertx.executeBlocking(() -> {
            if (configurations != null) {
                configurations.ensure(plan, handledPaths.get());
            }
            if (crds != null && writer.generates()) {
                crds.ensure(plan);
            }
            return null;
        });
    }

    private static boolean sameCa(CertBundle a, CertBundle b) {
        return a.caCertPem().strip().equals(b.caCertPem().strip());
    }

    /**
     * How long CAs other than the current one stay in the caBundles after this replica started or swapped to a new
     * CA: two resync periods. Every replica syncs at least once a resync period (and at once on the Secret's watch),
     * so by then each one serves the new certificate; a replica never re-adds a CA another one dropped, so replicas
     * with different windows still converge on the same bundle.
     */
    Duration overlapWindow() {
        return config.resyncPeriod().multipliedBy(2);
    }

    private void finished(CertBundle bundle, Throwable error) {
        running = false;
        if (stopped) {
            return;
        }
        if (error == null) {
            failures = 0;
            lastError = null;
            current = bundle;
            completedSyncs++;
            firstSync.tryComplete(bundle);
            if (dirty) {
                run();
            } else {
                timerId = vertx.setTimer(nextResyncMillis(), id -> {
                    timerId = -1;
                    run();
                });
            }
            return;
        }
        failures++;
        lastError = error.getMessage() == null ? error.toString() : error.getMessage();
        long delay = Math.min(MAX_RETRY_MS, BASE_RETRY_MS << Math.min(failures, 20));
        LOG.warn("Webhook certificate sync failed (attempt {}), retrying in {} ms: {}", failures, delay, lastError);
        timerId = vertx.setTimer(delay, id -> {
            timerId = -1;
            run();
        });
    }

    /** The resync period, or sooner when the overlap window ends first (so the previous CA is dropped on time). */
    private long nextResyncMillis() {
        long resync = Math.max(1, config.resyncPeriod().toMillis());
        Instant until = overlapUntil;
        if (until == null) {
            return resync;
        }
        long left = Duration.between(clock.instant(), until).toMillis();
        return left < 0 ? resync : Math.max(1, Math.min(resync, left + 1));
    }

    private void cancelTimer() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    /**
     * Watches the certificate Secret, both webhook configurations and kruise CRDs; any add, change or delete
     * triggers a sync. Blocking (informers list first): call from a worker thread.
     */
    public void watch(KubernetesClient client) {
        informers.add(client.secrets().inNamespace(config.namespace()).withName(config.secretName())
                .inform(InformerHandlers.anyEvent(o -> trigger()), 0));
        informers.add(client.admissionRegistration().v1().mutatingWebhookConfigurations()
                .withName(WebhookConfigurationPatcher.MUTATING_NAME).inform(InformerHandlers.anyEvent(o -> trigger()), 0));
        informers.add(client.admissionRegistration().v1().validatingWebhookConfigurations()
                .withName(WebhookConfigurationPatcher.VALIDATING_NAME).inform(InformerHandlers.anyEvent(o -> trigger()), 0));
        Predicate<CustomResourceDefinition> kruise = CrdConversionPatcher::isKruise;
        // A deleted CRD needs no sync: there is nothing left to patch.
        informers.add(client.apiextensions().v1().customResourceDefinitions().inform(
                InformerHandlers.changesAndDeletes(crd -> {
                    if (kruise.test(crd)) {
                        trigger();
                    }
                }, crd -> {
                }), 0));
    }

    /** Stops the loop and the watches. */
    public Future<Void> stop() {
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            stopped = true;
            cancelTimer();
            vertx.executeBlocking(() -> {
                informers.forEach(SharedIndexInformer::stop);
                return null;
            }).<Void>mapEmpty().onComplete(done);
        });
        return done.future();
    }
}
