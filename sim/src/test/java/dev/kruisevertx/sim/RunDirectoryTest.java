package dev.kruisevertx.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunDirectoryTest {
    static final String PREFIX = "kruise-test-run-";

    /** Writes the owner file a run with {@code pid} (started at {@code started}, or unrecorded) would have written. */
    static Path leftover(Path parent, String name, long pid, Instant started) throws IOException {
        Path dir = Files.createDirectory(parent.resolve(name));
        Files.writeString(dir.resolve(RunDirectory.OWNER_FILE), "pid=" + pid + "\n"
                + (started == null ? "" : "started=" + started + "\n"));
        Files.writeString(dir.resolve("ca-key.pem"), "secret");
        Files.createDirectories(dir.resolve("cri/node-0"));
        return dir;
    }

    @Test
    void aRunDirectoryIsOwnerOnlyNamesItsProcessAndIsGoneAfterClose(@TempDir Path parent) throws IOException {
        RunDirectory run = RunDirectory.create(parent, PREFIX, RunDirectory.OwnerCheck.PROCESSES);
        Path dir = run.path();
        assertTrue(dir.getFileName().toString().startsWith(PREFIX), dir.toString());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        Path certs = run.subdirectory("webhook-certs");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(certs)));
        Files.writeString(certs.resolve("ca-key.pem"), "secret");
        assertTrue(Files.readString(dir.resolve(RunDirectory.OWNER_FILE)).contains("pid=" + ProcessHandle.current().pid()));

        run.close();
        assertFalse(Files.exists(dir));
        run.close();
    }

    @Test
    void theNextRunRemovesDeadRunsDirectoriesAndKeepsLiveOnes(@TempDir Path parent) throws IOException {
        Set<Long> dead = ConcurrentHashMap.newKeySet();
        dead.add(111L);
        RunDirectory.OwnerCheck owners = (pid, started) -> !dead.contains(pid);
        Path killed = leftover(parent, PREFIX + "killed", 111, null);
        Path live = leftover(parent, PREFIX + "live", 222, null);
        Path otherTool = leftover(parent, "other-tool-run-1", 111, null);

        RunDirectory run = RunDirectory.create(parent, PREFIX, owners);
        try {
            assertFalse(Files.exists(killed), "the killed run's directory, CA key and sockets are removed");
            assertTrue(Files.exists(live.resolve("ca-key.pem")), "a live run's directory stays");
            assertTrue(Files.exists(otherTool), "only this prefix is looked at");
            assertTrue(Files.exists(run.path()));
        } finally {
            run.close();
        }
    }

    @Test
    void ownersAreRealProcessesAndAReusedPidIsNotTheOwner(@TempDir Path parent) throws Exception {
        ProcessHandle self = ProcessHandle.current();
        Instant selfStarted = self.info().startInstant().orElseThrow();
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        Path mine = leftover(parent, PREFIX + "mine", self.pid(), selfStarted);
        Path mineUnrecordedStart = leftover(parent, PREFIX + "mine-no-start", self.pid(), null);
        Path gone = leftover(parent, PREFIX + "gone", exited.pid(), null);
        Path reused = leftover(parent, PREFIX + "reused", self.pid(), selfStarted.minusSeconds(3600));

        List<Path> removed = RunDirectory.removeStale(parent, PREFIX, RunDirectory.OwnerCheck.PROCESSES,
                Files.getOwner(parent));
        assertEquals(Set.of(gone, reused), Set.copyOf(removed));
        assertTrue(Files.exists(mine));
        assertTrue(Files.exists(mineUnrecordedStart));
    }

    @Test
    void aDirectoryWithoutOwnerFileIsRemovedOnlyOnceOld(@TempDir Path parent) throws IOException {
        Path starting = Files.createDirectory(parent.resolve(PREFIX + "starting"));
        Path abandoned = Files.createDirectory(parent.resolve(PREFIX + "abandoned"));
        Files.setLastModifiedTime(abandoned, FileTime.from(Instant.now().minus(RunDirectory.UNOWNED_GRACE).minusSeconds(60)));

        RunDirectory.removeStale(parent, PREFIX, (pid, started) -> false, Files.getOwner(parent));
        assertTrue(Files.exists(starting), "may be a run that has not written its owner file yet");
        assertFalse(Files.exists(abandoned));
    }

    @Test
    void linksAreNeverFollowed(@TempDir Path parent, @TempDir Path elsewhere) throws IOException {
        Path target = leftover(elsewhere, "precious", 111, null);
        Path link = Files.createSymbolicLink(parent.resolve(PREFIX + "link"), target);

        RunDirectory.removeStale(parent, PREFIX, (pid, started) -> false, Files.getOwner(parent));
        assertTrue(Files.exists(target.resolve("ca-key.pem")), "what a link points to is not touched");
        assertTrue(Files.isSymbolicLink(link));
    }
}
