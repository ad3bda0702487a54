package dev.kruisevertx.kubectl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The workload kinds the plugin knows. CloneSet, Advanced StatefulSet and Advanced DaemonSet are built in; later workloads add
 * themselves with {@link #register(WorkloadKind)}.
 */
public final class WorkloadKinds {
    private static final List<WorkloadKind> KINDS = new CopyOnWriteArrayList<>(List.of(
            ReplicatedWorkloadKind.cloneSet(), ReplicatedWorkloadKind.advancedStatefulSet(), new DaemonSetWorkloadKind()));

    static {
        register(new BroadcastJobWorkloadKind());
        register(new AdvancedCronJobWorkloadKind());
        register(new PodUnavailableBudgetWorkloadKind());
        register(new SidecarSetWorkloadKind());
        register(new WorkloadSpreadWorkloadKind());
        register(new UnitedDeploymentWorkloadKind());
        register(new PodProbeMarkerWorkloadKind());
        register(new EphemeralJobWorkloadKind());
    }

    /** Upstream kinds people may type by habit; the error points them to kubectl itself. */
    private static final Map<String, String> UPSTREAM = Map.of(
            "deployment", "Deployment", "deployments", "Deployment", "deploy", "Deployment",
            "statefulset", "StatefulSet", "statefulsets", "StatefulSet", "sts", "StatefulSet",
            "daemonset", "DaemonSet", "daemonsets", "DaemonSet", "ds", "DaemonSet");

    private WorkloadKinds() {
    }

    public static void register(WorkloadKind kind) {
        for (WorkloadKind k : KINDS) {
            for (String alias : kind.aliases()) {
                if (k.aliases().contains(alias)) {
                    throw new IllegalArgumentException("alias \"" + alias + "\" is already used by " + k.kind());
                }
            }
        }
        KINDS.add(kind);
    }

    public static List<WorkloadKind> all() {
        return List.copyOf(KINDS);
    }

    /** The kind a command-line type names, or a CliException listing what is supported. */
    public static WorkloadKind resolve(String type) {
        String t = type.toLowerCase(Locale.ROOT);
        for (WorkloadKind k : KINDS) {
            if (k.aliases().contains(t)) {
                return k;
            }
        }
        String supported = KINDS.stream().map(k -> k.aliases().get(0) + " (" + k.kind() + ")")
                .collect(Collectors.joining(", "));
        if (UPSTREAM.containsKey(t)) {
            throw new CliException("\"" + type + "\" means the built-in apps/v1 " + UPSTREAM.get(t)
                    + "; use 'kubectl rollout' for it. kubectl-kruise handles: " + supported
                    + " (Advanced StatefulSet is 'asts' or 'statefulset.apps.kruise.io', Advanced DaemonSet 'ads' or "
                    + "'daemonset.apps.kruise.io')");
        }
        throw new CliException("unknown workload type \"" + type + "\"; kubectl-kruise handles: " + supported);
    }

    /** Parses {@code TYPE/NAME} or {@code TYPE NAME}; returns kind and name. */
    public static Target target(List<String> words) {
        List<String> w = new ArrayList<>(words);
        if (w.size() == 1 && w.get(0).contains("/")) {
            String s = w.get(0);
            int slash = s.indexOf('/');
            String type = s.substring(0, slash);
            String name = s.substring(slash + 1);
            if (type.isEmpty() || name.isEmpty() || name.contains("/")) {
                throw new CliException("expected TYPE/NAME, got \"" + s + "\"");
            }
            return new Target(resolve(type), name);
        }
        if (w.size() == 2 && !w.get(0).contains("/") && !w.get(1).contains("/")) {
            return new Target(resolve(w.get(0)), w.get(1));
        }
        if (w.isEmpty()) {
            throw new CliException("a workload is required: TYPE/NAME or TYPE NAME, e.g. cloneset/sample");
        }
        throw new CliException("expected one workload as TYPE/NAME or TYPE NAME, got \"" + String.join(" ", w) + "\"");
    }

    /** As {@link #target}, for the rollout and set commands: a kind without a rollout is refused. */
    public static Target rolloutTarget(List<String> words) {
        Target t = target(words);
        if (!t.kind().rollsOut()) {
            throw new CliException(t.kind().kind() + " has no rollout; 'kubectl kruise why " + t.kind().aliases().get(0)
                    + "/" + t.name() + "' shows its state");
        }
        return t;
    }

    /** A workload named on the command line. */
    public record Target(WorkloadKind kind, String name) {
        public String displayName() {
            return kind.displayName(name);
        }
    }
}
