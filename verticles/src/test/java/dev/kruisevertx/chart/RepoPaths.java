package dev.kruisevertx.chart;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository root (the directory holding chart/ and crds/) from the module's working directory. */
final class RepoPaths {
    private RepoPaths() {
    }

    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isDirectory(dir.resolve("chart")) && Files.isDirectory(dir.resolve("crds"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no directory with chart/ and crds/ above " + Path.of("").toAbsolutePath());
    }
}
