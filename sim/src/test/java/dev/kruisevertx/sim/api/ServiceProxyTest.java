package dev.kruisevertx.sim.api;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/v1/namespaces/NS/services/NAME:PORT/proxy/PATH}, as kube-apiserver's service proxy answers it. */
class ServiceProxyTest {
    static ClusterFixture fixture;
    static Vertx vertx;
    static HttpServer backend;

    @BeforeAll
    static void start() throws Exception {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setBuiltinControllers(false));
        vertx = Vertx.vertx();
        backend = vertx.createHttpServer().requestHandler(req -> req.response().setStatusCode(req.path().equals("/gone")
                        ? 404 : 200).putHeader("Content-Type", "text/plain").end(req.method() + " " + req.uri()))
                .listen(0, "127.0.0.1").await(30, TimeUnit.SECONDS);
        ManifestApplier.apply(fixture.client(), """
                apiVersion: v1
                kind: Service
                metadata: {name: mgr, namespace: default}
                spec:
                  ports:
                  - {name: metrics, port: 8080, targetPort: 8080}
                  - {name: other, port: 9000, targetPort: 9000}
                """);
        fixture.cluster().serviceProxy().map("default", "mgr", 8080, "127.0.0.1:" + backend.actualPort());
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
        vertx.close().await(30, TimeUnit.SECONDS);
    }

    static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(fixture.cluster().url() + path))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void forwardsToTheMappedEndpointByPortNumberOrName() throws Exception {
        for (String service : new String[]{"mgr:8080", "mgr:metrics", "http:mgr:8080"}) {
            HttpResponse<String> r = get("/api/v1/namespaces/default/services/" + service + "/proxy/why/a/b?x=1");
            assertEquals(200, r.statusCode(), service);
            assertEquals("GET /why/a/b?x=1", r.body(), service);
        }
        HttpResponse<String> notFound = get("/api/v1/namespaces/default/services/mgr:8080/proxy/gone");
        assertEquals(404, notFound.statusCode());
        assertEquals("GET /gone", notFound.body(), "the endpoint's own answer passes through");
    }

    @Test
    void aMissingServiceIs404AndAPortWithoutEndpoints503() throws Exception {
        HttpResponse<String> missing = get("/api/v1/namespaces/default/services/nope:8080/proxy/why");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("services \\\"nope\\\" not found"), missing.body());
        HttpResponse<String> noEndpoints = get("/api/v1/namespaces/default/services/mgr:9000/proxy/why");
        assertEquals(503, noEndpoints.statusCode());
        assertTrue(noEndpoints.body().contains("no endpoints available for service \\\"mgr\\\""), noEndpoints.body());
        HttpResponse<String> https = get("/api/v1/namespaces/default/services/https:mgr:8080/proxy/why");
        assertEquals(503, https.statusCode());
    }
}
