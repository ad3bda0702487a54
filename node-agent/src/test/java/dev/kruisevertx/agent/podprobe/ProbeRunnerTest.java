package dev.kruisevertx.agent.podprobe;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** httpGet and tcpSocket probes from the node against local servers (the pod IP is 127.0.0.1). */
class ProbeRunnerTest {
    static Vertx vertx;
    static HttpServer http;
    static NetServer tcp;
    static ProbeRunner runner;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        http = vertx.createHttpServer().requestHandler(req -> {
            switch (req.path()) {
                case "/healthz" -> req.response().setStatusCode(200).end("ok");
                case "/redirect" -> req.response().setStatusCode(302).putHeader("Location", "/healthz").end();
                case "/header" -> req.response().setStatusCode("yes".equals(req.getHeader("X-Check")) ? 200 : 403).end();
                case "/slow" -> vertx.setTimer(5_000, t -> req.response().end());
                default -> req.response().setStatusCode(500).end("broken");
            }
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        tcp = vertx.createNetServer().connectHandler(s -> s.close()).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        runner = new ProbeRunner(vertx, null);
    }

    @AfterAll
    static void stop() throws Exception {
        runner.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static ProbeResult run(Probe probe) throws Exception {
        Optional<ProbeResult> r = runner.run(probe, "uid", "main", "127.0.0.1").toCompletionStage()
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertTrue(r.isPresent());
        return r.get();
    }

    static Probe httpGet(String path, int port, String header) {
        ProbeBuilder b = new ProbeBuilder().withNewHttpGet().withPath(path).withPort(new IntOrString(port))
                .withScheme("HTTP").endHttpGet().withTimeoutSeconds(1);
        if (header != null) {
            b.editHttpGet().addNewHttpHeader().withName("X-Check").withValue(header).endHttpHeader().endHttpGet();
        }
        return b.build();
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void httpSuccessAndRedirectAreSuccess() throws Exception {
        ProbeResult ok = run(httpGet("/healthz", http.actualPort(), null));
        assertTrue(ok.success());
        assertEquals("HTTP probe succeeded with statuscode: 200", ok.message());
        assertTrue(run(httpGet("/redirect", http.actualPort(), null)).success(), "3xx counts as success");
    }

    @Test
    void httpErrorStatusIsFailure() throws Exception {
        ProbeResult r = run(httpGet("/broken", http.actualPort(), null));
        assertFalse(r.success());
        assertEquals("HTTP probe failed with statuscode: 500", r.message());
    }

    @Test
    void httpHeadersAreSent() throws Exception {
        assertTrue(run(httpGet("/header", http.actualPort(), "yes")).success());
        assertFalse(run(httpGet("/header", http.actualPort(), "no")).success());
    }

    @Test
    void httpTimeoutIsFailure() throws Exception {
        ProbeResult r = run(httpGet("/slow", http.actualPort(), null));
        assertFalse(r.success());
        assertTrue(r.message().startsWith("HTTP probe failed"), r.message());
    }

    @Test
    void httpToAClosedPortIsFailure() throws Exception {
        assertFalse(run(httpGet("/healthz", freePort(), null)).success());
    }

    @Test
    void tcpOpenAndClosedPorts() throws Exception {
        Probe open = new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(tcp.actualPort())).endTcpSocket().build();
        assertTrue(run(open).success());
        Probe closed = new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(freePort())).endTcpSocket().build();
        ProbeResult r = run(closed);
        assertFalse(r.success());
        assertTrue(r.message().startsWith("TCP probe failed"), r.message());
    }

    @Test
    void aPodWithoutIpOrANamedPortFails() throws Exception {
        Optional<ProbeResult> noIp = runner.run(httpGet("/healthz", http.actualPort(), null), "uid", "main", "")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertFalse(noIp.orElseThrow().success());
        Probe named = new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString("http")).endTcpSocket().build();
        assertEquals("tcpSocket port is not a number", run(named).message());
    }
}
