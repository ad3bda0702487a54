package dev.kruisevertx.reliability;

import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.manager.ControllerRegistry;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.faults.FaultClass;
import dev.kruisevertx.sim.faults.FaultPlan;
import dev.kruisevertx.sim.faults.FaultProxy;
import dev.kruisevertx.sim.faults.ProxiedRequest;
import dev.kruisevertx.sim.invariants.InvariantChecker;
import dev.kruisevertx.sim.invariants.WorkloadKind;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * The reliability suite: an embedded cluster, the whole manager behind a {@link FaultProxy}, and an
 * {@link InvariantChecker} watching every pod and workload event with a client of its own. Scenarios run in turn until
 * the time is up: a CloneSet or Advanced StatefulSet rollout (recreate or in place, with or without minReadySeconds,
 * with or without a lifecycle hook a {@link HookHandler} releases) under each fault class, a hard manager kill at a
 * random point of a rollout (in process, and a manager process killed with SIGKILL), a leader partitioned from the
 * API server while a standby takes over, and the API server restarted mid-rollout. Everything random comes from the
 * seed.
 */
public final class ReliabilitySuite implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReliabilitySuite.class);
    static final String NAMESPACE = "reliability";
    static final Duration LEASE = Duration.ofSeconds(6);
    static final Duration RETRY_PERIOD = Duration.ofSeconds(1);
    /**
     * The longest a standby may take, from the old leader's last renewal, to take the lease over: the lease must have
     * run out (renewTime + lease duration, by the leader's record), then the standby sees it at its next try, which
     * fabric8's LeaderElector makes every retry period plus a jitter of up to 1.2 retry periods; plus 1 s for the
     * request and a loaded machine.
     */
    static final Duration TAKEOVER_BOUND = LEASE.plusMillis((long) (RETRY_PERIOD.toMillis() * 2.2)).plusSeconds(1);
    private static final List<String> ELECTION_FLAGS = List.of("--enable-leader-election=true",
            "--leader-election-namespace=kruise-system", "--leader-election-lease-duration=" + LEASE.toSeconds() + "s",
            "--leader-election-renew-deadline=4s", "--leader-election-retry-period=" + RETRY_PERIOD.toSeconds() + "s");
    private static final Duration ROLLOUT_TIMEOUT = Duration.ofSeconds(150);
    /** The start of the BroadcastJob scenario's label. */
    static final String BROADCAST_JOB = "BroadcastJob";
    /** The end of the label of the kill scenario and of the leader-partition scenario. */
    static final String MANAGER_KILLED = "manager killed mid-rollout";
    static final String LEADER_PARTITIONED = "leader partitioned";
    static final String PROCESS_KILLED = "manager process killed -9 mid-rollout";
    static final String API_SERVER_RESTARTED = "API server restarted mid-rollout";

    private final Options options;
    private final PrintStream progress;
    private final Random random;
    private final ReliabilityReport report;
    private final List<ControllerDefinition> controllers = ControllerRegistry.all();
    private ClusterFixture cluster;
    private KubernetesClient client;
    private InvariantChecker checker;
    private AutoCloseable watching;
    private ManagerUnderTest manager;
    private int workloadCounter;
    private int proxySeed;
    private int processCounter;
    private int minimumScenarios;
    private final java.util.Map<String, HookHandler> hookHandlers = new java.util.HashMap<>();

    /**
     * How long to run, the seed, the replicas of each workload, the rate of the fault class under test, and (to replay
     * one finding) a text the scenarios to run must contain in their label, or null for all.
     */
    public record Options(Duration duration, long seed, int replicas, double faultRate, String only) {
        public Options(Duration duration, long seed, int replicas, double faultRate) {
            this(duration, seed, replicas, faultRate, null);
        }

        public Options {
            if (duration.isNegative() || duration.isZero()) {
                throw new InvalidConfigurationException("--duration must be positive, got " + duration);
            }
            if (replicas < 2 || replicas > 20) {
                throw new InvalidConfigurationException("--replicas must be between 2 and 20, got " + replicas);
            }
            if (!(faultRate > 0 && faultRate < 1)) {
                throw new InvalidConfigurationException("--fault-rate must be above 0 and below 1, got " + faultRate);
            }
        }
    }

    /**
     * Runs at least the first {@code n} scenarios of the rotation whatever the duration (for CI, which must meet the
     * same scenarios on a slow machine as on a fast one).
     */
    ReliabilitySuite atLeast(int n) {
        this.minimumScenarios = n;
        return this;
    }

    public ReliabilitySuite(Options options, PrintStream progress) {
        this.options = options;
        this.progress = progress;
        this.random = new Random(options.seed());
        this.report = new ReliabilityReport(options.seed());
    }

    /** Runs the scenarios in turn until the duration is used up (a scenario started runs to its end), then reports. */
    public ReliabilityReport run() throws Exception {
        // Before anything starts: an --only that matches nothing is refused at once.
        List<Runnable> rotation = rotation();
        long start = System.currentTimeMillis();
        long deadline = start + options.duration().toMillis();
        startCluster();
        manager = startManager();
        // A pod no workload selects (created once the manager's pod webhook serves): any touch of it is reported.
        client.pods().inNamespace(NAMESPACE).resource(new PodBuilder().withNewMetadata().withName("bystander")
                .addToLabels("app", "bystander").endMetadata().withNewSpec().addNewContainer().withName("main")
                .withImage("nginx:1.0").endContainer().endSpec().build()).create();
        int n = 0;
        do {
            rotation.get(n % rotation.size()).run();
            n++;
        } while (System.currentTimeMillis() < deadline || n < minimumScenarios);
        retire(manager, false);
        manager = null;
        watching.close();
        watching = null;
        report.violationCounts = checker.violationCounts();
        report.violations = checker.violations();
        report.podEvents = checker.podEvents();
        report.workloadEvents = checker.workloadEvents();
        report.elapsedMillis = System.currentTimeMillis() - start;
        return report;
    }

    private List<Runnable> rotation() {
        List<String> labels = new ArrayList<>();
        List<Runnable> list = new ArrayList<>();
        int i = 0;
        for (FaultClass fault : FaultClass.values()) {
            Workloads.Variant v = Workloads.VARIANTS.get(i++ % Workloads.VARIANTS.size());
            labels.add(v.label() + " under " + fault);
            list.add(() -> faultRollout(v, fault));
        }
        // DaemonSet rollouts after the replicated workloads' (a short run's first scenarios stay as they were), each
        // under a fault of its own.
        FaultClass[] daemonFaults = {FaultClass.CONFLICT, FaultClass.WATCH_DROPPED, FaultClass.CONNECTION_RESET};
        for (int d = 0; d < Workloads.DAEMONSET_VARIANTS.size(); d++) {
            Workloads.Variant v = Workloads.DAEMONSET_VARIANTS.get(d);
            FaultClass fault = daemonFaults[d % daemonFaults.length];
            labels.add(v.label() + " under " + fault);
            list.add(() -> faultRollout(v, fault));
        }
        // After the rollouts (a short CI run, the first six, does not reach it): a BroadcastJob under a fault.
        // Chosen by the seed without drawing from the random sequence, so the scenarios before it stay as they were.
        FaultClass bcjFault = FaultClass.values()[(int) Math.floorMod(options.seed(), (long) FaultClass.values().length)];
        labels.add(BROADCAST_JOB + " under " + bcjFault);
        list.add(() -> broadcastJobUnderFault(bcjFault));
        // First in the rotation, so a short (CI) run always meets each kill, a leader partition and an API restart.
        labels.add(0, API_SERVER_RESTARTED);
        list.add(0, () -> apiServerRestart(Workloads.VARIANTS.get(random.nextInt(Workloads.VARIANTS.size()))));
        labels.add(0, PROCESS_KILLED);
        list.add(0, () -> processKill(Workloads.VARIANTS.get(random.nextInt(Workloads.VARIANTS.size()))));
        labels.add(0, LEADER_PARTITIONED);
        list.add(0, () -> leaderPartition(Workloads.VARIANTS.get(random.nextInt(Workloads.VARIANTS.size()))));
        labels.add(0, MANAGER_KILLED);
        list.add(0, () -> managerKill(Workloads.VARIANTS.get(random.nextInt(Workloads.VARIANTS.size()))));
        if (options.only() == null) {
            return list;
        }
        List<Runnable> chosen = new ArrayList<>();
        for (int k = 0; k < list.size(); k++) {
            if (labels.get(k).contains(options.only())) {
                chosen.add(list.get(k));
            }
        }
        if (chosen.isEmpty()) {
            throw new InvalidConfigurationException("--only=" + options.only() + " matches no scenario; scenarios are " + labels);
        }
        return chosen;
    }

    private void startCluster() throws Exception {
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(3));
        EmbeddedProduct.install(cluster.cluster());
        client = KubeClients.forTest(new ConfigBuilder(cluster.cluster().clientConfig()).withHttp2Disable(true).build());
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
                .build()).create();
        checker = InvariantChecker.withWorkloadInvariants().withJobInvariants();
        watching = checker.watch(client, NAMESPACE, List.of(WorkloadKind.CLONESET, WorkloadKind.ADVANCED_STATEFULSET,
                WorkloadKind.ADVANCED_DAEMONSET), InvariantChecker.JOB_OBJECTS);
    }

    private ManagerUnderTest startManager() throws Exception {
        return ManagerUnderTest.start(cluster.vertx(), cluster.cluster(), options.seed() + (proxySeed++),
                FaultPlan.none(), controllers, ELECTION_FLAGS);
    }

    private void retire(ManagerUnderTest m, boolean hard) {
        report.addFaults(m.proxy().faultCounts(), m.proxy().requests(), m.proxy().forwardedRequests());
        if (hard) {
            m.killHard();
        } else {
            m.close();
        }
    }

    private FaultPlan planFor(FaultClass fault) {
        double r = options.faultRate();
        return switch (fault) {
            case PARTITION -> FaultPlan.none();
            case SLOW -> FaultPlan.only(fault, Math.min(0.9, r * 2)).timing(fault, Duration.ofMillis(800));
            case TIMEOUT -> FaultPlan.only(fault, r / 2).timing(fault, Duration.ofSeconds(2));
            case WATCH_DROPPED, WATCH_GONE -> FaultPlan.only(fault, Math.min(0.9, r * 2))
                    .timing(FaultClass.WATCH_DROPPED, Duration.ofSeconds(3));
            default -> FaultPlan.only(fault, r).timing(FaultClass.TOO_MANY_REQUESTS, Duration.ofSeconds(1));
        };
    }

    private String newWorkload(Workloads.Variant v) {
        String name = "w" + (++workloadCounter);
        client.resource(Workloads.yaml(v, NAMESPACE, name, options.replicas(), "nginx:1.0")).create();
        if (v.hook() != Workloads.Hook.NONE) {
            hookHandlers.put(name, new HookHandler(client, NAMESPACE, name, v.hook(), options.seed() * 31 + workloadCounter)
                    .start());
        }
        return name;
    }

    private void update(Workloads.Variant v, String name) {
        Workloads.resources(client, v.kind()).inNamespace(NAMESPACE).withName(name).edit(r -> {
            @SuppressWarnings("unchecked")
            var spec = (java.util.Map<String, Object>) r.getAdditionalProperties().get("spec");
            @SuppressWarnings("unchecked")
            var template = (java.util.Map<String, Object>) ((java.util.Map<String, Object>) spec.get("template")).get("spec");
            @SuppressWarnings("unchecked")
            var containers = (List<java.util.Map<String, Object>>) template.get("containers");
            containers.get(0).put("image", "nginx:1.1");
            return r;
        });
    }

    /** What the rollout still lacks now, for the report of a disruption: "rollout already done" when nothing. */
    private String progressAt(Workloads.Variant v, String name, String event) {
        try {
            String pending = Workloads.pending(client, v.kind(), NAMESPACE, name);
            return pending == null ? "rollout already done at the " + event : "at the " + event + ": " + pending;
        } catch (RuntimeException e) {
            return "rollout not readable at the " + event;
        }
    }

    /** Waits for the workload to settle; the time it took, or -1 with the last thing missing in {@code why}. */
    private long awaitRollout(Workloads.Variant v, String name, long fromMillis, StringBuilder why) {
        long deadline = System.currentTimeMillis() + ROLLOUT_TIMEOUT.toMillis();
        String missing = "not checked";
        while (System.currentTimeMillis() < deadline) {
            try {
                missing = Workloads.pending(client, v.kind(), NAMESPACE, name);
                if (missing == null && v.hook() != Workloads.Hook.NONE) {
                    missing = Workloads.notNormal(client, v.kind(), NAMESPACE, name);
                }
            } catch (RuntimeException e) {
                missing = "cannot read: " + e.getMessage();
            }
            if (missing == null) {
                return System.currentTimeMillis() - fromMillis;
            }
            sleep(250);
        }
        why.append(missing);
        return -1;
    }

    private void deleteWorkload(Workloads.Variant v, String name) {
        var workload = Workloads.resources(client, v.kind()).inNamespace(NAMESPACE).withName(name);
        HookHandler hooks = hookHandlers.remove(name);
        if (hooks != null) {
            hooks.workloadDeleting();
        }
        var live = workload.get();
        if (live != null) {
            // Its pods go with it (garbage collector): no longer a rollout the budgets apply to.
            checker.expectWorkloadDeletion(live.getMetadata().getUid());
        }
        deleteThroughWebhookMove(workload);
        waitFor(Duration.ofSeconds(60), () -> client.pods().inNamespace(NAMESPACE).withLabel("app", name).list()
                .getItems().isEmpty());
        if (hooks != null) {
            hooks.close();
            report.hookReleases += hooks.releases();
            report.hookViolations.addAll(hooks.violations());
        }
    }

    private void record(String scenario, Workloads.Variant v, String name, long took, StringBuilder why) {
        boolean ok = took >= 0;
        if (!ok) {
            // What a lost or duplicated pod looks like at the end: the wrong number of active pods.
            var w = Workloads.get(client, v.kind(), NAMESPACE, name);
            if (w != null) {
                long active = Workloads.ownedActivePods(client, w).size();
                int wanted = v.kind().perNode() ? v.kind().replicas(w) : options.replicas();
                report.lostOrDuplicatedPods += Math.abs(active - wanted);
            }
        }
        report.scenarios.add(new ReliabilityReport.ScenarioResult(scenario, ok, Math.max(took, 0), why.toString()));
        progress.printf("%-60s %s %6.1f s %s%n", scenario, ok ? "ok  " : "FAIL", Math.max(took, 0) / 1000.0, why);
    }

    /**
     * Creates a workload of {@code v} and waits until it is ready. Null when it never is: then the scenario is
     * recorded as failed in its initial rollout and the workload deleted.
     */
    private String newReadyWorkload(Workloads.Variant v, String scenario, StringBuilder why) {
        String name = newWorkload(v);
        if (awaitRollout(v, name, System.currentTimeMillis(), why) >= 0) {
            return name;
        }
        record(scenario + " (initial)", v, name, -1, why);
        deleteWorkload(v, name);
        return null;
    }

    /**
     * A BroadcastJob (parallelism 2 of the 3 nodes, pods exiting 0 after a second) run to completion with {@code fault}
     * on; the job invariants (one pod per node, parallelism, node fit) watch it.
     */
    private void broadcastJobUnderFault(FaultClass fault) {
        String scenario = BROADCAST_JOB + " under " + fault;
        String name = "bcj" + (++workloadCounter);
        StringBuilder why = new StringBuilder();
        var jobs = client.genericKubernetesResources("apps.kruise.io/v1beta1", "BroadcastJob").inNamespace(NAMESPACE);
        manager.proxy().plan(fault == FaultClass.PARTITION ? FaultPlan.none() : planFor(fault));
        if (fault == FaultClass.WATCH_DROPPED || fault == FaultClass.WATCH_GONE) {
            manager.proxy().dropWatches();
        }
        long t0 = System.currentTimeMillis();
        jobs.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                apiVersion: apps.kruise.io/v1beta1
                kind: BroadcastJob
                metadata: {name: %s, namespace: %s}
                spec:
                  parallelism: 2
                  template:
                    metadata:
                      labels: {app: %s}
                      annotations: {sim.kruise-vertx.dev/exit: "code=0,after=1s"}
                    spec:
                      restartPolicy: Never
                      containers:
                      - {name: main, image: "nginx:1.0"}
                """.formatted(name, NAMESPACE, name), io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                .create();
        if (fault == FaultClass.PARTITION) {
            sleep(500 + random.nextInt(1500));
            manager.proxy().partition(Duration.ofSeconds(5));
        }
        String[] phase = {"unread"};
        boolean done = waitFor(ROLLOUT_TIMEOUT, () -> {
            try {
                var live = jobs.withName(name).get();
                @SuppressWarnings("unchecked")
                var status = live == null ? null
                        : (java.util.Map<String, Object>) live.getAdditionalProperties().get("status");
                phase[0] = status == null ? "no status" : String.valueOf(status.get("phase"));
            } catch (RuntimeException e) {
                phase[0] = "cannot read: " + e.getMessage();
            }
            return "completed".equals(phase[0]);
        });
        long took = System.currentTimeMillis() - t0;
        manager.proxy().plan(FaultPlan.none());
        if (!done) {
            why.append("phase ").append(phase[0]);
        }
        report.scenarios.add(new ReliabilityReport.ScenarioResult(scenario, done, done ? took : 0, why.toString()));
        progress.printf("%-60s %s %6.1f s %s%n", scenario, done ? "ok  " : "FAIL", done ? took / 1000.0 : 0, why);
        jobs.withName(name).delete();
        waitFor(Duration.ofSeconds(60), () -> client.pods().inNamespace(NAMESPACE).withLabel("app", name).list()
                .getItems().isEmpty());
    }

    /** Creates, waits ready; then with the fault on, rolls out and waits for the new revision everywhere. */
    private void faultRollout(Workloads.Variant v, FaultClass fault) {
        String scenario = v.label() + " under " + fault;
        StringBuilder why = new StringBuilder();
        String name = newReadyWorkload(v, scenario, why);
        if (name == null) {
            return;
        }
        manager.proxy().plan(planFor(fault));
        if (fault == FaultClass.WATCH_DROPPED || fault == FaultClass.WATCH_GONE) {
            manager.proxy().dropWatches();
        }
        long t0 = System.currentTimeMillis();
        update(v, name);
        if (fault == FaultClass.PARTITION) {
            sleep(500 + random.nextInt(1500));
            manager.proxy().partition(Duration.ofSeconds(5));
        }
        long took = awaitRollout(v, name, t0, why);
        manager.proxy().plan(FaultPlan.none());
        record(scenario, v, name, took, why);
        deleteWorkload(v, name);
    }

    /** Kills the manager at a random point of a rollout; a new one must finish it. Times from the new start. */
    private void managerKill(Workloads.Variant v) {
        String scenario = v.label() + ", " + MANAGER_KILLED;
        StringBuilder why = new StringBuilder();
        String name = newReadyWorkload(v, scenario, why);
        if (name == null) {
            return;
        }
        update(v, name);
        sleep(random.nextInt(3000));
        why.append(progressAt(v, name, "kill")).append("; ");
        retire(manager, true);
        long t0 = System.currentTimeMillis();
        try {
            manager = startManager();
        } catch (Exception e) {
            throw new IllegalStateException("the manager did not start again: " + e.getMessage(), e);
        }
        record(scenario, v, name, awaitRollout(v, name, t0, why), why);
        deleteWorkload(v, name);
    }

    /**
     * A standby joins; the leader is cut off from the API server mid-rollout. The standby must take the lease over
     * within {@link #TAKEOVER_BOUND} of the old leader's last renewal (and not before the lease ran out), finish the
     * rollout, and the old leader must write nothing once its lease expired.
     */
    private void leaderPartition(Workloads.Variant v) {
        String scenario = v.label() + ", " + LEADER_PARTITIONED;
        StringBuilder why = new StringBuilder();
        ManagerUnderTest leader = manager;
        // The manager must lead before the standby joins: after a kill, a restarted manager waits out the old lease,
        // and a standby started meanwhile could win the lease and make the partition of a non-leader a no-op.
        if (!waitFor(LEASE.multipliedBy(3).plusSeconds(10), leader::isLeader)) {
            why.append("the manager did not lead within ").append(LEASE.multipliedBy(3).plusSeconds(10).toSeconds())
                    .append(" s before the partition");
            report.scenarios.add(new ReliabilityReport.ScenarioResult(scenario, false, 0, why.toString()));
            progress.printf("%-60s FAIL %s%n", scenario, why);
            return;
        }
        ManagerUnderTest standby;
        try {
            standby = startManager();
        } catch (Exception e) {
            throw new IllegalStateException("the standby manager did not start: " + e.getMessage(), e);
        }
        String name = newReadyWorkload(v, scenario, why);
        if (name == null) {
            retire(standby, false);
            return;
        }
        boolean twoLeaders = standby.isLeader();
        if (twoLeaders || !leader.isLeader()) {
            why.append("before the partition: leader ").append(leader.isLeader()).append(", standby ")
                    .append(standby.isLeader()).append("; ");
        }
        update(v, name);
        sleep(random.nextInt(2000));
        Duration partition = LEASE.multipliedBy(3);
        long t0 = System.currentTimeMillis();
        leader.proxy().partition(partition);
        boolean tookOver = waitFor(LEASE.multipliedBy(3), standby::isLeader);
        // From the old leader's last renewal (answered before the partition) to the standby's first lease write (the
        // one that made it the holder): what the lease duration bounds.
        long acquired = standby.proxy().log(r -> r.forwarded() && r.isWrite() && r.path().contains("/leases/")
                && r.status() < 300 && r.atMillis() >= t0).stream().mapToLong(ProxiedRequest::atMillis).min().orElse(-1);
        // A renewal in flight when the partition began may still have been applied: every one answered before the
        // standby's acquisition counts.
        long lastRenewal = lastLeaseWrite(leader.proxy(), acquired > 0 ? acquired : Long.MAX_VALUE);
        long takeover = tookOver && acquired > 0 && lastRenewal > 0 ? acquired - lastRenewal : -1;
        boolean inBound = takeover >= LEASE.toMillis() - 500 && takeover <= TAKEOVER_BOUND.toMillis();
        if (!tookOver) {
            why.append("the standby did not take over within ").append(LEASE.multipliedBy(3).toSeconds()).append(" s; ");
        } else if (takeover < 0) {
            why.append("no lease renewal before the partition or no acquisition after it in the proxy logs; ");
        } else if (!inBound) {
            why.append("takeover ").append(takeover).append(" ms outside [lease - 0.5 s, ")
                    .append(TAKEOVER_BOUND.toMillis()).append(" ms]; ");
        }
        if (takeover >= 0) {
            report.takeovers.add(takeover);
        }
        long took = awaitRollout(v, name, t0, why);
        // Let the partition end and the old leader come back before judging what it wrote.
        waitFor(partition.plusSeconds(10), () -> !leader.proxy().partitioned());
        sleep(3000);
        long expiry = lastLeaseWrite(leader.proxy(), Long.MAX_VALUE) + LEASE.toMillis();
        List<ProxiedRequest> late = leader.proxy().log(r -> r.forwarded() && r.isWrite() && r.atMillis() > expiry
                && !servesWebhooks(r.path()));
        report.fencedWritesAfterExpiry += late.size();
        if (!late.isEmpty()) {
            java.util.Map<String, Long> byKind = new java.util.TreeMap<>();
            late.forEach(r -> byKind.merge(r.method() + " " + resourceOf(r.path()), 1L, Long::sum));
            why.append(late.size()).append(" writes after the lease expired ").append(byKind).append("; ");
        }
        why.append("takeover ").append(takeover).append(" ms after the last renewal (partition ")
                .append(lastRenewal > 0 ? t0 - lastRenewal : -1).append(" ms after it)");
        boolean ok = took >= 0 && tookOver && late.isEmpty() && inBound && !twoLeaders;
        record(scenario, v, name, ok ? took : -1, why);
        // The old leader is retired; the standby carries on as the manager.
        retire(leader, true);
        manager = standby;
        deleteWorkload(v, name);
    }

    /**
     * The manager as a process of its own, killed with SIGKILL at a random point of a rollout, and a new process
     * started: the rollout must finish with nothing lost or duplicated. The in-process manager steps aside meanwhile
     * (closed, releasing its lease) and comes back afterwards. Times from the second process's start.
     */
    private void processKill(Workloads.Variant v) {
        String scenario = v.label() + ", " + PROCESS_KILLED;
        StringBuilder why = new StringBuilder();
        retire(manager, false);
        manager = null;
        java.nio.file.Path dir;
        try {
            dir = java.nio.file.Files.createTempDirectory("reliability-manager-process");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ManagerProcess first = ManagerProcess.start(cluster.cluster(), dir, "manager-" + (++processCounter), ELECTION_FLAGS);
        ManagerProcess second = null;
        try {
            if (!waitFor(Duration.ofSeconds(120), () -> first.leads() || !first.alive())) {
                why.append("the manager process did not lead within 120 s: ").append(first.logTail(5));
                report.scenarios.add(new ReliabilityReport.ScenarioResult(scenario, false, 0, why.toString()));
                progress.printf("%-60s FAIL %s%n", scenario, why);
                return;
            }
            String name = newReadyWorkload(v, scenario, why);
            if (name == null) {
                return;
            }
            update(v, name);
            sleep(random.nextInt(3000));
            why.append(progressAt(v, name, "kill")).append("; ");
            LOG.info("killing the manager process {} with SIGKILL", first.pid());
            first.kill9();
            long t0 = System.currentTimeMillis();
            second = ManagerProcess.start(cluster.cluster(), dir, "manager-" + (++processCounter), ELECTION_FLAGS);
            long took = awaitRollout(v, name, t0, why);
            if (took < 0) {
                why.append("; new process: ").append(second.leads() ? "leads" : "does not lead").append(", log ")
                        .append(second.log());
            }
            record(scenario, v, name, took, why);
            deleteWorkload(v, name);
        } finally {
            if (first.alive()) {
                first.kill9();
            }
            if (second != null) {
                second.stop();
            }
            try {
                manager = startManager();
            } catch (Exception e) {
                throw new IllegalStateException("the manager did not start again: " + e.getMessage(), e);
            }
        }
    }

    /**
     * The embedded API server restarted (every connection and watch closed, down for 1-3 s, its watch history gone)
     * at a random point of a rollout: the manager must list again and finish. Times from the server's return.
     */
    private void apiServerRestart(Workloads.Variant v) {
        String scenario = v.label() + ", " + API_SERVER_RESTARTED;
        StringBuilder why = new StringBuilder();
        String name = newReadyWorkload(v, scenario, why);
        if (name == null) {
            return;
        }
        update(v, name);
        // Soon after the update: an in-place rollout of a few pods may be over within a second.
        sleep(random.nextInt(400));
        Duration downtime = Duration.ofMillis(1000 + random.nextInt(2000));
        String atRestart = progressAt(v, name, "restart");
        try {
            cluster.cluster().restartApiServer(downtime).await(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the API server did not restart: " + e.getMessage(), e);
        }
        long t0 = System.currentTimeMillis();
        why.append("down ").append(downtime.toMillis()).append(" ms, ").append(atRestart).append("; ");
        record(scenario, v, name, awaitRollout(v, name, t0, why), why);
        deleteWorkload(v, name);
    }

    /**
     * Writes every replica makes, leader or not, as OpenKruise's webhook controller runs in every replica: the
     * webhook configurations and the CRDs' conversion webhook. Here the replicas even disagree on them (each serves on
     * its own loopback port with its own certificate, where a cluster has one Service and one Secret).
     */
    private static boolean servesWebhooks(String path) {
        return path.contains("/admissionregistration.k8s.io/") || path.contains("/customresourcedefinitions/");
    }

    /** The resource type of an API path (names and namespaces left out), for a count by kind. */
    private static String resourceOf(String path) {
        String p = path.split("\\?")[0];
        String[] parts = p.split("/");
        for (int i = 0; i < parts.length - 1; i++) {
            if ("namespaces".equals(parts[i]) && i + 2 < parts.length) {
                return parts[i + 2] + (i + 4 < parts.length ? "/" + parts[i + 4] : "");
            }
        }
        return parts.length >= 2 ? parts[parts.length - 2] : p;
    }

    /** The time of the last lease write the API server accepted through {@code proxy}, answered before {@code before}. */
    private static long lastLeaseWrite(FaultProxy proxy, long before) {
        return proxy.log(r -> r.forwarded() && r.isWrite() && r.path().contains("/leases/") && r.status() < 300
                        && r.atMillis() < before)
                .stream().mapToLong(ProxiedRequest::atMillis).max().orElse(0);
    }

    private static boolean waitFor(Duration timeout, BooleanSupplier condition) {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return true;
                }
            } catch (RuntimeException e) {
                LOG.debug("condition not readable yet: {}", e.toString());
            }
            sleep(200);
        }
        return false;
    }

    /**
     * Deletes the workload; while a replaced manager's webhook endpoint is still being registered the API server's
     * call to the old one is refused (500 "failed calling webhook"): that is retried for a bounded time, as a user's
     * client would, rather than failing the run.
     */
    private static void deleteThroughWebhookMove(
            io.fabric8.kubernetes.client.dsl.Resource<io.fabric8.kubernetes.api.model.GenericKubernetesResource> workload) {
        long deadline = System.currentTimeMillis() + Duration.ofSeconds(60).toMillis();
        while (true) {
            try {
                workload.delete();
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                boolean webhookMoving = e.getCode() == 500 && e.getMessage() != null
                        && e.getMessage().contains("failed calling webhook");
                if (!webhookMoving || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                sleep(500);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() throws Exception {
        hookHandlers.values().forEach(HookHandler::close);
        hookHandlers.clear();
        if (watching != null) {
            watching.close();
        }
        if (manager != null) {
            retire(manager, false);
            manager = null;
        }
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
