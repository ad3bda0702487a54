package dev.kruisevertx.manager;

import dev.kruisevertx.demo.DemoSubcommand;
import dev.kruisevertx.demo.SimNodesSubcommand;
import picocli.CommandLine;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/** A subcommand other than {@code manager} (demo, sim-nodes): its name, its parser and how to run it. */
record SubcommandFactory(String name, CommandLine commandLine, Runner runner) {
    @FunctionalInterface
    interface Runner {
        int run(PrintStream out, PrintStream err, Map<String, String> env, boolean waitForSignal);
    }

    int run(PrintStream out, PrintStream err, Map<String, String> env, boolean waitForSignal) {
        return runner.run(out, err, env, waitForSignal);
    }

    static List<SubcommandFactory> all() {
        DemoSubcommand demo = new DemoSubcommand();
        SimNodesSubcommand simNodes = new SimNodesSubcommand();
        dev.kruisevertx.reliability.ReliabilityCommand reliability = new dev.kruisevertx.reliability.ReliabilityCommand();
        return List.of(
                new SubcommandFactory("demo", demo.commandLine(),
                        (out, err, env, waitForSignal) -> demo.run(out, err, waitForSignal, Logging::configure)),
                new SubcommandFactory("sim-nodes", simNodes.commandLine(),
                        (out, err, env, waitForSignal) -> simNodes.run(out, err, waitForSignal)),
                new SubcommandFactory("reliability", reliability.commandLine(),
                        (out, err, env, waitForSignal) -> {
                            // The project's log format and levels, as the manager has them, before any logger exists.
                            Logging.configure("text", 0);
                            return reliability.run(out, err);
                        }));
    }
}
