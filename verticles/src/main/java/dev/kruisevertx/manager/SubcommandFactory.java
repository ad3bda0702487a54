package dev.kruisevertx.manager;

import dev.kruisevertx.demo.DemoSubcommand;
import dev.kruisevertx.demo.SimNodesSubcommand;
import picocli.CommandLine;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/** A subcommand other than {@code manager} (demo, sim-nodes): its parser and how to run it. */
interface SubcommandFactory {
    String name();

    CommandLine commandLine();

    int run(PrintStream out, PrintStream err, Map<String, String> env, boolean waitForSignal);

    static List<SubcommandFactory> all() {
        DemoSubcommand demo = new DemoSubcommand();
        SimNodesSubcommand simNodes = new SimNodesSubcommand();
        return List.of(new SubcommandFactory() {
            @Override
            public String name() {
                return "demo";
            }

            @Override
            public CommandLine commandLine() {
                return demo.commandLine();
            }

            @Override
            public int run(PrintStream out, PrintStream err, Map<String, String> env, boolean waitForSignal) {
                return demo.run(out, err, waitForSignal, Logging::configure);
            }
        }, new SubcommandFactory() {
            @Override
            public String name() {
                return "sim-nodes";
            }

            @Override
            public CommandLine commandLine() {
                return simNodes.commandLine();
            }

            @Override
            public int run(PrintStream out, PrintStream err, Map<String, String> env, boolean waitForSignal) {
                return simNodes.run(out, err, waitForSignal);
            }
        });
    }
}
