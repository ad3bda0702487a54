package dev.kruisevertx.reliability;

import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.manager.KruiseManagerMain;
import dev.kruisevertx.sim.EmbeddedCluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The manager as a process of its own ({@code java -cp <this JVM's class path> KruiseManagerMain manager}), pointed at
 * the embedded API server through a kubeconfig, so it can be killed with SIGKILL as a container runtime does: no
 * shutdown hook, no lease release, connections reset by the kernel. Its output goes to a file in {@code dir}.
 */
final class ManagerProcess {
    private static final String LEADING = "became leader of";

    private final Process process;
    private final Path log;

    private ManagerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts one; blocking file IO, call from a plain thread. {@code name} names its log and certificate files. */
    static ManagerProcess start(EmbeddedCluster cluster, Path dir, String name, List<String> flags) {
        try {
            Path kubeconfig = dir.resolve("kubeconfig");
            if (!Files.exists(kubeconfig)) {
                cluster.writeKubeconfig(kubeconfig);
            }
            Path certs = Files.createDirectories(dir.resolve(name + "-webhook-certs"));
            Path log = dir.resolve(name + ".log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    // A small, quickly started JVM: the manager's work here is a handful of pods.
                    "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-cp", System.getProperty("java.class.path"), KruiseManagerMain.class.getName(), "manager",
                    "--kubeconfig=" + kubeconfig, "--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0",
                    "--debug-addr=127.0.0.1:0", "--webhook-initialize-timeout=90s"));
            command.addAll(flags);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            Map<String, String> env = builder.environment();
            env.putAll(EmbeddedProduct.localWebhookEnv(Map.of(), certs));
            env.remove("KUBECONFIG");
            return new ManagerProcess(builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the manager process: " + e.getMessage(), e);
        }
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Whether it logged that it leads (it never stops leading in these runs before it is killed). */
    boolean leads() {
        return logText().contains(LEADING);
    }

    /** SIGKILL, and wait until it is gone. */
    void kill9() {
        process.destroyForcibly();
        waitGone(30);
    }

    /** SIGTERM (a clean stop that releases the lease), SIGKILL if it has not stopped within 30 s. */
    void stop() {
        process.destroy();
        if (!waitGone(30)) {
            kill9();
        }
    }

    private boolean waitGone(int seconds) {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The last lines it wrote, for a report of why it did not do what was expected. */
    String logTail(int lines) {
        List<String> all = logText().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    private String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    Path log() {
        return log;
    }
}
