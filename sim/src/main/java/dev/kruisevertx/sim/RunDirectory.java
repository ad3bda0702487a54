package dev.kruisevertx.sim;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A private temporary directory owned by one run of this process (the demo's webhook certificates and CA key, the
 * simulated nodes' CRI sockets): owner-only (0700), removed by {@link #close()} on a clean exit, and, when the run
 * was killed, by the next run that creates a directory with the same prefix. An {@value #OWNER_FILE} file names the
 * owning process (pid and start time), so a later run removes only directories whose owner is gone, never a live
 * run's. Blocking file IO: call from a plain or worker thread.
 */
public final class RunDirectory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunDirectory.class);
    /** The marker naming the owning process. */
    public static final String OWNER_FILE = ".owner";
    /**
     * A directory without an owner file is a run that died between creating it and writing the file, once it is
     * this old; younger, it may be a run still starting.
     */
    static final Duration UNOWNED_GRACE = Duration.ofMinutes(10);
    private static final FileAttribute<?> OWNER_ONLY = PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------"));

    /** Whether a process that wrote an owner file is still running. */
    @FunctionalInterface
    public interface OwnerCheck {
        /** {@code startedAt} is null when the owner file did not record it. */
        boolean alive(long pid, Instant startedAt);

        /** The live processes of this machine, by pid and, where known, start time (a reused pid is not the owner). */
        OwnerCheck PROCESSES = (pid, startedAt) -> ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .map(h -> startedAt == null || h.info().startInstant()
                        .map(s -> Duration.between(s, startedAt).abs().compareTo(Duration.ofSeconds(2)) <= 0)
                        .orElse(true))
                .orElse(false);
    }

    private final Path path;
    private boolean closed;

    private RunDirectory(Path path) {
        this.path = path;
    }

    /** A new run directory {@code <java.io.tmpdir>/<prefix><random>}, after removing the dead runs' ones. */
    public static RunDirectory create(String prefix) {
        return create(Path.of(System.getProperty("java.io.tmpdir")), prefix, OwnerCheck.PROCESSES);
    }

    /** A new run directory {@code <parent>/<prefix><random>}, after removing those of {@code prefix} whose owner is gone. */
    public static RunDirectory create(Path parent, String prefix, OwnerCheck owners) {
        Path dir;
        try {
            dir = Files.createTempDirectory(parent, prefix, attributes(parent));
            ProcessHandle self = ProcessHandle.current();
            Properties owner = new Properties();
            owner.setProperty("pid", Long.toString(self.pid()));
            self.info().startInstant().ifPresent(s -> owner.setProperty("started", s.toString()));
            try (var out = Files.newBufferedWriter(dir.resolve(OWNER_FILE))) {
                owner.store(out, "the process that owns this directory; a later run removes it once that process is gone");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory under " + parent + ": " + e.getMessage(), e);
        }
        // After creating ours: its owner is this user, the only one whose leftovers are ours to remove.
        UserPrincipal me;
        try {
            me = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException e) {
            me = null;
        }
        removeStale(parent, prefix, owners, me);
        return new RunDirectory(dir);
    }

    public Path path() {
        return path;
    }

    /** Creates (if missing) an owner-only subdirectory. */
    public Path subdirectory(String name) {
        Path sub = path.resolve(name);
        try {
            if (!Files.isDirectory(sub)) {
                Files.createDirectory(sub, attributes(path));
            }
            return sub;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + sub + ": " + e.getMessage(), e);
        }
    }

    /** Removes the directory and everything in it; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            deleteTree(path);
        } catch (IOException e) {
            LOG.warn("could not remove {}: {}", path, e.getMessage());
        }
    }

    /**
     * Removes the directories {@code <parent>/<prefix>*} of user {@code me} (any user's when null, where the file
     * system has no owners) whose owner process is gone; returns them. A failure to remove one is a log line: a new
     * run is never stopped by an old run's leftovers.
     */
    static List<Path> removeStale(Path parent, String prefix, OwnerCheck owners, UserPrincipal me) {
        List<Path> removed = new ArrayList<>();
        if (!Files.isDirectory(parent)) {
            return removed;
        }
        try (DirectoryStream<Path> candidates = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path dir : candidates) {
                try {
                    if (stale(dir, me, owners)) {
                        deleteTree(dir);
                        removed.add(dir);
                        LOG.info("removed {}, left by an earlier run that did not exit cleanly", dir);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn("could not remove the leftover directory {}: {}", dir, e.getMessage());
                }
            }
        } catch (IOException e) {
            LOG.warn("could not look for leftover directories in {}: {}", parent, e.getMessage());
        }
        return removed;
    }

    private static boolean stale(Path dir, UserPrincipal me, OwnerCheck owners) throws IOException {
        // Never follow a link out of the temp directory, never touch another user's directory.
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        if (me != null && !me.equals(Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS))) {
            return false;
        }
        Path ownerFile = dir.resolve(OWNER_FILE);
        if (!Files.isRegularFile(ownerFile, LinkOption.NOFOLLOW_LINKS)) {
            Instant modified = Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).toInstant();
            return modified.isBefore(Instant.now().minus(UNOWNED_GRACE));
        }
        Properties owner = new Properties();
        try (var in = Files.newBufferedReader(ownerFile)) {
            owner.load(in);
        }
        long pid;
        try {
            pid = Long.parseLong(owner.getProperty("pid", "").trim());
        } catch (NumberFormatException e) {
            return false;
        }
        Instant started = null;
        String s = owner.getProperty("started");
        if (s != null) {
            try {
                started = Instant.parse(s.trim());
            } catch (DateTimeParseException e) {
                started = null;
            }
        }
        return !owners.alive(pid, started);
    }

    private static FileAttribute<?>[] attributes(Path where) throws IOException {
        return Files.getFileStore(where).supportsFileAttributeView("posix")
                ? new FileAttribute<?>[] {OWNER_ONLY} : new FileAttribute<?>[0];
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        // walkFileTree does not follow links: a link inside is removed, not what it points to.
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
