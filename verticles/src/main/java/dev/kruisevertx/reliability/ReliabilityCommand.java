package dev.kruisevertx.reliability;

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
        description = "Run the manager through injected API faults, kills and leader partitions on an embedded cluster, "
                + "checking invariants on every pod event, and print a report.")
public final class ReliabilityCommand {
    @Option(names = "--duration", defaultValue = "10m", description = "How long to start new scenarios (e.g. 90s, 10m). Default: ${DEFAULT-VALUE}")
    String duration;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of every random choice (faults, kill points). Default: ${DEFAULT-VALUE}")
    long seed;

    @Option(names = "--replicas", defaultValue = "3", description = "Replicas of each workload. Default: ${DEFAULT-VALUE}")
    int replicas;

    @Option(names = "--fault-rate", defaultValue = "0.2", description = "Rate of the fault class under test per request. Default: ${DEFAULT-VALUE}")
    double faultRate;

    @Option(names = "--only", description = "Run only the scenarios whose label contains this text (to replay a finding "
            + "with its seed), e.g. \"Advanced StatefulSet in-place\" or \"leader partitioned\".")
    String only;

    private final CommandLine commandLine = new CommandLine(this);

    public CommandLine commandLine() {
        return commandLine;
    }

    static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> throw new IllegalArgumentException();
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--duration: expected a number with s, m or h (e.g. 90s, 10m), got \""
                    + text + "\"");
        }
    }

    public int run(PrintStream out, PrintStream err) {
        ReliabilitySuite.Options options;
        try {
            options = new ReliabilitySuite.Options(parseDuration(duration), seed, replicas, faultRate, only);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        try (ReliabilitySuite suite = new ReliabilitySuite(options, out)) {
            ReliabilityReport report = suite.run();
            out.println();
            out.print(report.toText());
            return report.passed() ? 0 : 1;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("error: reliability run failed: " + e.getMessage());
            return 1;
        }
    }
}
