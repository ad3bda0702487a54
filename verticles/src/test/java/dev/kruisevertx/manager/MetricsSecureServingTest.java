package dev.kruisevertx.manager;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --metrics-secure}: /metrics over HTTPS, answered only after a TokenReview and a SubjectAccessReview,
 * against the fabric8 mock server's answers to both (expectations on top of the CRUD mock).
 */
@EnableKubernetesMockClient(crud = true)
class MetricsSecureServingTest {
    static final String PROMETHEUS = "system:serviceaccount:monitoring:prometheus";
    /** Token to user; anything else is not authenticated. */
    static final Map<String, String> USERS = Map.of("prometheus-token", PROMETHEUS, "alice-token", "alice");

    KubernetesMockServer server;
    KubernetesClient client;
    private ManagerApp app;
    private final AtomicInteger tokenReviews = new AtomicInteger();
    private final Map<String, SubjectAccessReview> accessReviews = new ConcurrentHashMap<>();

    @BeforeEach
    void reviews() {
        server.expect().post().withPath("/apis/authentication.k8s.io/v1/tokenreviews").andReply(201, request -> {
            tokenReviews.incrementAndGet();
            TokenReview review = Serialization.unmarshal(request.getUtf8Body(), TokenReview.class);
            String user = USERS.get(review.getSpec().getToken());
            return new TokenReviewBuilder(review).withNewStatus().withAuthenticated(user != null)
                    .withNewUser().withUsername(user).withGroups(user == null ? List.of() : List.of("system:authenticated"))
                    .endUser().endStatus().build();
        }).always();
        server.expect().post().withPath("/apis/authorization.k8s.io/v1/subjectaccessreviews").andReply(201, request -> {
            SubjectAccessReview review = Serialization.unmarshal(request.getUtf8Body(), SubjectAccessReview.class);
            accessReviews.put(review.getSpec().getUser(), review);
            boolean allowed = PROMETHEUS.equals(review.getSpec().getUser())
                    && review.getSpec().getNonResourceAttributes() != null
                    && "/metrics".equals(review.getSpec().getNonResourceAttributes().getPath())
                    && "get".equals(review.getSpec().getNonResourceAttributes().getVerb());
            return new SubjectAccessReviewBuilder(review).withNewStatus().withAllowed(allowed).endStatus().build();
        }).always();
    }

    @AfterEach
    void stop() throws Exception {
        TestManagers.stop(app);
    }

    private static HttpClient trustingClient() throws Exception {
        // The certificate is made at start-up, as controller-runtime does without a certificate directory.
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[]{new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, new SecureRandom());
        return HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    private HttpResponse<String> scrape(HttpClient http, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + app.metricsPort() + "/metrics"))
                .timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void onlyAnAuthorizedTokenGetsTheMetrics() throws Exception {
        app = TestManagers.start(client, List.of(), "--enable-leader-election=false", "--metrics-secure");
        HttpClient http = trustingClient();

        HttpResponse<String> anonymous = scrape(http, null);
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertEquals(0, tokenReviews.get(), "no token, no review");

        HttpResponse<String> unknown = scrape(http, "stolen-token");
        assertEquals(401, unknown.statusCode(), unknown.body());

        HttpResponse<String> alice = scrape(http, "alice-token");
        assertEquals(403, alice.statusCode(), alice.body());
        assertEquals("Forbidden: user \"alice\" may not get /metrics\n", alice.body());

        HttpResponse<String> prometheus = scrape(http, "prometheus-token");
        assertEquals(200, prometheus.statusCode(), prometheus.body());
        assertTrue(prometheus.body().contains("kruise_manager_is_leader 1.0"), prometheus.body());
        SubjectAccessReview asked = accessReviews.get(PROMETHEUS);
        assertEquals(List.of("system:authenticated"), asked.getSpec().getGroups());

        // Decisions are cached briefly: scraping again does not ask the API server again.
        int reviews = tokenReviews.get();
        assertEquals(200, scrape(http, "prometheus-token").statusCode());
        assertEquals(403, scrape(http, "alice-token").statusCode());
        assertEquals(reviews, tokenReviews.get());

        // Plain HTTP gets nothing: the listener speaks TLS only.
        assertThrows(IOException.class, () -> TestManagers.get(app.metricsPort(), "/metrics"));
        // Probes stay open to the kubelet.
        assertEquals(200, TestManagers.get(app.healthPort(), "/healthz").statusCode());
    }

    @Test
    void offByDefaultAsInOpenKruise() throws Exception {
        app = TestManagers.start(client, List.of(), "--enable-leader-election=false");
        HttpResponse<String> plain = TestManagers.get(app.metricsPort(), "/metrics");
        assertEquals(200, plain.statusCode());
        assertEquals(0, tokenReviews.get());
    }
}
