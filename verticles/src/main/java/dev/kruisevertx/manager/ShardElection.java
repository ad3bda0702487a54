package dev.kruisevertx.manager;

import dev.kruisevertx.controller.Shards;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Leader election per shard ({@code --shards N}, N > 1): one Lease {@code <id>-shard-<i>} per shard and one member
 * Lease {@code <id>-member-<replica>} per replica, all in the election namespace and labelled
 * {@value #GROUP_LABEL}{@code =<id>}. Every retry period (plus up to 20 % jitter) one thread lists them, renews the
 * member lease and the held shard leases, and follows {@link ShardPlanner} to give back a surplus or take free
 * shards. Renewals and takeovers are guarded by the lease's resourceVersion, so two replicas can never both win one.
 *
 * <p>As client-go, a lease counts as expired once this replica has seen it unchanged for its whole duration (its
 * own clock only; no comparison with the writer's renewTime, so clock skew does not matter). The fence of a shard
 * ({@link Shards#mayWrite}) drops when a renewal is refused, when the shard is given back (before the release is
 * written), and by itself when the last successful renewal is older than the renew deadline.
 */
public final class ShardElection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardElection.class);
    public static final String GROUP_LABEL = "kruise-vertx.dev/shard-group";

    /** Called on the election thread; must not block. */
    public interface Listener {
        void gained(Set<Integer> shards);

        void lost(Set<Integer> shards);
    }

    private record Seen(String record, long sinceNanos) {
    }

    private final KubernetesClient client;
    private final LeaderElection.Settings settings;
    private final Shards shards;
    private final Listener listener;
    private final String memberName;
    private final Map<String, Seen> seen = new HashMap<>();
    private final Map<Integer, String> holders = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** False until the first round has written this replica's member lease (see {@link #tick}). */
    private boolean announced;
    private final Counter gainedCount;
    private final Counter lostCount;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "shard-election");
        t.setDaemon(true);
        return t;
    });

    public ShardElection(KubernetesClient client, LeaderElection.Settings settings, Shards shards, Listener listener,
                         MeterRegistry registry) {
        this.client = client;
        this.settings = settings;
        this.shards = shards;
        this.listener = listener;
        this.memberName = memberLeaseName(settings.name(), settings.identity());
        Gauge.builder("kruise_manager_shards_held", shards, s -> s.held().size()).strongReference(true)
                .description("Shards whose lease this replica holds (--shards)").register(registry);
        this.gainedCount = Counter.builder("kruise_manager_shard_handovers_total").tag("direction", "gained")
                .description("Shard leases this replica took (gained) or lost or gave back (lost)").register(registry);
        this.lostCount = Counter.builder("kruise_manager_shard_handovers_total").tag("direction", "lost")
                .description("Shard leases this replica took (gained) or lost or gave back (lost)").register(registry);
    }

    public static String shardLeaseName(String id, int shard) {
        return id + "-shard-" + shard;
    }

    /** A DNS-1123 name for the replica's member lease (identities hold '_' and may be long). */
    static String memberLeaseName(String id, String identity) {
        String clean = identity.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        String prefix = id + "-member-";
        int room = 253 - prefix.length();
        if (clean.length() > room) {
            String hash = Integer.toHexString(clean.hashCode());
            clean = clean.substring(0, room - hash.length() - 1) + "-" + hash;
        }
        return (prefix + clean).replaceAll("-+$", "");
    }

    public String identity() {
        return settings.identity();
    }

    public void start() {
        LOG.info("campaigning for {} shard leases {}-shard-0..{} in {} as {}", shards.count(), settings.name(),
                shards.count() - 1, settings.namespace(), settings.identity());
        schedule(0);
    }

    private void schedule(long delayMillis) {
        if (closed.get()) {
            return;
        }
        try {
            loop.schedule(this::round, delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    private void round() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.warn("shard election round failed: {}", oneLine(e));
        } finally {
            expireStale();
            long retry = settings.retryPeriod().toMillis();
            schedule(retry + ThreadLocalRandom.current().nextLong(Math.max(1, retry / 5)));
        }
    }

    /** Held shards whose last renewal is older than the renew deadline are lost (the fence has dropped already). */
    private void expireStale() {
        Set<Integer> stale = new TreeSet<>();
        for (int s : shards.held()) {
            if (!shards.fresh(s)) {
                stale.add(s);
            }
        }
        if (!stale.isEmpty() && !closed.get()) {
            LOG.warn("shard(s) {} not renewed within the renew deadline {}; giving them up", stale,
                    settings.renewDeadline());
            lose(stale);
        }
    }

    private void tick() {
        if (closed.get()) {
            return;
        }
        long now = System.nanoTime();
        List<Lease> leases = client.leases().inNamespace(settings.namespace())
                .withLabel(GROUP_LABEL, settings.name()).list().getItems();
        Map<String, Lease> byName = new HashMap<>();
        for (Lease l : leases) {
            byName.put(l.getMetadata().getName(), l);
            observe(l, now);
        }
        renewMember(byName.get(memberName));
        Set<String> members = new HashSet<>();
        String memberPrefix = settings.name() + "-member-";
        for (Lease l : leases) {
            String name = l.getMetadata().getName();
            if (name.startsWith(memberPrefix) && !expired(l, now) && holder(l) != null) {
                members.add(holder(l));
            } else if (name.startsWith(memberPrefix) && !name.equals(memberName) && stale(l, now)) {
                // A replica gone for good (identities are per process): its member lease would stay for ever.
                deleteQuietly(name);
            }
        }
        Map<Integer, ShardPlanner.LeaseView> views = new HashMap<>();
        for (int s = 0; s < shards.count(); s++) {
            Lease l = byName.get(shardLeaseName(settings.name(), s));
            if (l != null) {
                views.put(s, new ShardPlanner.LeaseView(holder(l), expired(l, now)));
                holders.put(s, holder(l) == null ? "" : holder(l));
            }
        }
        Set<Integer> held = new TreeSet<>(shards.held());
        ShardPlanner.Plan plan = ShardPlanner.plan(settings.identity(), shards.count(), members, views, held);
        if (!plan.release().isEmpty()) {
            LOG.info("holding {} shards, fair share {} among {} replicas: giving back {}", held.size(),
                    plan.fairShare(), members.size() + (members.contains(settings.identity()) ? 0 : 1), plan.release());
            lose(plan.release());
            for (int s : plan.release()) {
                release(byName.get(shardLeaseName(settings.name(), s)));
            }
        }
        Set<Integer> lost = new TreeSet<>();
        for (int s : held) {
            if (plan.release().contains(s)) {
                continue;
            }
            Lease l = byName.get(shardLeaseName(settings.name(), s));
            long sent = System.nanoTime();
            if (l == null || !settings.identity().equals(holder(l))) {
                lost.add(s);
            } else if (write(l, false)) {
                shards.renewed(s, sent);
            } else if (!settings.identity().equals(holders.get(s))) {
                lost.add(s);
            }
        }
        if (!lost.isEmpty()) {
            LOG.warn("lost shard lease(s) {}", lost);
            lose(lost);
        }
        Set<Integer> gained = new TreeSet<>();
        boolean firstRound = !announced;
        announced = true;
        for (int s : plan.acquire()) {
            Lease l = byName.get(shardLeaseName(settings.name(), s));
            if (firstRound && (l == null || !settings.identity().equals(holder(l)))) {
                // Replicas started together would each see only themselves at first and take every shard (and list
                // every shard's pods into the cache) only to give most back a round later. The first round takes
                // nothing but the leases that still name this replica; by the next one, the peers' member leases are in.
                continue;
            }
            long sent = System.nanoTime();
            if (l == null ? create(s) : write(l, true)) {
                shards.renewed(s, sent);
                gained.add(s);
            }
        }
        if (!gained.isEmpty() && !closed.get()) {
            LOG.info("took shard lease(s) {}; holding {}", gained, shards.held());
            gainedCount.increment(gained.size());
            listener.gained(gained);
        }
    }

    private void lose(Set<Integer> lost) {
        for (int s : lost) {
            shards.dropped(s);
        }
        lostCount.increment(lost.size());
        listener.lost(lost);
    }

    private void observe(Lease l, long now) {
        String record = holder(l) + "|" + (l.getSpec() == null ? "" : l.getSpec().getRenewTime() + "|"
                + l.getSpec().getLeaseDurationSeconds());
        Seen before = seen.get(l.getMetadata().getName());
        if (before == null || !before.record().equals(record)) {
            seen.put(l.getMetadata().getName(), new Seen(record, now));
        }
    }

    private boolean expired(Lease l, long now) {
        Seen s = seen.get(l.getMetadata().getName());
        Integer seconds = l.getSpec() == null ? null : l.getSpec().getLeaseDurationSeconds();
        long duration = seconds == null ? settings.leaseDuration().toNanos() : TimeUnit.SECONDS.toNanos(seconds);
        return s == null || now - s.sinceNanos() > duration;
    }

    private boolean stale(Lease l, long now) {
        Seen s = seen.get(l.getMetadata().getName());
        return s != null && now - s.sinceNanos() > 10 * settings.leaseDuration().toNanos();
    }

    private void deleteQuietly(String name) {
        try {
            client.leases().inNamespace(settings.namespace()).withName(name).delete();
            seen.remove(name);
            LOG.info("deleted the member lease {} of a replica gone for {} lease durations", name, 10);
        } catch (KubernetesClientException e) {
            LOG.debug("member lease {} not deleted: {}", name, oneLine(e));
        }
    }

    private static String holder(Lease l) {
        String h = l.getSpec() == null ? null : l.getSpec().getHolderIdentity();
        return h == null || h.isEmpty() ? null : h;
    }

    private void renewMember(Lease current) {
        try {
            if (current == null) {
                client.leases().inNamespace(settings.namespace()).resource(newLease(memberName)).create();
            } else {
                write(current, false);
            }
        } catch (KubernetesClientException e) {
            LOG.debug("member lease {} not written: {}", memberName, oneLine(e));
        }
    }

    private Lease newLease(String name) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        return new LeaseBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(settings.namespace())
                        .addToLabels(GROUP_LABEL, settings.name()).build())
                .withSpec(new LeaseSpecBuilder().withHolderIdentity(settings.identity())
                        .withLeaseDurationSeconds((int) settings.leaseDuration().toSeconds())
                        .withAcquireTime(now).withRenewTime(now)
                        .withLeaseTransitions(0).build())
                .build();
    }

    private boolean create(int shard) {
        try {
            client.leases().inNamespace(settings.namespace()).resource(newLease(shardLeaseName(settings.name(), shard)))
                    .create();
            holders.put(shard, settings.identity());
            return true;
        } catch (KubernetesClientException e) {
            LOG.debug("shard lease {} not created: {}", shard, oneLine(e));
            return false;
        }
    }

    /** Renews (or, with {@code takeOver}, takes) a lease over the resourceVersion it was read at. */
    private boolean write(Lease l, boolean takeOver) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        Lease next = new LeaseBuilder(l).editSpec()
                .withHolderIdentity(settings.identity())
                .withLeaseDurationSeconds((int) settings.leaseDuration().toSeconds())
                .withRenewTime(now)
                .endSpec().build();
        if (takeOver) {
            Integer transitions = l.getSpec().getLeaseTransitions();
            next.getSpec().setAcquireTime(now);
            next.getSpec().setLeaseTransitions(transitions == null ? 1 : transitions + 1);
        }
        try {
            client.leases().inNamespace(settings.namespace()).resource(next).update();
            Integer shard = shardOfLease(l.getMetadata().getName());
            if (shard != null) {
                holders.put(shard, settings.identity());
            }
            return true;
        } catch (KubernetesClientException e) {
            Integer shard = shardOfLease(l.getMetadata().getName());
            if (e.getCode() == 409 && shard != null) {
                holders.put(shard, "?");
            }
            LOG.debug("lease {} not written: {}", l.getMetadata().getName(), oneLine(e));
            return false;
        }
    }

    private Integer shardOfLease(String name) {
        String prefix = settings.name() + "-shard-";
        if (!name.startsWith(prefix)) {
            return null;
        }
        try {
            return Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Gives a lease up: no holder, so another replica takes it on its next round. Best effort. */
    private void release(Lease l) {
        if (l == null || !settings.identity().equals(holder(l))) {
            return;
        }
        Lease next = new LeaseBuilder(l).editSpec().withHolderIdentity("").withLeaseDurationSeconds(1).endSpec().build();
        try {
            client.leases().inNamespace(settings.namespace()).resource(next).update();
        } catch (KubernetesClientException e) {
            LOG.info("could not release lease {}/{} ({}); it expires in {} s", settings.namespace(),
                    l.getMetadata().getName(), oneLine(e), settings.leaseDuration().toSeconds());
        }
    }

    /** The holder of each shard lease as last listed ({@code /debug/controllers}). */
    public Map<Integer, String> holders() {
        return new java.util.TreeMap<>(holders);
    }

    /**
     * Stops campaigning: the fence of every held shard drops first, then the shard leases are given back and the
     * member lease deleted (blocking API calls: call from a thread that may block).
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Set<Integer> held = new TreeSet<>(shards.held());
        shards.dropAll();
        if (!held.isEmpty()) {
            lostCount.increment(held.size());
            listener.lost(held);
        }
        loop.shutdownNow();
        try {
            loop.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            for (int s : held) {
                release(client.leases().inNamespace(settings.namespace()).withName(shardLeaseName(settings.name(), s))
                        .get());
            }
            client.leases().inNamespace(settings.namespace()).withName(memberName).delete();
            LOG.info("released shard lease(s) {}", held);
        } catch (KubernetesClientException e) {
            LOG.warn("could not release shard leases {} ({}); other replicas take them when they expire in {} s", held,
                    oneLine(e), settings.leaseDuration().toSeconds());
        }
    }

    /** Stops campaigning as a killed process would: nothing is given back, the leases expire by themselves (tests). */
    void halt() {
        closed.set(true);
        shards.dropAll();
        loop.shutdownNow();
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
