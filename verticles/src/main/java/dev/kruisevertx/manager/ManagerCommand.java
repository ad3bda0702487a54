package dev.kruisevertx.manager;

import dev.kruisevertx.controller.reason.RolloutWatch;
import dev.kruisevertx.cli.GoDuration;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.WebhookConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code manager} subcommand: OpenKruise's kruise-manager flags, with the same names and defaults, so the
 * chart's arguments work unchanged. Flags that only make sense for Go (pprof) are accepted and logged as ignored.
 */
@Command(name = "manager", mixinStandardHelpOptions = true,
        description = "Run the kruise-vertx controller manager and webhook against a Kubernetes cluster.")
public class ManagerCommand {
    @Option(names = "--kubeconfig", paramLabel = "PATH", description = "Kubeconfig file; in-cluster config or $KUBECONFIG when unset.")
    Path kubeconfig;

    @Option(names = "--metrics-addr", defaultValue = ":8080", description = "Address of /metrics (\"0\" disables). Default: ${DEFAULT-VALUE}")
    String metricsAddr;

    @Option(names = "--metrics-secure", arity = "0..1", defaultValue = "false", fallbackValue = "true",
            description = "Serve /metrics over HTTPS, only to callers whose bearer token passes a TokenReview and who "
                    + "may get the non-resource URL /metrics (SubjectAccessReview), as controller-runtime's secure "
                    + "metrics serving. Default: ${DEFAULT-VALUE}")
    boolean metricsSecure;

    @Option(names = "--metrics-cert-dir", paramLabel = "DIR",
            description = "With --metrics-secure: a directory with tls.crt and tls.key; a certificate is made at start when unset.")
    Path metricsCertDir;

    @Option(names = "--debug-addr", defaultValue = "127.0.0.1:8090",
            description = "Address of /debug/eventbus, /debug/controllers and /debug/plans; loopback by default, as "
                    + "OpenKruise's chart binds pprof (\"0\" disables). Default: ${DEFAULT-VALUE}")
    String debugAddr;

    @Option(names = "--health-probe-addr", defaultValue = ":8000", description = "Address of /healthz and /readyz. Default: ${DEFAULT-VALUE}")
    String healthProbeAddr;

    @Option(names = "--enable-leader-election", arity = "0..1", defaultValue = "true", fallbackValue = "true",
            description = "Elect a leader on a Lease; only the leader runs controllers. Default: ${DEFAULT-VALUE}")
    boolean enableLeaderElection;

    @Option(names = "--leader-election-id", defaultValue = "kruise-manager", description = "Lease name. Default: ${DEFAULT-VALUE}")
    String leaderElectionId;

    @Option(names = "--leader-election-identity", defaultValue = "",
            description = "This replica's identity in its leases. Empty: <hostname>_<random>, new for every process. "
                    + "Set it to the pod name (the chart does) so a restarted container takes its leases back at once "
                    + "instead of after they expire; never give two running processes the same identity.")
    String leaderElectionIdentity;

    @Option(names = "--leader-election-namespace", defaultValue = "kruise-system", description = "Lease namespace. Default: ${DEFAULT-VALUE}")
    String leaderElectionNamespace;

    @Option(names = "--leader-election-resource-lock", defaultValue = "leases", description = "Only \"leases\" is supported. Default: ${DEFAULT-VALUE}")
    String leaderElectionResourceLock;

    @Option(names = "--leader-election-lease-duration", defaultValue = "15s")
    String leaseDuration;

    @Option(names = "--leader-election-renew-deadline", defaultValue = "10s")
    String renewDeadline;

    @Option(names = "--leader-election-retry-period", defaultValue = "2s")
    String retryPeriod;

    @Option(names = "--shards", defaultValue = "1",
            description = "Split the controllers' keys into N shards by namespace, one Lease each (<leader-election-id>-shard-<i>); "
                    + "every replica runs the controllers for the shards it holds. 1: one leader, as OpenKruise. Default: ${DEFAULT-VALUE}")
    int shards;

    /** Each shard costs every replica one lease write per retry period. */
    public static final int MAX_SHARDS = 256;
    public static final String SHARDS_FLAG = "shards";

    @Option(names = "--namespace", defaultValue = "", description = "Restrict the cache to one namespace (all when empty).")
    String namespace;

    // Paged by default: fabric8 buffers a whole list answer in one byte array before decoding it (a Java array stops
    // at 2 GiB, about 200,000 realistic pods) and the watch's connection keeps the last answer reachable; pages bound both.
    @Option(names = "--cache-list-page-size", defaultValue = "500",
            description = "Objects per page when an informer lists (limit/continue). 0 lists whole with "
                    + "resourceVersion=0 (answered from kube-apiserver's watch cache, as client-go does), which a large "
                    + "cluster's pods can outgrow. Default: ${DEFAULT-VALUE}")
    int cacheListPageSize;

