package dev.kruisevertx.kube;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KubeExecutorTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void callsRunOffTheEventLoopAndWritesAreFencedByLeadership() throws Exception {
        AtomicBoolean leader = new AtomicBoolean(true);
        KubeExecutor kube = new KubeExecutor(vertx, "test-pool", 2, leader::get);
        String thread = kube.call(() -> Thread.currentThread().getName()).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        assertTrue(thread.startsWith("test-pool"), thread);
        assertEquals("written", kube.write(() -> "written").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));

        leader.set(false);
        AtomicBoolean ran = new AtomicBoolean();
        ExecutionException e = assertThrows(ExecutionException.class, () -> kube.write(() -> {
            ran.set(true);
            return "nope";
        }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertInstanceOf(KubeExecutor.NotLeaderException.class, e.getCause());
        assertFalse(ran.get(), "a fenced write must not run");
        assertEquals("read", kube.call(() -> "read").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        kube.close();
    }
}
