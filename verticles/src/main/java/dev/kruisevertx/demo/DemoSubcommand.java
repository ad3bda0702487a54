package dev.kruisevertx.demo;

import dev.kruisevertx.cli.InvalidConfigurationException;
import picocli.CommandLine;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/** Runs {@code kruise-manager demo}: exit 0 when done (or on SIGTERM), 1 when stuck or broken, 2 on bad flags or settings. */
public final class DemoSubcommand {
    private final DemoCommand command = new DemoCommand();
    private final CommandLine commandLine = new CommandLine(command);

    public DemoSubcommand() {
        commandLine.setOverwrittenOptionsAllowed(true);
    }

    public CommandLine commandLine() {
        return commandLine;
    }

    public int run(PrintStream out, PrintStream err, boolean waitForSignal, java.util.function.BiConsumer<String, Integer> logging) {
        DemoOptions options;
        try {
            options = command.toOptions();
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        logging.accept(command.logFormat, command.verbosity);
        DemoRunner runner;
        try {
            runner = new DemoRunner(options, out);
        } catch (RuntimeException e) {
            err.println("error: demo failed: " + e.getMessage());
            return 1;
        }
        CountDownLatch stop = new CountDownLatch(1);
        // The JVM waits for shutdown hooks, not for main: on SIGINT/SIGTERM the clean shutdown (and the removal of
        // the run directory with the CA key) happens in the hook, whichever phase the demo is in.
        Thread hook = new Thread(() -> {
            try {
                runner.close();
            } catch (Exception e) {
                err.println("warning: demo shutdown: " + e.getMessage());
            } finally {
                stop.countDown();
            }
        }, "demo-shutdown");
        if (waitForSignal) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            runner.start();
            if (options.untilReady()) {
                boolean ready = runner.runSamples(options.timeout());
                if (!ready) {
                    err.println("error: demo: samples did not converge within " + options.timeout().toSeconds() + "s");
                }
                return ready ? 0 : 1;
            }
            if (!waitForSignal) {
                return 0;
            }
            Thread watcher = new Thread(() -> {
                try {
                    runner.runSamples(null);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "demo-progress");
            watcher.setDaemon(true);
            watcher.start();
            stop.await();
            return 0;
        } catch (Exception e) {
            // A setting the operator fixes (a taken --metrics-addr port, ...) exits 2, as the manager does.
            return InvalidConfigurationException.report(e, "demo failed", err);
        } finally {
            try {
                runner.close();
            } catch (Exception e) {
                err.println("warning: demo shutdown: " + e.getMessage());
            }
            if (waitForSignal) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // Shutting down already: the hook is running or has run.
                }
            }
        }
    }
}