    public static final String CACHE_LIST_PAGE_SIZE_FLAG = "cache-list-page-size";

    @Option(names = "--sync-period", defaultValue = "0", description = "Informer resync period; 0 disables resync. Default: ${DEFAULT-VALUE}")
    String syncPeriod;

    @Option(names = "--controller-cache-sync-timeout", defaultValue = "2m")
    String cacheSyncTimeout;

    @Option(names = "--webhook-initialize-timeout", defaultValue = "60s")
    String webhookInitializeTimeout;

    @Option(names = "--rest-config-qps", defaultValue = "30")
    int restConfigQps;

    @Option(names = "--rest-config-burst", defaultValue = "50")
    int restConfigBurst;

    @Option(names = "--rate-limiter-base-delay", defaultValue = "5ms")
    String rateLimiterBaseDelay;

    @Option(names = "--rate-limiter-max-delay", defaultValue = "1000s")
    String rateLimiterMaxDelay;

    @Option(names = "--rate-limiter-qps", defaultValue = "10")
    int rateLimiterQps;

    @Option(names = "--rate-limiter-bucket-size", defaultValue = "100")
    int rateLimiterBucketSize;

    @Option(names = "--expectation-timeout", defaultValue = "5m")
    String expectationTimeout;

    @Option(names = "--feature-gates", defaultValue = "", description = "Comma list of Gate=true|false.")
    String featureGates;

    @Option(names = "--log-format", defaultValue = "text", description = "text or json. Default: ${DEFAULT-VALUE}")
    String logFormat;

    @Option(names = {"-v", "--v"}, defaultValue = "0", description = "Log verbosity as klog's: 0-4 info, 5-6 debug, 7+ trace.")
    int verbosity;

    @Option(names = "--enable-cache-mutation-detector", arity = "0..1", defaultValue = "false", fallbackValue = "true",
            description = "Check that nobody mutates cached objects (also KUBE_CACHE_MUTATION_DETECTOR=true).")
    boolean cacheMutationDetector;

    @Option(names = "--crd-recheck-period", defaultValue = "30s",
            description = "How often controllers whose CRD is missing look for it again (0 disables).")
    String crdRecheckPeriod;

    @Option(names = "--takeover-dry-run", arity = "0..1", defaultValue = "false",
            description = "Run the start-up takeover check (CloneSets and Advanced StatefulSets whose update revision "
                    + "would change, with the reason), report it in the log and on /debug/controllers, and start no "
                    + "controller. Default: ${DEFAULT-VALUE}")
    boolean takeoverDryRun;

    @Option(names = "--cloneset-scaling-exclude-preparing-delete", arity = "0..1", defaultValue = "false",
            fallbackValue = "true", description = "If true, the CloneSet controller calculates the scale number "
            + "excluding pods in PreparingDelete (for every CloneSet, like the CloneSet label "
            + "apps.kruise.io/cloneset-scaling-exclude-preparing-delete). Default: ${DEFAULT-VALUE}")
    boolean clonesetScalingExcludePreparingDelete;

    @Option(names = "--workload-progress-deadline", defaultValue = "10m",
            description = "How long a rollout may make no progress while something holds it (maxUnavailable, a hook, "
            + "an unschedulable pod...) before it gets a RolloutStuck Event and the kruise_workload_blocked metric, "
            + "for workloads without spec.progressDeadlineSeconds (Advanced StatefulSet, CloneSets that leave it "
            + "unset). Default: ${DEFAULT-VALUE}")
    String workloadProgressDeadline;

    @Option(names = "--assign-pods-by-scheduler", arity = "0..1", defaultValue = "true", fallbackValue = "true",
            description = "If true, Advanced DaemonSet pods are bound to their node by the scheduler (a required node "
            + "affinity on the node's name); if false the controller sets spec.nodeName itself. Default: ${DEFAULT-VALUE}")
    boolean assignPodsByScheduler;

    @Option(names = "--assign-bcj-pods-by-scheduler", arity = "0..1", defaultValue = "true", fallbackValue = "true",
            description = "Place BroadcastJob pods through the scheduler (a node-name affinity); false sets "
            + "spec.nodeName directly. Default: ${DEFAULT-VALUE}")
    boolean assignBcjPodsByScheduler;

    @Option(names = "--nodeimage-creation-delay", defaultValue = "30s",
            description = "How long after a node turned Ready its NodeImage is created. Default: ${DEFAULT-VALUE}")
    String nodeImageCreationDelay;

