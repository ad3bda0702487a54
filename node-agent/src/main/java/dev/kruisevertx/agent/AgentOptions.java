package dev.kruisevertx.agent;

import dev.kruisevertx.agent.cri.CriEndpoint;
import dev.kruisevertx.agent.cri.RuntimeDiscovery;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The node agent's command line, parsed and checked. Flag names follow OpenKruise's kruise-daemon so its
 * DaemonSet arguments work unchanged; flags the agent does not use yet (pprof, credential plugins) are
 * accepted and kept so a swapped-in DaemonSet starts.
 *
 * @param nodeName        the node this agent serves ({@code --node-name} or {@code NODE_NAME}); required
 * @param runtimeEndpoint the CRI socket ({@code --runtime-endpoint}, or kruise-daemon's {@code --socket-file}
 *                        relative to the runtime root); null to discover
 * @param runtimeRoot     where the host's /var/run is mounted ({@code --runtime-root}, default /hostvarrun)
 * @param kubeconfig      {@code --kubeconfig}; null for in-cluster or the usual discovery
 * @param addrHost        host part of {@code --addr} (empty = all interfaces)
 * @param addrPort        port of {@code --addr}, serving /metrics and /healthz
 * @param featureGates    {@code --feature-gates} exactly as given ("" if absent)
 * @param restConfigQps   {@code --rest-config-qps} (0 = client default)
 * @param restConfigBurst {@code --rest-config-burst} (0 = client default)
 * @param ignored         accepted kruise-daemon flags the agent does not act on, with their values
 * @param maxWorkersForPullImage {@code --max-workers-for-pull-image}: image pulls at once (0 or less, the default
 *                        -1: no limit, as kruise-daemon)
 */
