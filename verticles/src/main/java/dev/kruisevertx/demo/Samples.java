package dev.kruisevertx.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The YAML the demo applies: the built-in samples (listed in {@code samples/index.txt}) or a user's folder. */
final class Samples {
    record Sample(String source, String yaml) {
    }

    private Samples() {
    }

    static List<Sample> load(Path dir) {
        return dir == null ? builtIn() : fromDirectory(dir);
    }

    private static List<Sample> builtIn() {
        List<Sample> out = new ArrayList<>();
        for (String line : read("samples/index.txt").split("\n")) {
            String name = line.trim();
            if (!name.isEmpty() && !name.startsWith("#")) {
                out.add(new Sample("samples/" + name, read("samples/" + name)));
            }
        }
        return out;
    }

    private static List<Sample> fromDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--samples: " + dir + " is not a directory");
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Sample> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList()) {
                out.add(new Sample(f.toString(), Files.readString(f)));
            }
            if (out.isEmpty()) {
                throw new IllegalArgumentException("--samples: no .yaml files in " + dir);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read samples from " + dir, e);
        }
    }

    private static String read(String resource) {
        try (InputStream in = Samples.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("built-in sample " + resource + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