    @Option(names = "--default-ttlseconds-for-always-nodeimage", defaultValue = "300",
            description = "Seconds a NodeImage keeps the tag of a finished ImagePullJob (completionPolicy Always) on "
            + "top of the job's own TTL. Default: ${DEFAULT-VALUE}")
    int defaultTtlSecondsForAlwaysNodeImage;

    // Accepted for compatibility with OpenKruise's chart and manifests.
    @Option(names = "--enable-pprof", arity = "0..1", defaultValue = "true", fallbackValue = "true", hidden = true)
    boolean enablePprof;
    @Option(names = "--pprof-addr", defaultValue = ":8090", hidden = true)
    String pprofAddr;
    @Option(names = "--allow-privileged", arity = "0..1", defaultValue = "true", fallbackValue = "true", hidden = true)
    boolean allowPrivileged;
    @Option(names = "--logtostderr", arity = "0..1", defaultValue = "true", fallbackValue = "true", hidden = true)
    boolean logToStderr;
    @Option(names = "--disable-no-deepcopy", arity = "0..1", defaultValue = "false", fallbackValue = "true", hidden = true)
    boolean disableNoDeepCopy;
    @Option(names = "--protection-log-path", defaultValue = "/log", hidden = true)
    String protectionLogPath;
    @Option(names = "--ws-enabled-versioned-status", defaultValue = "deployment,replicaset",
            description = "Workload kinds whose pods WorkloadSpread counts per version (comma-separated, as OpenKruise).")
    String wsEnabledVersionedStatus;

    /** Adds one {@code --<controller>-workers} flag per controller to a command line before parsing. */
    public static void addWorkerFlags(CommandSpec spec, List<ControllerDefinition> controllers) {
        for (ControllerDefinition d : controllers) {
            spec.addOption(OptionSpec.builder("--" + d.name() + "-workers")
                    .type(int.class).defaultValue(Integer.toString(d.defaultWorkers()))
                    .description("Concurrent reconciles of the " + d.name() + " controller. Default: " + d.defaultWorkers())
                    .build());
        }
    }

