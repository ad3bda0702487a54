package dev.kruisevertx.manager;

import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.features.Feature;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ManagerFlagsTest {
    private static ManagerConfig parse(String... args) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = ManagerCommand.commandLine(command, ControllerRegistry.all());
        cl.parseArgs(args);
        return command.toConfig(cl.getCommandSpec(), ControllerRegistry.all(), Map.of());
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KruiseManagerMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), false);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theReliabilityCommandInstallsTheProjectsLogConfiguration() {
        String before = System.getProperty("log4j2.configurationFile");
        System.clearProperty("log4j2.configurationFile");
        try {
            // A bad duration: refused (exit 2) after the logging is chosen and before anything starts.
            Run r = run("reliability", "--duration=ten");
            assertEquals(2, r.code(), r.err());
            assertEquals("log4j2-text.xml", System.getProperty("log4j2.configurationFile"));
        } finally {
            if (before == null) {
                System.clearProperty("log4j2.configurationFile");
            } else {
                System.setProperty("log4j2.configurationFile", before);
            }
        }
    }

    @Test
    void defaultsAreOpenKruises() {
        ManagerConfig c = parse();
        assertEquals(8080, c.metricsAddr().port());
        assertEquals(8000, c.healthProbeAddr().port());
        assertTrue(c.leaderElection());
        assertEquals("kruise-manager", c.leaderElectionSettings().name());
        assertEquals("kruise-system", c.leaderElectionSettings().namespace());
        assertEquals(Duration.ofSeconds(15), c.leaderElectionSettings().leaseDuration());
        assertEquals(Duration.ofSeconds(10), c.leaderElectionSettings().renewDeadline());
        assertEquals(Duration.ofSeconds(2), c.leaderElectionSettings().retryPeriod());
        assertNull(c.settings().namespace());
        assertEquals(Duration.ZERO, c.syncPeriod());
        assertEquals(Duration.ofMinutes(2), c.cacheSyncTimeout());
        assertEquals(Duration.ofSeconds(60), c.webhookInitializeTimeout());
        assertEquals(Duration.ofMinutes(5), c.settings().expectationTimeout());
        assertEquals(Duration.ofMillis(5), c.settings().rateLimiterBaseDelay());
        assertEquals(Duration.ofSeconds(1000), c.settings().rateLimiterMaxDelay());
        assertEquals(10, c.settings().rateLimiterQps());
        assertEquals(100, c.settings().rateLimiterBucketSize());
        assertEquals(30, c.restConfigQps());
        assertEquals(50, c.restConfigBurst());
        assertEquals(3, c.settings().workers().get("podreadiness"));
        assertFalse(c.cacheMutationDetector());
        // Not OpenKruise flags: debug views on loopback, /metrics open as OpenKruise serves it.
        assertEquals("127.0.0.1", c.debugAddr().host());
        assertEquals(8090, c.debugAddr().port());
        assertFalse(c.metricsSecure());
    }

    @Test
    void metricsCertDirNeedsMetricsSecure() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--metrics-cert-dir=/etc/certs"))
                .getMessage().contains("--metrics-cert-dir needs --metrics-secure"));
        ManagerConfig c = parse("--metrics-secure", "--metrics-cert-dir=/etc/certs");
        assertTrue(c.metricsSecure());
        assertEquals(java.nio.file.Path.of("/etc/certs"), c.metricsCertDir());
        assertTrue(parse("--debug-addr=0").debugAddr().disabled());
    }

    @Test
    void chartStyleArgumentsAreAccepted() {
        ManagerConfig c = parse("--enable-leader-election", "--metrics-addr=:8080", "--health-probe-addr=:8000",
                "--logtostderr=true", "--leader-election-namespace=kruise-system", "--v=4",
                "--feature-gates=KruiseDaemon=false", "--sync-period=0", "--podreadiness-workers=7",
                "--enable-leader-election=false", "--namespace=team-a", "--expectation-timeout=90s");
        assertFalse(c.leaderElection());
        assertEquals(7, c.settings().workers().get("podreadiness"));
        assertEquals("team-a", c.settings().namespace());
        assertEquals(Duration.ofSeconds(90), c.settings().expectationTimeout());
        assertFalse(c.featureGates().enabled(Feature.KruiseDaemon));
    }

    @Test
    void unknownFlagExitsTwoWithAClearMessage() {
        Run r = run("manager", "--no-such-flag=1");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("Unknown option: '--no-such-flag=1'"), r.err());
        assertTrue(r.err().contains("kruise-manager manager --help"), r.err());
    }

    @Test
    void badValuesNameTheFlag() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--rate-limiter-base-delay=fast"))
                .getMessage().startsWith("--rate-limiter-base-delay: invalid duration \"fast\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--podreadiness-workers=0"))
                .getMessage().contains("--podreadiness-workers must be at least 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--leader-election-resource-lock=configmaps"))
                .getMessage().contains("only \"leases\""));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> parse("--leader-election-lease-duration=5s", "--leader-election-renew-deadline=10s"))
                .getMessage().contains("must be greater than --leader-election-renew-deadline"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--log-format=xml"))
                .getMessage().contains("--log-format"));
        assertEquals("--workload-progress-deadline: must be more than 0, got 0", assertThrows(
                IllegalArgumentException.class, () -> parse("--workload-progress-deadline=0s")).getMessage());
    }

    @Test
    void leaderElectionIdentityIsPerProcessByDefaultAndStableWhenGiven() {
        String a = parse().leaderElectionSettings().identity();
        String b = parse().leaderElectionSettings().identity();
        assertTrue(a.contains("_") && !a.equals(b), "hostname_<random>, new for every process: " + a + " " + b);
        assertEquals("kruise-manager-7d9f-x2k", parse("--leader-election-identity=kruise-manager-7d9f-x2k")
                .leaderElectionSettings().identity());
        assertEquals("--leader-election-identity: must be 1 to 128 printable characters, got \"   \"",
                assertThrows(IllegalArgumentException.class, () -> parse("--leader-election-identity=   ")).getMessage());
        assertEquals("--leader-election-identity: must be 1 to 128 printable characters, got \"a?b\"",
                assertThrows(IllegalArgumentException.class, () -> parse("--leader-election-identity=a\nb")).getMessage());
        assertEquals("--leader-election-identity: must be 1 to 128 printable characters, got 100000 characters",
                assertThrows(IllegalArgumentException.class,
                        () -> parse("--leader-election-identity=" + "x".repeat(100_000))).getMessage());
    }

    @Test
    void cacheListPageSizeDefaultsToPagesOf500AndRefusesNegativeValuesNamingTheFlag() {
        assertEquals("500", parse().settings().extra().get(ManagerCommand.CACHE_LIST_PAGE_SIZE_FLAG));
        assertEquals("0", parse("--cache-list-page-size=0").settings().extra()
                .get(ManagerCommand.CACHE_LIST_PAGE_SIZE_FLAG), "whole lists on request");
        assertEquals("--cache-list-page-size: must not be negative, got -1",
                assertThrows(IllegalArgumentException.class, () -> parse("--cache-list-page-size=-1")).getMessage());
    }

    @Test
    void shardsDefaultToOneAndHostileValuesAreRefusedNamingTheFlag() {
        assertEquals("1", parse().settings().extra().get(ManagerCommand.SHARDS_FLAG), "one leader, as OpenKruise");
        assertEquals("4", parse("--shards=4").settings().extra().get(ManagerCommand.SHARDS_FLAG));
        assertEquals("--shards: must be between 1 and 256, got 0",
                assertThrows(IllegalArgumentException.class, () -> parse("--shards=0")).getMessage());
        assertEquals("--shards: must be between 1 and 256, got -2",
                assertThrows(IllegalArgumentException.class, () -> parse("--shards=-2")).getMessage());
        assertEquals("--shards: must be between 1 and 256, got 100000",
                assertThrows(IllegalArgumentException.class, () -> parse("--shards=100000")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> parse("--shards=2", "--enable-leader-election=false")).getMessage()
                .contains("--shards 2 needs leader election"));
        assertEquals("1", parse("--shards=1", "--enable-leader-election=false").settings().extra()
                .get(ManagerCommand.SHARDS_FLAG));
        Run r = run("manager", "--shards=two");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--shards"), r.err());
        Run huge = run("manager", "--shards=99999999999");
        assertEquals(2, huge.code());
        assertTrue(huge.err().contains("--shards"), huge.err());
    }

    @Test
    void workloadProgressDeadlineDefaultsToTenMinutes() {
        assertEquals(java.time.Duration.ofMinutes(10),
                dev.kruisevertx.controller.reason.RolloutWatch.defaultDeadline(parse().settings()));
        assertEquals(java.time.Duration.ofSeconds(90), dev.kruisevertx.controller.reason.RolloutWatch
                .defaultDeadline(parse("--workload-progress-deadline=90s").settings()));
    }

    @Test
    void clonesetScalingExcludePreparingDeleteReachesTheSettings() {
        String key = CloneSetController.SCALING_EXCLUDE_PREPARING_DELETE_FLAG;
        assertEquals("false", parse().settings().extra().get(key), "off by default, as in OpenKruise");
        assertEquals("true", parse("--cloneset-scaling-exclude-preparing-delete").settings().extra().get(key));
        assertEquals("true", parse("--cloneset-scaling-exclude-preparing-delete=true").settings().extra().get(key));
        assertEquals("false", parse("--cloneset-scaling-exclude-preparing-delete=true",
                "--cloneset-scaling-exclude-preparing-delete=false").settings().extra().get(key), "the last one wins");
        Run r = run("manager", "--cloneset-scaling-exclude-preparing-delete=maybe");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--cloneset-scaling-exclude-preparing-delete"), r.err());
    }

    @Test
    void assignPodsBySchedulerReachesTheSettings() {
        String key = dev.kruisevertx.daemonset.DaemonSetController.ASSIGN_PODS_BY_SCHEDULER_FLAG;
        assertEquals("true", parse().settings().extra().get(key), "on by default, as in OpenKruise");
        assertEquals("false", parse("--assign-pods-by-scheduler=false").settings().extra().get(key));
        Run r = run("manager", "--assign-pods-by-scheduler=sometimes");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--assign-pods-by-scheduler"), r.err());
    }

    @Test
    void unknownFeatureGateIsAStartupError() {
        Run r = run("manager", "--feature-gates=NoSuchGate=true");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: --feature-gates: "), r.err());
        assertTrue(r.err().contains("NoSuchGate"), r.err());
    }

    @Test
    void noSubcommandPrintsUsage() {
        Run r = run();
        assertEquals(2, r.code());
        assertTrue(r.err().contains("manager"), r.err());
    }
}
