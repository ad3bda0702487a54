package dev.kruisevertx.agent;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentOptionsTest {
    private static AgentOptions parse(Map<String, String> env, String... args) {
        return AgentOptions.parse(Arrays.asList(args), env);
    }

    @Test
    void defaultsNeedOnlyTheNodeNameFromTheEnvironment() {
        AgentOptions o = parse(Map.of("NODE_NAME", "node-a"));
        assertEquals("node-a", o.nodeName());
        assertNull(o.runtimeEndpoint());
        assertEquals(Path.of("/hostvarrun"), o.runtimeRoot());
        assertNull(o.kubeconfig());
        assertEquals("", o.addrHost());
        assertEquals(10221, o.addrPort());
        assertEquals("", o.featureGates());
        assertEquals(0.0, o.restConfigQps());
        assertEquals(0, o.restConfigBurst());
        assertTrue(o.ignored().isEmpty());
        assertEquals(-1, o.maxWorkersForPullImage(), "kruise-daemon's default: no limit");
    }

    @Test
    void flagsInBothSpellingsOverrideTheEnvironment() {
        AgentOptions o = parse(Map.of("NODE_NAME", "from-env"),
                "--node-name=from-flag", "--runtime-endpoint", "unix:///run/containerd/containerd.sock",
                "--kubeconfig=/etc/kube/config", "--addr", "127.0.0.1:9000",
                "--feature-gates=KruiseDaemon=true,ImagePulling=false", "--rest-config-qps=5.5", "--rest-config-burst", "10");
        assertEquals("from-flag", o.nodeName());
        assertEquals("unix:///run/containerd/containerd.sock", o.runtimeEndpoint());
        assertEquals(Path.of("/etc/kube/config"), o.kubeconfig());
        assertEquals("127.0.0.1", o.addrHost());
        assertEquals(9000, o.addrPort());
        assertEquals("KruiseDaemon=true,ImagePulling=false", o.featureGates());
        assertEquals(5.5, o.restConfigQps());
        assertEquals(10, o.restConfigBurst());
    }

    @Test
    void kruiseDaemonArgumentsAreAcceptedUnchanged() {
        // The args OpenKruise's chart gives kruise-daemon, so a swapped-in DaemonSet starts.
        AgentOptions o = parse(Map.of("NODE_NAME", "n1"), "--logtostderr=true", "-v=4", "--addr=:10221",
                "--feature-gates=PodProbeMarkerGate=true", "--socket-file=containerd/containerd.sock",
                "--pprof-addr=localhost:10222", "--enable-pprof", "--max-workers-for-pull-image=-1");
        assertEquals("containerd/containerd.sock", o.runtimeEndpoint());
        assertEquals(10221, o.addrPort());
        // --max-workers-for-pull-image is used (the image puller's worker limit), the others are only accepted.
        assertEquals(Map.of("logtostderr", "true", "v", "4", "pprof-addr", "localhost:10222", "enable-pprof", "true"),
                o.ignored());
        assertEquals(-1, o.maxWorkersForPullImage());
        assertEquals(4, parse(Map.of("NODE_NAME", "n1"), "--max-workers-for-pull-image", "4").maxWorkersForPullImage());
    }

    @Test
    void ipv6AddrIsUnbracketed() {
        AgentOptions o = parse(Map.of("NODE_NAME", "n"), "--addr=[::1]:8080");
        assertEquals("::1", o.addrHost());
        assertEquals(8080, o.addrPort());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "''                                  | the node name is required",
            "--node-name=                        | the node name is required",
            "--node-name=n --bogus=1             | unknown flag: --bogus=1",
            "--node-name=n --addr                | flag needs a value: --addr",
            "--node-name=n --addr=10221          | --addr must be [host]:port",
            "--node-name=n --addr=:http          | --addr: 'http' is not a number",
            "--node-name=n --addr=:70000         | --addr: 70000 is out of range 0..65535",
            "--node-name=n --rest-config-qps=x   | --rest-config-qps must be a number",
            "--node-name=n --rest-config-qps=-1  | --rest-config-qps must be >= 0",
            "--node-name=n --rest-config-burst=b | --rest-config-burst: 'b' is not a number",
            "--node-name=n --node-name=m         | flag given twice: --node-name",
            "--node-name=n stray                 | unexpected arguments: stray",
            "--node-name=n --enable-pprof=maybe  | --enable-pprof must be true or false",
            "--node-name=n --max-workers-for-pull-image=lots | --max-workers-for-pull-image: 'lots' is not a number",
            "--node-name=n --max-workers-for-pull-image=99999999999 | --max-workers-for-pull-image: '99999999999' is not a number",
            "--node-name=n --runtime-endpoint=tcp://1.2.3.4:1 | only unix sockets are supported",
            "--node-name=n --runtime-endpoint=x --socket-file=y | give one",
    })
    void badCommandLinesSayWhatIsWrong(String args, String message) {
        List<String> argv = args.isBlank() ? List.of() : List.of(args.trim().split(" +"));
        AgentOptions.BadFlagException e = assertThrows(AgentOptions.BadFlagException.class,
                () -> AgentOptions.parse(argv, Map.of()));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void helpIsItsOwnOutcome() {
        AgentOptions.HelpRequested help = assertThrows(AgentOptions.HelpRequested.class, () -> parse(Map.of(), "--help"));
        assertTrue(help.getMessage().contains("--runtime-endpoint"));
    }
}