    /** Validates everything and builds the config; any problem is an IllegalArgumentException naming the flag. */
    public ManagerConfig toConfig(CommandSpec spec, List<ControllerDefinition> controllers, Map<String, String> env) {
        if (!"leases".equals(leaderElectionResourceLock)) {
            throw new IllegalArgumentException("--leader-election-resource-lock: only \"leases\" is supported, got \""
                    + leaderElectionResourceLock + "\"");
        }
        if (!logFormat.equals("text") && !logFormat.equals("json")) {
            throw new IllegalArgumentException("--log-format: expected \"text\" or \"json\", got \"" + logFormat + "\"");
        }
        if (restConfigQps <= 0 || restConfigBurst <= 0) {
            throw new IllegalArgumentException("--rest-config-qps and --rest-config-burst must be positive");
        }
        if (rateLimiterQps <= 0 || rateLimiterBucketSize <= 0) {
            throw new IllegalArgumentException("--rate-limiter-qps and --rate-limiter-bucket-size must be positive");
        }
        Map<String, Integer> workers = new HashMap<>();
        for (ControllerDefinition d : controllers) {
            String flag = "--" + d.name() + "-workers";
            int value = spec.findOption(flag).getValue();
            if (value < 1) {
                throw new IllegalArgumentException(flag + " must be at least 1, got " + value);
            }
            workers.put(d.name(), value);
        }
        FeatureGates gates;
        try {
            gates = FeatureGates.parse(featureGates, env);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--feature-gates: " + e.getMessage(), e);
        }
        LeaderElection.Settings election = new LeaderElection.Settings(leaderElectionNamespace, leaderElectionId,
                identity(leaderElectionIdentity), duration("--leader-election-lease-duration", leaseDuration),
                duration("--leader-election-renew-deadline", renewDeadline),
                duration("--leader-election-retry-period", retryPeriod));
        ManagerSettings settings = new ManagerSettings(namespace.isEmpty() ? null : namespace,
                duration("--expectation-timeout", expectationTimeout),
                duration("--rate-limiter-base-delay", rateLimiterBaseDelay),
                duration("--rate-limiter-max-delay", rateLimiterMaxDelay),
                rateLimiterQps, rateLimiterBucketSize, workers,
                Map.of(dev.kruisevertx.workloadspread.WorkloadSpreads.VERSIONED_STATUS_FLAG, wsEnabledVersionedStatus,
                        CloneSetController.SCALING_EXCLUDE_PREPARING_DELETE_FLAG,
                        Boolean.toString(clonesetScalingExcludePreparingDelete),
                        RolloutWatch.DEADLINE_FLAG, Long.toString(positive("--workload-progress-deadline",
                                duration("--workload-progress-deadline", workloadProgressDeadline)).toMillis()),
                        dev.kruisevertx.daemonset.DaemonSetController.ASSIGN_PODS_BY_SCHEDULER_FLAG,
                        Boolean.toString(assignPodsByScheduler),
                        dev.kruisevertx.broadcastjob.BroadcastJobController.ASSIGN_BY_SCHEDULER_FLAG,
                        Boolean.toString(assignBcjPodsByScheduler),
                        dev.kruisevertx.nodeimage.NodeImageController.CREATION_DELAY_FLAG,
                        Long.toString(duration("--nodeimage-creation-delay", nodeImageCreationDelay).toMillis()),
                        dev.kruisevertx.imagepulljob.ImagePullJobController.DEFAULT_TTL_FOR_ALWAYS_FLAG,
                        Integer.toString(nonNegative("--default-ttlseconds-for-always-nodeimage",
                                defaultTtlSecondsForAlwaysNodeImage)),
                        dev.kruisevertx.takeover.TakeoverStartup.DRY_RUN_FLAG, Boolean.toString(takeoverDryRun),
                        SHARDS_FLAG, Integer.toString(shards(enableLeaderElection)),
                        CACHE_LIST_PAGE_SIZE_FLAG, Integer.toString(nonNegative("--cache-list-page-size",
                                cacheListPageSize))));
        Duration initializeTimeout = duration("--webhook-initialize-timeout", webhookInitializeTimeout);
        WebhookConfig webhook;
        try {
            webhook = WebhookConfig.fromEnv(env, gates.enabled(Feature.EnableExternalCerts))
                    .withInitializeTimeout(initializeTimeout)
                    .withKruisePodReadinessGate(gates.enabled(Feature.KruisePodReadinessGate));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("webhook environment: " + e.getMessage(), e);
        }
        ListenAddress metrics = ListenAddress.parse("--metrics-addr", metricsAddr);
        ListenAddress probes = ListenAddress.parse("--health-probe-addr", healthProbeAddr);
        ListenAddress debug = ListenAddress.parse("--debug-addr", debugAddr);
        ListenAddress.requireDistinct(metrics, probes, debug,
                new ListenAddress(webhook.bindHost(), webhook.port(), false, "WEBHOOK_PORT " + webhook.port()));
        if (metricsCertDir != null && !metricsSecure) {
            throw new IllegalArgumentException("--metrics-cert-dir needs --metrics-secure");
        }
        return new ManagerConfig(kubeconfig, metrics, probes, debug, metricsSecure, metricsCertDir,
                enableLeaderElection, election,
                duration("--sync-period", syncPeriod),
                duration("--controller-cache-sync-timeout", cacheSyncTimeout),
                initializeTimeout,
                restConfigQps, restConfigBurst,
                cacheMutationDetector || "true".equalsIgnoreCase(env.get("KUBE_CACHE_MUTATION_DETECTOR")),
                duration("--crd-recheck-period", crdRecheckPeriod),
                gates, settings, webhook);
    }

    private static Duration duration(String flag, String value) {
        try {
            Duration d = GoDuration.parse(value);
            if (d.isNegative()) {
                throw new IllegalArgumentException("must not be negative");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage(), e);
        }
    }

    private int shards(boolean election) {
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("--shards: must be between 1 and " + MAX_SHARDS + ", got " + shards);
        }
        if (shards > 1 && !election) {
            throw new IllegalArgumentException("--shards " + shards + " needs leader election (--enable-leader-election): "
                    + "replicas share the shards through their leases");
        }
        return shards;
    }

    private static Duration positive(String flag, Duration d) {
        if (d.isZero()) {
            throw new IllegalArgumentException(flag + ": must be more than 0, got 0");
        }
        return d;
    }

    private static int nonNegative(String flag, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(flag + ": must not be negative, got " + value);
        }
        return value;
    }

    static String identity(String given) {
        if (!given.isEmpty()) {
            if (given.isBlank() || given.length() > 128 || given.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                String shown = given.length() > 128 ? given.length() + " characters"
                        : "\"" + given.replaceAll("\\p{Cntrl}", "?") + "\"";
                throw new IllegalArgumentException(
                        "--leader-election-identity: must be 1 to 128 printable characters, got " + shown);
            }
            return given;
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "unknown";
        }
        // Same shape as controller-runtime's: hostname plus a random suffix, unique per process.
        return host + "_" + UUID.randomUUID();
    }

    static CommandLine commandLine(ManagerCommand command, List<ControllerDefinition> controllers) {
        CommandLine cl = new CommandLine(command);
        // Go's flag package lets a later occurrence win; charts rely on that when they append overrides.
        cl.setOverwrittenOptionsAllowed(true);
        addWorkerFlags(cl.getCommandSpec(), controllers);
        return cl;
    }
}
