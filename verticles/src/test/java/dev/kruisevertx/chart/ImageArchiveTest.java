package dev.kruisevertx.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * hack/build-image.sh, on a small jar: the tar is an OCI layout and a docker-archive at once, its config runs the
 * jar as uid 65534 with the jlink runtime, the same inputs give the same bytes, and containerd imports it.
 * Runs with the images profile ({@code -Pimages}) or {@code KRUISE_IMAGE_TEST=true}: jlink takes a while.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ImageArchiveTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    static Path jar;
    static Path image;

    @BeforeAll
    static void build() throws Exception {
        assumeTrue(Boolean.getBoolean("kruise.images.test") || "true".equals(System.getenv("KRUISE_IMAGE_TEST")),
                "image build test skipped: run with -Pimages (or KRUISE_IMAGE_TEST=true)");
        jar = helloJar(tmp);
        image = buildImage(tmp.resolve("one/hello-image.tar"));
    }

    private static Path buildImage(Path out) throws Exception {
        ProcessRunner.Output r = ProcessRunner.run(RepoPaths.root(), List.of("bash", "hack/build-image.sh", "--jar",
                jar.toString(), "--name", "kruise-vertx/hello", "--tag", "9.9.9", "--cmd", "greet", "--out",
                out.toString()), 600);
        assertEquals(0, r.code(), r.err());
        return out;
    }

    @Test
    void archiveIsAnOciLayoutAndADockerArchive() throws Exception {
        Map<String, byte[]> files = TarReader.read(image);
        assertEquals("{\"imageLayoutVersion\":\"1.0.0\"}", new String(files.get("oci-layout"), StandardCharsets.UTF_8));

        JsonNode index = JSON.readTree(files.get("index.json"));
        JsonNode entry = index.path("manifests").get(0);
        assertEquals("docker.io/kruise-vertx/hello:9.9.9", entry.path("annotations").path("io.containerd.image.name").asText());
        assertEquals("amd64", entry.path("platform").path("architecture").asText());
        byte[] manifestBytes = blob(files, entry.path("digest").asText());
        assertEquals(entry.path("size").asLong(), manifestBytes.length);

        JsonNode manifest = JSON.readTree(manifestBytes);
        JsonNode config = JSON.readTree(blob(files, manifest.path("config").path("digest").asText()));
        assertEquals("65534:65534", config.path("config").path("User").asText());
        assertEquals(List.of("/opt/java/bin/java", "-XX:-UsePerfData", "-jar", "/app/hello.jar"),
                JSON.convertValue(config.path("config").path("Entrypoint"), List.class));
        assertEquals(List.of("greet"), JSON.convertValue(config.path("config").path("Cmd"), List.class));
        assertEquals("1970-01-01T00:00:00Z", config.path("created").asText());

        JsonNode layers = manifest.path("layers");
        assertEquals(2, layers.size());
        JsonNode docker = JSON.readTree(files.get("manifest.json")).get(0);
        assertEquals("kruise-vertx/hello:9.9.9", docker.path("RepoTags").get(0).asText());
        for (int i = 0; i < layers.size(); i++) {
            String digest = layers.get(i).path("digest").asText();
            byte[] layer = blob(files, digest);
            assertEquals(layers.get(i).path("size").asLong(), layer.length);
            // Uncompressed layers: the diff id is the layer digest.
            assertEquals(digest, config.path("rootfs").path("diff_ids").get(i).asText());
            assertEquals("blobs/sha256/" + digest.substring("sha256:".length()), docker.path("Layers").get(i).asText());
        }

        Map<String, byte[]> base = TarReader.read(blob(files, layers.get(0).path("digest").asText()));
        assertTrue(base.containsKey("opt/java/bin/java"), base.keySet().toString());
        assertTrue(base.containsKey("opt/java/lib/server/libjvm.so"));
        assertTrue(base.containsKey("opt/java/lib/modules"));
        assertTrue(base.containsKey("lib64/ld-linux-x86-64.so.2"));
        assertTrue(base.containsKey("lib/x86_64-linux-gnu/libc.so.6"));
        assertTrue(base.containsKey("lib/x86_64-linux-gnu/libz.so.1"));
        assertTrue(new String(base.get("etc/passwd"), StandardCharsets.UTF_8).contains("nobody:x:65534:65534:"));
        Map<String, byte[]> app = TarReader.read(blob(files, layers.get(1).path("digest").asText()));
        assertArrayEquals(Files.readAllBytes(jar), app.get("app/hello.jar"));
    }

    @Test
    void sameInputsGiveTheSameBytes() throws Exception {
        Path second = buildImage(tmp.resolve("two/hello-image.tar"));
        assertEquals(sha256(Files.readAllBytes(image)), sha256(Files.readAllBytes(second)));
    }

    @Test
    void containerdImportsAndRunsIt() throws Exception {
        Path ctr = Path.of("/usr/bin/ctr");
        // CI's containerd (node-agent/src/test/scripts/cri-setup.sh) announces itself in KRUISE_CRI_ENDPOINT.
        String endpoint = System.getenv().getOrDefault("KRUISE_CRI_ENDPOINT", "unix:///run/containerd/containerd.sock");
        String socket = endpoint.startsWith("unix://") ? endpoint.substring("unix://".length()) : endpoint;
        assumeTrue(Files.isExecutable(ctr) && Files.exists(Path.of(socket)),
                "containerd is not running here (no " + socket + "): ctr import not checked");
        String ns = "kruise-image-test";
        try {
            ProcessRunner.Output imported = ProcessRunner.run(tmp, List.of(ctr.toString(), "--address", socket, "-n", ns, "images", "import",
                    image.toString()), 300);
            assertEquals(0, imported.code(), imported.err());
            ProcessRunner.Output run = ProcessRunner.run(tmp, List.of(ctr.toString(), "--address", socket, "-n", ns, "run", "--rm",
                    "docker.io/kruise-vertx/hello:9.9.9", "kruise-image-test-" + ProcessHandle.current().pid()), 300);
            assertEquals(0, run.code(), run.err());
            assertEquals("hello greet from uid 65534", run.out().strip());
        } finally {
            ProcessRunner.run(tmp, List.of(ctr.toString(), "--address", socket, "-n", ns, "images", "rm", "docker.io/kruise-vertx/hello:9.9.9"), 120);
        }
    }

    private static byte[] blob(Map<String, byte[]> files, String digest) throws Exception {
        String hex = digest.substring("sha256:".length());
        byte[] b = files.get("blobs/sha256/" + hex);
        assertTrue(b != null, "missing blob " + digest);
        assertEquals(hex, sha256(b), "blob content does not match its digest");
        return b;
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    /** A jar whose main prints its arguments and uid, compiled here so the test needs no build output. */
    private static Path helloJar(Path dir) throws IOException {
        Path src = dir.resolve("src/hello/Hello.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                package hello;
                public class Hello {
                    public static void main(String[] args) throws Exception {
                        Object uid = java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid");
                        System.out.println("hello " + String.join(" ", args) + " from uid " + uid);
                    }
                }
                """);
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "cannot compile the test app");
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "hello.Hello");
        Path jarFile = dir.resolve("hello.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jarFile), mf)) {
            JarEntry e = new JarEntry("hello/Hello.class");
            e.setTime(0);
            out.putNextEntry(e);
            out.write(Files.readAllBytes(classes.resolve("hello/Hello.class")));
            out.closeEntry();
        }
        return jarFile;
    }

    /** Minimal reader of the ustar/GNU tars the script writes (regular files only). */
    static final class TarReader {
        static Map<String, byte[]> read(Path tar) throws IOException {
            try (InputStream in = Files.newInputStream(tar)) {
                return read(in.readAllBytes());
            }
        }

        static Map<String, byte[]> read(byte[] tar) {
            Map<String, byte[]> files = new HashMap<>();
            int pos = 0;
            String longName = null;
            while (pos + 512 <= tar.length) {
                if (tar[pos] == 0) {
                    break;
                }
                String name = field(tar, pos, 100);
                long size = Long.parseLong(field(tar, pos + 124, 12).trim(), 8);
                char type = (char) tar[pos + 156];
                String prefix = field(tar, pos + 345, 155);
                int data = pos + 512;
                if (type == 'L') {
                    longName = new String(tar, data, (int) size, StandardCharsets.UTF_8).replace("\0", "");
                } else {
                    String full = longName != null ? longName : prefix.isEmpty() ? name : prefix + "/" + name;
                    longName = null;
                    if (type == '0' || type == 0) {
                        byte[] content = new byte[(int) size];
                        System.arraycopy(tar, data, content, 0, (int) size);
                        files.put(full.startsWith("./") ? full.substring(2) : full, content);
                    }
                }
                pos = data + (int) ((size + 511) / 512 * 512);
            }
            return files;
        }

        private static String field(byte[] b, int off, int len) {
            int end = off;
            while (end < off + len && b[end] != 0) {
                end++;
            }
            return new String(b, off, end - off, StandardCharsets.US_ASCII);
        }
    }
}
