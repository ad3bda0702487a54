package dev.kruisevertx.demo;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimNodesSubcommandTest {
    @Test
    void registersSimulatedNodesOnAnyApiServerThroughAKubeconfig(@TempDir Path dir) {
        try (ClusterFixture fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0))) {
            Path kubeconfig = dir.resolve("kubeconfig");
            fixture.cluster().writeKubeconfig(kubeconfig);
            SimNodesSubcommand command = new SimNodesSubcommand();
            new CommandLine(command).parseArgs("--kubeconfig=" + kubeconfig, "--nodes=2", "--name-prefix=edge-");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = command.run(new PrintStream(out, true, StandardCharsets.UTF_8), System.err, false);
            assertEquals(0, code);
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("edge-"), out.toString(StandardCharsets.UTF_8));
            List<String> nodes = fixture.client().nodes().list().getItems().stream()
                    .map(n -> n.getMetadata().getName()).sorted().toList();
            assertEquals(2, nodes.size(), nodes.toString());
            assertTrue(nodes.stream().allMatch(n -> n.startsWith("edge-")), nodes.toString());
            // Each node also got a simulated container runtime for its node agent (the CRD is absent here, so the
            // agents would keep waiting for it).
            String printed = out.toString(StandardCharsets.UTF_8);
            assertTrue(printed.contains("CRI sockets under"), printed);
            String socketsLine = printed.lines().filter(l -> l.contains("CRI sockets under ")).findFirst().orElseThrow();
            Path sockets = Path.of(socketsLine.substring(socketsLine.indexOf("CRI sockets under ") + "CRI sockets under ".length()).trim());
            assertFalse(java.nio.file.Files.exists(sockets), "the CRI socket directory is removed on exit");
        }
    }

    @Test
    void builtInControllersRunOnlyWhenAsked(@TempDir Path dir) {
        try (ClusterFixture fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setBuiltinControllers(false))) {
            Path kubeconfig = dir.resolve("kubeconfig");
            fixture.cluster().writeKubeconfig(kubeconfig);
            for (boolean on : new boolean[]{false, true}) {
                SimNodesSubcommand command = new SimNodesSubcommand();
                List<String> args = new java.util.ArrayList<>(List.of("--kubeconfig=" + kubeconfig, "--nodes=1",
                        "--name-prefix=c" + on + "-", "--node-agents=false"));
                if (on) {
                    args.add("--builtin-controllers");
                }
                new CommandLine(command).parseArgs(args.toArray(String[]::new));
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                assertEquals(0, command.run(new PrintStream(out, true, StandardCharsets.UTF_8), System.err, false));
                String printed = out.toString(StandardCharsets.UTF_8);
                assertEquals(on, printed.contains("built-in controllers running"), printed);
            }
        }
    }

    @Test
    void rejectsAZeroNodeCount() {
        SimNodesSubcommand command = new SimNodesSubcommand();
        new CommandLine(command).parseArgs("--nodes=0");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, command.run(System.out, new PrintStream(err, true, StandardCharsets.UTF_8), false));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--nodes must be at least 1"));
    }

    @Test
    void anUnusableKubeconfigIsNamedAndExitsTwo(@TempDir Path dir) throws Exception {
        Path empty = java.nio.file.Files.createFile(dir.resolve("kubeconfig"));
        SimNodesSubcommand command = new SimNodesSubcommand();
        new CommandLine(command).parseArgs("--kubeconfig=" + empty, "--node-agents=false");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, command.run(System.out, new PrintStream(err, true, StandardCharsets.UTF_8), false));
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith("error: --kubeconfig " + empty + ": the file is empty"), message);
    }
}
