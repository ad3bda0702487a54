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

    @Test
    void aPerKeyFenceJudgesEachWriteByTheKeyOfTheReconcileMakingIt() throws Exception {
        java.util.Set<String> allowedNamespaces = java.util.concurrent.ConcurrentHashMap.newKeySet();
        allowedNamespaces.add("mine");
        java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        KubeExecutor kube = new KubeExecutor(vertx, "test-pool", 2, (KubeExecutor.WriteFence) key -> {
            asked.add(String.valueOf(key));
            return key != null && allowedNamespaces.contains(dev.kruisevertx.controller.Request.parse(key).namespace());
        });
        assertEquals("ok", inReconcile("mine/web", kube).get(10, TimeUnit.SECONDS));
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> inReconcile("theirs/web", kube).get(10, TimeUnit.SECONDS));
        assertInstanceOf(KubeExecutor.ShardNotHeldException.class, refused.getCause());
        assertTrue(refused.getCause().getMessage().contains("theirs/web"), refused.getCause().getMessage());
        assertEquals(dev.kruisevertx.controller.ExpectedFailures.Kind.NOT_LEADER,
                dev.kruisevertx.controller.ExpectedFailures.classify(refused.getCause()).kind());
        // Outside a reconcile the fence is asked with no key.
        ExecutionException outside = assertThrows(ExecutionException.class,
                () -> kube.write(() -> "x").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertInstanceOf(KubeExecutor.NotLeaderException.class, outside.getCause());
        assertTrue(asked.contains("null"), asked.toString());

        // The shard lost between the call and the worker: the second check refuses it.
        java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        kube.call(() -> {
            blocked.countDown();
            release.await(10, TimeUnit.SECONDS);
            return null;
        });
        kube.call(() -> {
            release.await(10, TimeUnit.SECONDS);
            return null;
        });
        assertTrue(blocked.await(10, TimeUnit.SECONDS));
        java.util.concurrent.CompletableFuture<String> pending = inReconcile("mine/late", kube);
        allowedNamespaces.clear();
        release.countDown();
        ExecutionException late = assertThrows(ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
        assertInstanceOf(KubeExecutor.ShardNotHeldException.class, late.getCause());
        kube.close();
    }

    private java.util.concurrent.CompletableFuture<String> inReconcile(String key, KubeExecutor kube) {
        java.util.concurrent.CompletableFuture<String> out = new java.util.concurrent.CompletableFuture<>();
        dev.kruisevertx.controller.ReconcileContext rc = dev.kruisevertx.controller.ReconcileContext.next("test", key, "test");
        rc.attachTo(vertx.getOrCreateContext()).runOnContext(v -> kube.write(() -> "ok")
                .onComplete(ar -> {
                    if (ar.succeeded()) {
                        out.complete(ar.result());
                    } else {
                        out.completeExceptionally(ar.cause());
                    }
                }));
        return out;
    }
}
