package dev.kruisevertx.agent.crr;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.cri.v1.ExecSyncResponse;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ProbeHandler;
import com.google.protobuf.ByteString;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.ExecActionBuilder;
import io.fabric8.kubernetes.api.model.HTTPGetActionBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kubelet-like stop sequence, against a recording runtime and a local HTTP endpoint for HTTP hooks. */
class ContainerStopperTest {
    Vertx vertx;
    final List<String> calls = new CopyOnWriteArrayList<>();
    int execExitCode;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() {
        TestKubelet.await(vertx.close());
    }

    /** A runtime that records ExecSync and StopContainer and answers them. */
    CriClient recordingRuntime() {
        return (CriClient) Proxy.newProxyInstance(CriClient.class.getClassLoader(), new Class<?>[]{CriClient.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "execSync" -> {
                        calls.add("exec " + args[0] + " " + args[1]);
                        yield Future.succeededFuture(ExecSyncResponse.newBuilder().setExitCode(execExitCode)
                                .setStderr(ByteString.copyFromUtf8("hook says no")).build());
                    }
                    case "stopContainer" -> {
                        calls.add("stop " + args[0] + " " + ((Duration) args[1]).toSeconds());
                        yield Future.succeededFuture();
                    }
                    default -> throw new AssertionError("unexpected runtime call " + method.getName());
                });
    }

    @Test
    void execHookRunsThenTheContainerStopsWithTheRestOfTheGrace() {
        ContainerRecreateRequestContainer c = new ContainerRecreateRequestContainer("app");
        ProbeHandler hook = new ProbeHandler();
        hook.setExec(new ExecActionBuilder().withCommand("/bin/sh", "-c", "drain").build());
        c.setPreStop(hook);
        ContainerStopper stopper = new ContainerStopper(vertx, recordingRuntime());
        TestKubelet.await(stopper.stop(c, "abc", Duration.ofSeconds(30), "127.0.0.1"));
        assertEquals("exec abc [/bin/sh, -c, drain]", calls.get(0));
        assertTrue(calls.get(1).startsWith("stop abc "), calls.toString());
        long grace = Long.parseLong(calls.get(1).substring("stop abc ".length()));
        assertTrue(grace > 20 && grace <= 30, "grace left " + grace);
    }

    @Test
    void aFailingHookDoesNotKeepTheContainerFromStopping() {
        execExitCode = 1;
        ContainerRecreateRequestContainer c = new ContainerRecreateRequestContainer("app");
        ProbeHandler hook = new ProbeHandler();
        hook.setExec(new ExecActionBuilder().withCommand("false").build());
        c.setPreStop(hook);
        TestKubelet.await(new ContainerStopper(vertx, recordingRuntime()).stop(c, "abc", Duration.ofSeconds(1), null));
        // The kubelet's floor: at least two seconds to stop, even when the hook used the whole grace period.
        assertEquals(List.of("exec abc [false]", "stop abc 2"), calls);
    }

    @Test
    void httpHookCallsTheNamedPortBeforeStopping() {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer server = TestKubelet.await(vertx.createHttpServer().requestHandler(req -> {
            requests.add(req.method() + " " + req.uri() + " " + req.getHeader("X-Drain"));
            req.response().end("ok");
        }).listen(0, "127.0.0.1"));
        ContainerRecreateRequestContainer c = new ContainerRecreateRequestContainer("app");
        ProbeHandler hook = new ProbeHandler();
        hook.setHttpGet(new HTTPGetActionBuilder().withPath("/drain").withPort(new IntOrString("http"))
                .addNewHttpHeader().withName("X-Drain").withValue("now").endHttpHeader().build());
        c.setPreStop(hook);
        c.setPorts(List.of(new ContainerPortBuilder().withName("http").withContainerPort(server.actualPort()).build()));
        TestKubelet.await(new ContainerStopper(vertx, recordingRuntime()).stop(c, "abc", Duration.ofSeconds(10),
                "127.0.0.1"));
        assertEquals(List.of("GET /drain now"), requests);
        assertTrue(calls.get(0).startsWith("stop abc "), calls.toString());
    }

    @Test
    void hookPortsResolveByNumberOrNameAndUnknownNamesAreAnError() {
        assertEquals(80, ContainerStopper.resolvePort(new IntOrString(80), null));
        assertEquals(81, ContainerStopper.resolvePort(new IntOrString("81"), null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ContainerStopper.resolvePort(new IntOrString("admin"), List.of()));
        assertEquals("httpGet preStop hook port admin is not a port of the container", e.getMessage());
    }
}
