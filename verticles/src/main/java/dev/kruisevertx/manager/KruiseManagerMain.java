package dev.kruisevertx.manager;

import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Entry point of {@code kruise-manager.jar}: {@code manager} runs against a cluster; {@code demo} runs the whole
 * product on the embedded cluster; {@code sim-nodes} runs simulated nodes against any API server.
 *
 * <p>No logger is touched before the flags are parsed, so {@code --log-format} and {@code -v} configure logging.
 */
@Command(name = "kruise-manager", mixinStandardHelpOptions = true, version = "kruise-vertx 0.1.0",
        description = "kruise-vertx: OpenKruise-compatible application automation on Vert.x.",
        subcommands = {CommandLine.HelpCommand.class})
public final class KruiseManagerMain {
    /** Exit codes: 0 ok, 1 runtime failure, 2 bad configuration (flags, kubeconfig, a listen address in use). */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.getenv(), true));
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env, boolean waitForSignal) {
        List<ControllerDefinition> controllers = ControllerRegistry.all();
        ManagerCommand managerCommand = new ManagerCommand();
        CommandLine top = new CommandLine(new KruiseManagerMain());
        CommandLine manager = ManagerCommand.commandLine(managerCommand, controllers);
        top.addSubcommand("manager", manager);
        List<SubcommandFactory> extras = SubcommandFactory.all();
        for (SubcommandFactory extra : extras) {
            top.addSubcommand(extra.name(), extra.commandLine());
        }
        top.setOut(new java.io.PrintWriter(out, true));
        top.setErr(new java.io.PrintWriter(err, true));

        CommandLine.ParseResult parsed;
        try {
            parsed = top.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            err.println("error: " + e.getMessage());
            err.println("Run 'kruise-manager " + (e.getCommandLine() == top ? "" : e.getCommandLine().getCommandName() + " ")
                    + "--help' for the list of flags.");
            return 2;
        }
        if (CommandLine.printHelpIfRequested(parsed)) {
            return 0;
        }
        if (!parsed.hasSubcommand()) {
            top.usage(err);
            return 2;
        }
        CommandLine.ParseResult sub = parsed.subcommand();
        if (sub.commandSpec() == manager.getCommandSpec()) {
            return runManager(managerCommand, manager, controllers, err, env, waitForSignal);
        }
        for (SubcommandFactory extra : extras) {
            if (extra.name().equals(sub.commandSpec().name())) {
                return extra.run(out, err, env, waitForSignal);
            }
        }
        top.usage(err);
        return 2;
    }

    private static int runManager(ManagerCommand command, CommandLine cl, List<ControllerDefinition> controllers,
                                  PrintStream err, Map<String, String> env, boolean waitForSignal) {
        ManagerConfig config;
        try {
            config = command.toConfig(cl.getCommandSpec(), controllers, env);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        Logging.configure(command.logFormat, command.verbosity);
        KubernetesClient client;
        try {
            client = KubeClients.create(config.kubeconfig(), config.restConfigQps(), config.restConfigBurst());
        } catch (InvalidConfigurationException e) {
            err.println("error: " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            err.println("error: cannot build a Kubernetes client: " + e.getMessage());
            return 1;
        }
        return Lifecycle.runUntilSignal(() -> ManagerApp.start(config, client, controllers),
                app -> app.close().eventually(() -> {
                    client.close();
                    return io.vertx.core.Future.succeededFuture();
                }), err, waitForSignal);
    }

    /** Blocks the main thread until SIGTERM/SIGINT, then closes cleanly. */
    static final class Lifecycle {
        private Lifecycle() {
        }

        static <A> int runUntilSignal(java.util.function.Supplier<io.vertx.core.Future<A>> starter,
                                      java.util.function.Function<A, io.vertx.core.Future<Void>> stopper,
                                      PrintStream err, boolean waitForSignal) {
            java.util.concurrent.CompletableFuture<A> started;
            try {
                started = starter.get().toCompletionStage().toCompletableFuture();
            } catch (RuntimeException e) {
                return startupFailed(e, err);
            }
            CountDownLatch stopped = new CountDownLatch(1);
            if (waitForSignal) {
                // Registered before start-up completes: a SIGTERM during start-up still stops what was started.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        A running = started.get(60, TimeUnit.SECONDS);
                        stopper.apply(running).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.ExecutionException e) {
                        // Start-up failed; it was reported and cleaned up by whoever failed it.
                    } catch (Exception e) {
                        err.println("error: clean shutdown did not finish: " + e);
                    } finally {
                        stopped.countDown();
                    }
                }, "shutdown"));
            }
            A app;
            try {
                app = started.get();
            } catch (Exception e) {
                Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
                return startupFailed(cause, err);
            }
            if (!waitForSignal) {
                stopper.apply(app);
                return 0;
            }
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 0;
        }

        /** Exit 2 when the operator has to change a setting (a taken port, a bad kubeconfig), 1 otherwise. */
        private static int startupFailed(Throwable cause, PrintStream err) {
            return InvalidConfigurationException.report(cause, "start-up failed", err);
        }
    }
}
