package dev.kruisevertx.kube;

import dev.kruisevertx.cli.InvalidConfigurationException;
import io.fabric8.kubernetes.client.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way a kubeconfig can be unusable gets a message naming the file and the problem, never a stack trace. */
class KubeconfigFileTest {
    private static final String VALID = """
            apiVersion: v1
            kind: Config
            clusters: [{name: c, cluster: {server: "https://10.0.0.1:6443"}}]
            users: [{name: u, user: {token: t}}]
            contexts: [{name: x, context: {cluster: c, user: u, namespace: team-a}}]
            current-context: x
            """;

    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, text);
        return file;
    }

    private String problem(Path file) {
        return assertThrows(InvalidConfigurationException.class, () -> KubeconfigFile.load(file)).getMessage();
    }

    @Test
    void aValidFileGivesItsServerAndNamespace() throws IOException {
        Config config = KubeconfigFile.load(write(VALID));
        assertEquals("https://10.0.0.1:6443/", config.getMasterUrl());
        assertEquals("team-a", config.getNamespace());
    }

    @Test
    void devNullIsAnEmptyFile() {
        // What the issue reported: fabric8 answered with "Cannot invoke ... because kubeconfigs[i] is null".
        String message = problem(Path.of("/dev/null"));
        assertTrue(message.startsWith("--kubeconfig /dev/null: the file is empty"), message);
    }

    @Test
    void eachProblemIsNamed() throws IOException {
        assertEquals("--kubeconfig " + dir.resolve("kubeconfig") + ": the file is empty; a kubeconfig needs clusters, "
                + "users, contexts and a current-context", problem(write("  \n\n")));
        assertEquals("--kubeconfig " + dir.resolve("absent") + ": no such file", problem(dir.resolve("absent")));
        assertTrue(problem(dir).endsWith(": is a directory, not a kubeconfig file"), problem(dir));
        assertTrue(problem(write("# only a comment\n")).contains(": the file has no content"));

        String noContexts = problem(write("apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: https://x}}]\n"));
        assertTrue(noContexts.contains(dir.resolve("kubeconfig") + ": has no contexts"), noContexts);

        String badYaml = problem(write("clusters: [\n"));
        assertTrue(badYaml.contains(": not a kubeconfig: invalid YAML: "), badYaml);
        assertTrue(badYaml.contains("(line "), badYaml);
        assertTrue(problem(write("- a\n- b\n")).contains(": not a kubeconfig: expected a YAML mapping"));
        assertTrue(problem(write("hello\n")).contains(": not a kubeconfig: expected a YAML mapping"));
        assertTrue(problem(write(VALID.replace("kind: Config", "kind: Pod"))).endsWith("kind is \"Pod\", expected \"Config\""));

        assertTrue(problem(write(VALID.replace("current-context: x", ""))).endsWith("current-context is not set (contexts: \"x\")"));
        assertTrue(problem(write(VALID.replace("current-context: x", "current-context: y")))
                .endsWith("current-context \"y\" is not one of its contexts (\"x\")"));
        assertTrue(problem(write(VALID.replace("cluster: c, user", "cluster: c2, user")))
                .endsWith("context \"x\" names cluster \"c2\", which is not one of its clusters (\"c\")"));
        assertTrue(problem(write(VALID.replace("{server: \"https://10.0.0.1:6443\"}", "{}")))
                .endsWith("cluster \"c\" has no server"));
        assertTrue(problem(write(VALID.replace("user: u,", "user: v,")))
                .endsWith("context \"x\" names user \"v\", which is not one of its users (\"u\")"));
    }

    @Test
    void aContextWithoutAUserIsAnonymousAccess() throws IOException {
        Config config = KubeconfigFile.load(write(VALID.replace("cluster: c, user: u,", "cluster: c,")));
        assertEquals("https://10.0.0.1:6443/", config.getMasterUrl());
    }

    @Test
    void theClientFactoryUsesTheseChecks() {
        String message = assertThrows(InvalidConfigurationException.class,
                () -> KubeClients.create(Path.of("/dev/null"), 30, 50)).getMessage();
        assertTrue(message.startsWith("--kubeconfig /dev/null: the file is empty"), message);
    }
}