public record AgentOptions(String nodeName, String runtimeEndpoint, Path runtimeRoot, Path kubeconfig,
                           String addrHost, int addrPort, String featureGates, double restConfigQps,
                           int restConfigBurst, Map<String, String> ignored, int maxWorkersForPullImage) {

    public static final String DEFAULT_ADDR = ":10221";

    private static final Set<String> BOOLEAN_FLAGS = Set.of("enable-pprof", "logtostderr", "alsologtostderr", "help", "h");
    /** kruise-daemon flags that are accepted and recorded but not acted on. */
    private static final Set<String> COMPAT_FLAGS = Set.of("pprof-addr", "enable-pprof", "plugin-config-file",
            "plugin-bin-dir", "logtostderr", "alsologtostderr", "v", "log-dir",
            "stderrthreshold", "vmodule");
    private static final Set<String> KNOWN = Set.of("node-name", "runtime-endpoint", "socket-file", "runtime-root",
            "kubeconfig", "addr", "feature-gates", "rest-config-qps", "rest-config-burst", "help", "h",
            "max-workers-for-pull-image");

    public static final String USAGE = String.join("\n",
            "Usage: java -jar kruise-node-agent.jar [flags]",
            "  --node-name NAME          node this agent serves (default: $NODE_NAME; required)",
            "  --runtime-endpoint EP     CRI socket: unix:///path, /path, or a path under --runtime-root",
            "                            (default: discover containerd, CRI-O or cri-dockerd under --runtime-root)",
            "  --socket-file PATH        kruise-daemon's name for --runtime-endpoint",
            "  --runtime-root DIR        where the host's /var/run is mounted (default /hostvarrun)",
            "  --kubeconfig FILE         kubeconfig (default: in-cluster config, $KUBECONFIG, ~/.kube/config)",
            "  --addr [HOST]:PORT        serves /metrics and /healthz (default :10221)",
            "  --feature-gates A=true,.. feature gates",
            "  --rest-config-qps N, --rest-config-burst N   API client limits (0: defaults)",
            "  --max-workers-for-pull-image N   image pulls at once (default -1: no limit)",
            "  Accepted for kruise-daemon compatibility, not used: --pprof-addr --enable-pprof --plugin-config-file",
            "  --plugin-bin-dir --logtostderr -v");

    /** Thrown for a bad command line; the message says what is wrong and is meant for the user. */
    public static final class BadFlagException extends IllegalArgumentException {
        public BadFlagException(String message) {
            super(message);
        }
    }

    /** Thrown for {@code --help}. */
    public static final class HelpRequested extends RuntimeException {
        public HelpRequested() {
            super(USAGE, null, false, false);
        }
    }

    public static AgentOptions parse(List<String> args, Map<String, String> env) {
        Map<String, String> flags = new LinkedHashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("-") || arg.equals("-") || arg.equals("--")) {
                positional.add(arg);
                continue;
            }
            String body = arg.startsWith("--") ? arg.substring(2) : arg.substring(1);
            String name = body;
            String value = null;
            int eq = body.indexOf('=');
            if (eq >= 0) {
                name = body.substring(0, eq);
                value = body.substring(eq + 1);
            }
            if (name.isEmpty()) {
                throw new BadFlagException("bad flag syntax: " + arg);
            }
            if (!KNOWN.contains(name) && !COMPAT_FLAGS.contains(name)) {
                throw new BadFlagException("unknown flag: " + arg + " (see --help)");
            }
            if (value == null) {
                if (BOOLEAN_FLAGS.contains(name)) {
                    value = "true";
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new BadFlagException("flag needs a value: " + arg);
                }
            }
            if (flags.put(name, value) != null) {
                throw new BadFlagException("flag given twice: --" + name);
            }
        }
        if (!positional.isEmpty()) {
            throw new BadFlagException("unexpected arguments: " + String.join(" ", positional));
        }
        if (flags.containsKey("help") || flags.containsKey("h")) {
            throw new HelpRequested();
        }

        String nodeName = flags.getOrDefault("node-name", env.get("NODE_NAME"));
        if (nodeName == null || nodeName.isBlank()) {
            throw new BadFlagException("the node name is required: set NODE_NAME or pass --node-name");
        }
        if (flags.containsKey("runtime-endpoint") && flags.containsKey("socket-file")) {
            throw new BadFlagException("--runtime-endpoint and --socket-file name the same thing; give one");
        }
        String endpoint = flags.containsKey("runtime-endpoint") ? flags.get("runtime-endpoint") : flags.get("socket-file");
        if (endpoint != null && endpoint.isBlank()) {
            endpoint = null;
        }
        if (endpoint != null && (endpoint.contains("://") || endpoint.startsWith("/"))) {
            try {
                CriEndpoint.parse(endpoint);
            } catch (IllegalArgumentException e) {
                throw new BadFlagException("--runtime-endpoint: " + e.getMessage());
            }
        }
        Path root = Path.of(flags.getOrDefault("runtime-root", RuntimeDiscovery.DEFAULT_ROOT.toString()));
        String kubeconfigText = flags.get("kubeconfig");
        Path kubeconfig = kubeconfigText == null || kubeconfigText.isBlank() ? null : Path.of(kubeconfigText);

        String addr = flags.getOrDefault("addr", DEFAULT_ADDR);
        int colon = addr.lastIndexOf(':');
        if (colon < 0) {
            throw new BadFlagException("--addr must be [host]:port, got '" + addr + "'");
        }
        String host = addr.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = intFlag("addr", addr.substring(colon + 1), 0, 65535);

        double qps;
        try {
            qps = Double.parseDouble(flags.getOrDefault("rest-config-qps", "0"));
        } catch (NumberFormatException e) {
            throw new BadFlagException("--rest-config-qps must be a number, got '" + flags.get("rest-config-qps") + "'");
        }
        if (qps < 0 || Double.isNaN(qps) || Double.isInfinite(qps)) {
            throw new BadFlagException("--rest-config-qps must be >= 0, got " + flags.get("rest-config-qps"));
        }
        int burst = intFlag("rest-config-burst", flags.getOrDefault("rest-config-burst", "0"), 0, Integer.MAX_VALUE);
        int pullWorkers = intFlag("max-workers-for-pull-image", flags.getOrDefault("max-workers-for-pull-image", "-1"),
                Integer.MIN_VALUE, Integer.MAX_VALUE);

        Map<String, String> ignored = new LinkedHashMap<>();
        flags.forEach((k, v) -> {
            if (COMPAT_FLAGS.contains(k)) {
                ignored.put(k, v);
            }
        });
        if (ignored.containsKey("enable-pprof")) {
            String v = ignored.get("enable-pprof");
            if (!v.equals("true") && !v.equals("false")) {
                throw new BadFlagException("--enable-pprof must be true or false, got '" + v + "'");
            }
        }
        return new AgentOptions(nodeName.trim(), endpoint, root, kubeconfig, host, port,
                flags.getOrDefault("feature-gates", ""), qps, burst, Map.copyOf(ignored), pullWorkers);
    }

    private static int intFlag(String name, String text, int min, int max) {
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new BadFlagException("--" + name + ": '" + text + "' is not a number");
        }
        if (value < min || value > max) {
            throw new BadFlagException("--" + name + ": " + value + " is out of range " + min + ".." + max);
        }
        return value;
    }
}
