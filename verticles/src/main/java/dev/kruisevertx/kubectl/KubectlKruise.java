package dev.kruisevertx.kubectl;

import dev.kruisevertx.cli.GoDuration;
import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * {@code kubectl-kruise}: the kubectl plugin for kruise workloads ({@code rollout status|history|undo|pause|resume},
 * {@code set image}) plus {@code uninstall-check}, the Helm chart's pre-delete hook.
 *
 * <p>Exit codes: 0 success, 1 error (message on stderr), 2 bad command line.
 */
@Command(name = "kubectl-kruise", mixinStandardHelpOptions = true, version = "kubectl-kruise (kruise-vertx) 0.1.0",
        description = "kubectl plugin for OpenKruise workloads (CloneSet, Advanced StatefulSet).",
        subcommands = {KubectlKruise.Rollout.class, KubectlKruise.SetCommand.class, KubectlKruise.Why.class,
                KubectlKruise.UninstallCheckCommand.class})
public final class KubectlKruise {
    @Option(names = {"-n", "--namespace"}, description = "Namespace (default: the kubeconfig context's, else default).")
    String namespace;

    @Option(names = "--kubeconfig", paramLabel = "PATH", description = "Kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster).")
    Path kubeconfig;

    private Function<Path, KubernetesClient> clients;
    private PrintStream out;
    private PrintStream err;
    private KubernetesClient client;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, path -> KubeClients.create(path, 5, 10)));
    }

    /** Runs one command line; {@code clients} builds the API client from {@code --kubeconfig} (null when unset). */
    public static int run(String[] args, PrintStream out, PrintStream err, Function<Path, KubernetesClient> clients) {
        KubectlKruise root = new KubectlKruise();
        root.clients = clients;
        root.out = out;
        root.err = err;
        CommandLine cl = new CommandLine(root);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            if (e instanceof CliException || e instanceof io.fabric8.kubernetes.client.KubernetesClientException) {
                err.println("error: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            err.println("error: " + e.getMessage());
            err.println("See '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return 2;
        });
        try {
            return cl.execute(args);
        } finally {
            if (root.client != null) {
                root.client.close();
            }
        }
    }

    KubernetesClient client() {
        if (client == null) {
            try {
                client = clients.apply(kubeconfig);
            } catch (RuntimeException e) {
                throw new CliException("cannot build a Kubernetes client: " + e.getMessage());
            }
        }
        return client;
    }

    WorkloadClient workloads() {
        KubernetesClient c = client();
        String ns = namespace != null ? namespace : c.getNamespace() != null ? c.getNamespace() : "default";
        return new WorkloadClient(c, ns);
    }

    @Command(name = "rollout", mixinStandardHelpOptions = true, description = "Manage the rollout of a kruise workload.",
            subcommands = {Status.class, History.class, Undo.class, Pause.class, Resume.class})
    static final class Rollout extends CommandGroup {
        RolloutOperations operations() {
            return new RolloutOperations(root.workloads(), root.out);
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Show the status of the rollout; waits for it to finish unless --watch=false.")
    static final class Status extends RolloutSubcommand {
        @Option(names = {"-w", "--watch"}, arity = "0..1", defaultValue = "true", fallbackValue = "true",
                description = "Wait until the rollout finishes. Default: ${DEFAULT-VALUE}")
        boolean watch;
        @Option(names = "--timeout", defaultValue = "0s", description = "Give up after this long (e.g. 5m); 0 waits forever.")
        String timeout;

        @Override
        void run(WorkloadKinds.Target workload) throws InterruptedException {
            Duration limit;
            try {
                limit = GoDuration.parse(timeout);
            } catch (IllegalArgumentException e) {
                throw new CliException("--timeout: " + e.getMessage());
            }
            rollout.operations().status(workload, watch, limit, Duration.ofSeconds(1));
        }
    }

    @Command(name = "history", mixinStandardHelpOptions = true, description = "List the revisions of a workload, or show one with --revision.")
    static final class History extends RolloutSubcommand {
        @Option(names = "--revision", defaultValue = "0", description = "Show the pod template of this revision.")
        long revision;

        @Override
        void run(WorkloadKinds.Target workload) {
            rollout.operations().history(workload, revision);
        }
    }

    @Command(name = "undo", mixinStandardHelpOptions = true, description = "Roll back to the previous revision, or to --to-revision.")
    static final class Undo extends RolloutSubcommand {
        @Option(names = "--to-revision", defaultValue = "0", description = "Revision to roll back to (0: the previous one).")
        long toRevision;

        @Override
        void run(WorkloadKinds.Target workload) {
            if (toRevision < 0) {
                throw new CliException("--to-revision must not be negative");
            }
            rollout.operations().undo(workload, toRevision);
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true, description = "Pause the rollout (the update strategy's paused flag).")
    static final class Pause extends SetPaused {
        Pause() {
            super(true);
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused rollout.")
    static final class Resume extends SetPaused {
        Resume() {
            super(false);
        }
    }

    /** {@code rollout pause} and {@code rollout resume}: the update strategy's paused flag. */
    abstract static class SetPaused extends RolloutSubcommand {
        private final boolean paused;

        SetPaused(boolean paused) {
            this.paused = paused;
        }

        @Override
        void run(WorkloadKinds.Target workload) {
            rollout.operations().setPaused(workload, paused);
        }
    }

    /** A {@code rollout} subcommand on one workload, named {@code TYPE/NAME} or {@code TYPE NAME}. */
    abstract static class RolloutSubcommand implements Callable<Integer> {
        @ParentCommand
        Rollout rollout;
        @Parameters(arity = "1..2", paramLabel = "TYPE/NAME")
        List<String> target;

        @Override
        public Integer call() throws InterruptedException {
            run(WorkloadKinds.rolloutTarget(target));
            return 0;
        }

        abstract void run(WorkloadKinds.Target workload) throws InterruptedException;
    }

    @Command(name = "set", mixinStandardHelpOptions = true, description = "Change fields of a kruise workload.", subcommands = {SetImage.class})
    static final class SetCommand extends CommandGroup {
    }

    /** A command that only groups subcommands: run alone, it prints its usage and fails as a bad command line. */
    abstract static class CommandGroup implements Callable<Integer> {
        @ParentCommand
        KubectlKruise root;
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().usage(root.err);
            return 2;
        }
    }

    @Command(name = "image", mixinStandardHelpOptions = true, description = "Set container images: TYPE/NAME CONTAINER=IMAGE [CONTAINER=IMAGE...]; '*' means every container.")
    static final class SetImage implements Callable<Integer> {
        @ParentCommand
        SetCommand set;
        @Parameters(arity = "2..*", paramLabel = "ARG")
        List<String> words;

        @Override
        public Integer call() {
            List<String> target = new ArrayList<>();
            Map<String, String> images = new LinkedHashMap<>();
            for (String w : words) {
                int eq = w.indexOf('=');
                if (eq < 0) {
                    target.add(w);
                } else if (eq == 0 || eq == w.length() - 1) {
                    throw new CliException("expected CONTAINER=IMAGE, got \"" + w + "\"");
                } else if (images.put(w.substring(0, eq), w.substring(eq + 1)) != null) {
                    throw new CliException("container \"" + w.substring(0, eq) + "\" is given twice");
                }
            }
            new RolloutOperations(set.root.workloads(), set.root.out).setImage(WorkloadKinds.rolloutTarget(target), images);
            return 0;
        }
    }

    @Command(name = "why", mixinStandardHelpOptions = true, description = "Show what holds a workload back: the "
            + "reasons of its controller's last decision (partition, maxUnavailable, a hook, an unschedulable pod...), "
            + "asked of the manager through the API server's service proxy.")
    static final class Why implements Callable<Integer> {
        @ParentCommand
        KubectlKruise root;
        @Parameters(arity = "1..2", paramLabel = "TYPE/NAME")
        List<String> target;
        @Option(names = {"-o", "--output"}, description = "text (default) or json.")
        String output;
        @Option(names = "--manager-url", paramLabel = "URL", description = "Ask the manager at this URL (its metrics "
                + "listener, e.g. http://127.0.0.1:8080) instead of through the API server.")
        String managerUrl;
        @Option(names = "--manager-service", paramLabel = "NAMESPACE/NAME:PORT", defaultValue = WhyOperations.DEFAULT_SERVICE,
                description = "The manager's Service, reached through the API server's service proxy. Default: ${DEFAULT-VALUE}")
        String managerService;
        @Option(names = "--show-decision", description = "Also print the decision's summary, time and reconcile id.")
        boolean showDecision;

        @Override
        public Integer call() throws InterruptedException {
            WorkloadKinds.Target t = WorkloadKinds.target(target);
            new WhyOperations(root.client(), root.workloads(), root.out).why(t, output, managerUrl, managerService,
                    showDecision);
            return 0;
        }
    }

    @Command(name = "uninstall-check", mixinStandardHelpOptions = true, description = "Fail while CloneSets, Advanced StatefulSets or Advanced DaemonSets exist (Helm pre-delete hook).")
    static final class UninstallCheckCommand implements Callable<Integer> {
        @ParentCommand
        KubectlKruise root;

        @Override
        public Integer call() {
            return UninstallCheck.run(root.client(), root.out, root.err) ? 0 : 1;
        }
    }
}
