package dev.kruisevertx.reliability;

import dev.kruisevertx.cli.GoDuration;
import dev.kruisevertx.cli.InvalidConfigurationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Duration;

/**
 * {@code kruise-manager reliability}: runs the reliability suite in process (embedded cluster, fault proxy, invariant
 * checker) for a while and prints the report. Exit 0 when it passed, 1 when it did not, 2 on bad flags.
 */
@Command(name = "reliability", mixinStandardHelpOptions = true,
        description = "Run the manager through injected API faults, kills (in process and kill -9 of a manager process), "
                + "leader partitions, API server restarts and lifecycle-hooked rollouts on an embedded cluster, "
                + "checking invariants on every pod event, and print a report.")
public final class ReliabilityCommand {
    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "10m", description = "How long to start new scenarios (e.g. 90s, 10m). Default: ${DEFAULT-VALUE}")
    String duration;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of every random choice (faults, kill points). Default: ${DEFAULT-VALUE}")
    long seed;

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "3", description = "Replicas of each workload. Default: ${DEFAULT-VALUE}")
    int replicas;

    @Option(names = "--fault-rate", paramLabel = "RATE", defaultValue = "0.2", description = "Rate of the fault class under test per request. Default: ${DEFAULT-VALUE}")
    double faultRate;

    @Option(names = "--only", paramLabel = "TEXT", description = "Run only the scenarios whose label contains this text (to replay a finding "
            + "with its seed), e.g. \"Advanced StatefulSet in-place\" or \"leader partitioned\".")
    String only;

    private final CommandLine commandLine = new CommandLine(this);

    public CommandLine commandLine() {
        return commandLine;
    }

    static Duration parseDuration(String text) {
        try {
            return GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException("--duration: " + e.getMessage(), e);
        }
    }

    public int run(PrintStream out, PrintStream err) {
        try (ReliabilitySuite suite = new ReliabilitySuite(new ReliabilitySuite.Options(parseDuration(duration), seed,
                replicas, faultRate, only), out)) {
            ReliabilityReport report = suite.run();
            out.println();
            out.print(report.toText());
            return report.passed() ? 0 : 1;
        } catch (Exception e) {
            // Bad flags (the options say which) exit 2, as everywhere; anything else is a failed run.
            return InvalidConfigurationException.report(e, "reliability run failed", err);
        }
    }
}
