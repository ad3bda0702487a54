package dev.kruisevertx.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Lease-based leader election on {@code coordination.k8s.io/v1} Leases, as controller-runtime does for
 * OpenKruise. Only the leader runs controllers. The fence ({@link #isLeader()}) drops the moment the lease is
 * lost, before controllers are told to stop, so no write goes out after the loss.
 *
 * <p>Unlike OpenKruise, which exits the process when it loses the lease, this keeps the process (its webhook and
 * cache stay warm) and campaigns again.
 */
public final class LeaderElection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

    /** What the manager does when leadership changes. Called on the elector's thread. */
    public interface Listener {
        void startedLeading();

        void stoppedLeading();
    }

    public record Settings(String namespace, String name, String identity, Duration leaseDuration,
                           Duration renewDeadline, Duration retryPeriod) {
        public Settings {
            if (!(leaseDuration.compareTo(renewDeadline) > 0)) {
                throw new IllegalArgumentException("--leader-election-lease-duration (" + leaseDuration
                        + ") must be greater than --leader-election-renew-deadline (" + renewDeadline + ")");
            }
            if (!(renewDeadline.compareTo(retryPeriod) > 0)) {
                throw new IllegalArgumentException("--leader-election-renew-deadline (" + renewDeadline
                        + ") must be greater than --leader-election-retry-period (" + retryPeriod + ")");
            }
        }
    }

    private final KubernetesClient client;
    private final Settings settings;
    private final Listener listener;
    private final AtomicBoolean leader = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Counter slowPath;
    private final ScheduledExecutorService restarter = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "leader-election-restart");
        t.setDaemon(true);
        return t;
    });
    private volatile CompletableFuture<?> running;
    private volatile LeaderElector elector;

    public LeaderElection(KubernetesClient client, Settings settings, Listener listener, MeterRegistry registry) {
        this.client = client;
        this.settings = settings;
        this.listener = listener;
        registerLeaderGauge(registry, leader::get);
        this.slowPath = Counter.builder("leader_election_slowpath")
                .description("Leader elections that had to wait for or take over another holder's lease")
                .tag("name", settings.name()).register(registry);
    }

    /**
     * {@code kruise_manager_is_leader}: 1 while this replica acts as the leader. Registered at start-up whether or not
     * election is on, as OpenKruise does, so dashboards and alerts always find the series.
     */
    public static void registerLeaderGauge(MeterRegistry registry, BooleanSupplier leading) {
        // Strong reference: Micrometer holds a gauge's object weakly, and a lambda has no other owner.
        Gauge.builder("kruise_manager_is_leader", leading, l -> l.getAsBoolean() ? 1 : 0).strongReference(true)
                .description("Whether this manager acts as the leader (holds the lease, or leader election is off)")
                .register(registry);
    }

    public boolean isLeader() {
        return leader.get();
    }

    public String identity() {
        return settings.identity();
    }

    public void start() {
        campaign();
    }

    private void campaign() {
        if (closed.get()) {
            return;
        }
        LeaderElector elector = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(settings.name())
                        .withLock(new LeaseLock(settings.namespace(), settings.name(), settings.identity()))
                        .withLeaseDuration(settings.leaseDuration())
                        .withRenewDeadline(settings.renewDeadline())
                        .withRetryPeriod(settings.retryPeriod())
                        // Released by close() itself: fabric8's release on cancel logs a failure (the API server
                        // unreachable, as for a partitioned or stopping replica) as an ERROR with a stack trace.
                        .withReleaseOnCancel(false)
                        .withLeaderCallbacks(new LeaderCallbacks(this::onStart, this::onStop, this::onNewLeader))
                        .build())
                .build();
        LOG.info("campaigning for lease {}/{} as {}", settings.namespace(), settings.name(), settings.identity());
        this.elector = elector;
        running = elector.start();
        running.whenComplete((v, error) -> {
            if (error != null && !closed.get()) {
                LOG.warn("leader election ended with an error: {}", error.toString());
            }
            // The elector gives up after losing the lease; keep campaigning unless the process is closing.
            if (!closed.get()) {
                restarter.schedule(this::campaign, settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
            }
        });
    }

    private void onStart() {
        leader.set(true);
        LOG.info("became leader of {}/{}", settings.namespace(), settings.name());
        listener.startedLeading();
    }

    private void onStop() {
        // The fence drops first: any write a controller is about to make is refused from here on.
        if (leader.getAndSet(false)) {
            LOG.warn("lost leadership of {}/{}; stopping controllers", settings.namespace(), settings.name());
            listener.stoppedLeading();
        }
    }

    private void onNewLeader(String identity) {
        // A released lease names no holder (fabric8 reports the release it wrote as a change of leader to null).
        if (identity == null || identity.isEmpty()) {
            return;
        }
        if (!identity.equals(settings.identity())) {
            slowPath.increment();
            LOG.info("current leader of {}/{} is {}", settings.namespace(), settings.name(), identity);
        }
    }

    /**
     * Stops campaigning; a leader drops its fence first, then gives the lease up so a standby takes over at once. The
     * release is a blocking API call: call from a thread that may block, as the manager's close does.
     */
    @Override
    public void close() {
        closed.set(true);
        // Read first: cancelling calls onStop, which drops the flag.
        boolean wasLeader = leader.get();
        CompletableFuture<?> current = running;
        if (current != null) {
            current.cancel(true);
        }
        onStop();
        restarter.shutdownNow();
        LeaderElector last = elector;
        if (wasLeader && last != null) {
            release(last);
        }
    }

    /** Gives the lease up; a failure is expected when the API server is unreachable, and said in one line. */
    private void release(LeaderElector last) {
        try {
            if (last.release()) {
                LOG.info("released lease {}/{}", settings.namespace(), settings.name());
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                LOG.debug("lease {}/{} changed meanwhile; leadership was already lost", settings.namespace(), settings.name());
            } else {
                LOG.warn("could not release lease {}/{} ({}); a standby takes over when it expires in {} s",
                        settings.namespace(), settings.name(), reason(e), settings.leaseDuration().toSeconds());
            }
        } catch (RuntimeException e) {
            LOG.warn("could not release lease {}/{} ({}); a standby takes over when it expires in {} s",
                    settings.namespace(), settings.name(), e.toString(), settings.leaseDuration().toSeconds());
        }
    }

    private static String reason(KubernetesClientException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String code = e.getCode() > 0 ? "HTTP " + e.getCode() + ": " : "";
        return code + (root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage());
    }
}
