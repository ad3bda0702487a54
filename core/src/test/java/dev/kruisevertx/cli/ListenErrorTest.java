package dev.kruisevertx.cli;

import io.vertx.core.Vertx;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListenErrorTest {
    @Test
    void aTakenPortIsNamedWithItsSetting() throws Exception {
        // Taken by another process's socket (one Vert.x instance would share its own port instead of failing).
        // The JDK transport reports a BindException; epoll's native IOException is covered by the node agent's tests.
        Vertx vertx = Vertx.vertx();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Throwable failure = vertx.createHttpServer().requestHandler(r -> r.response().end())
                    .listen(port, "127.0.0.1").transform(ar -> Future.succeededFuture(ar.cause()))
                    .await(30, TimeUnit.SECONDS);
            InvalidConfigurationException e = ListenError.explain("--metrics-addr 127.0.0.1:" + port, failure);
            assertEquals("--metrics-addr 127.0.0.1:" + port + ": address already in use", e.getMessage(),
                    String.valueOf(failure));
            assertSame(failure, e.getCause());
        } finally {
            vertx.close().await(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void otherBindProblemsAreNamedToo() {
        assertEquals("--addr 10.255.255.1:10221: no local interface has this address",
                ListenError.explain("--addr 10.255.255.1:10221", new BindException("Cannot assign requested address")).getMessage());
        assertTrue(ListenError.explain("--health-probe-addr :80", new BindException("Permission denied")).getMessage()
                .startsWith("--health-probe-addr :80: permission denied"));
        assertEquals("--metrics-addr nohost:1: cannot listen: nohost: Name or service not known",
                ListenError.explain("--metrics-addr nohost:1", new java.net.UnknownHostException("nohost: Name or service not known")).getMessage());
    }

    @Test
    void theExceptionIsFoundInACauseChain() {
        InvalidConfigurationException e = new InvalidConfigurationException("--x: bad");
        assertSame(e, InvalidConfigurationException.in(new IllegalStateException("start-up failed", new RuntimeException(e))));
        assertEquals(null, InvalidConfigurationException.in(new IllegalStateException("other")));
    }
}
