package dev.kruisevertx.manager;

import picocli.CommandLine;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/** A subcommand other than {@code manager} (demo, sim-nodes): its parser and how to run it. */
interface SubcommandFactory {
    String name();

    CommandLine commandLine();

    int run(CommandLine.ParseResult parsed, PrintStream out, PrintStream err, Map<String, String> env,
            boolean waitForSignal);

    static List<SubcommandFactory> all() {
        return List.of();
    }
}
