package dev.kruisevertx.manager;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Lets a request through to {@code /metrics} only when its bearer token passes a TokenReview and the user it
 * names may {@code get} the non-resource URL {@code /metrics} (SubjectAccessReview): controller-runtime's
 * {@code filters.WithAuthenticationAndAuthorization}, on for {@code --metrics-secure}. 401 without a valid token,
 * 403 when the user is not allowed. Decisions are cached briefly by a hash of the token (allowed for a minute,
 * refused for ten seconds), so a scrape every few seconds costs two API calls a minute; the reviews run on the
 * API worker pool, never on the event loop.
 */
final class MetricsAccessReview implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsAccessReview.class);
    static final Duration ALLOWED_TTL = Duration.ofMinutes(1);
    static final Duration REFUSED_TTL = Duration.ofSeconds(10);
    private static final int MAX_CACHED = 1024;

    /** What a token may do; {@code status} is the HTTP answer (200 means through). */
    record Decision(int status, String message) {
        boolean allowed() {
            return status == 200;
        }
    }

    private final KubernetesClient client;
    private final KubeExecutor kube;
    private final Cache<String, Decision> decisions = Caffeine.newBuilder()
            .maximumSize(MAX_CACHED)
            .expireAfter(Expiry.<String, Decision>writing((key, d) -> d.allowed() ? ALLOWED_TTL : REFUSED_TTL))
            .build();

    MetricsAccessReview(KubernetesClient client, KubeExecutor kube) {
        this.client = client;
        this.kube = kube;
    }

    @Override
    public void handle(RoutingContext ctx) {
        String token = bearerToken(ctx.request().getHeader("Authorization"));
        if (token == null) {
            refuse(ctx, new Decision(401, "Unauthorized: a bearer token is required"));
            return;
        }
        String key = sha256(token);
        Decision cached = decisions.getIfPresent(key);
        if (cached != null) {
            apply(ctx, cached);
            return;
        }
        String path = ctx.request().path();
        kube.call(() -> review(token, path))
                .onSuccess(decision -> {
                    decisions.put(key, decision);
                    apply(ctx, decision);
                })
                // Not cached: the next scrape asks again.
                .onFailure(e -> {
                    LOG.warn("cannot review a /metrics caller: {}", e.getMessage());
                    refuse(ctx, new Decision(503, "cannot review the token: " + e.getMessage()));
                });
    }

    /** Blocking: a TokenReview, then a SubjectAccessReview for the user it returns. */
    private Decision review(String token, String path) {
        TokenReview reviewed = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder()
                .withNewSpec().withToken(token).endSpec().build());
        if (reviewed == null || reviewed.getStatus() == null || !Boolean.TRUE.equals(reviewed.getStatus().getAuthenticated())) {
            return new Decision(401, "Unauthorized: the token was not accepted");
        }
        UserInfo user = reviewed.getStatus().getUser();
        String name = user == null ? "" : user.getUsername();
        SubjectAccessReview access = client.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser(name)
                .withUid(user == null ? null : user.getUid())
                .withGroups(user == null ? List.of() : user.getGroups())
                .withExtra(user == null || user.getExtra() == null ? Map.of() : user.getExtra())
                .withNewNonResourceAttributes().withPath(path).withVerb("get").endNonResourceAttributes()
                .endSpec().build());
        if (access == null || access.getStatus() == null || !Boolean.TRUE.equals(access.getStatus().getAllowed())) {
            return new Decision(403, "Forbidden: user \"" + name + "\" may not get " + path);
        }
        return new Decision(200, null);
    }

    private static void apply(RoutingContext ctx, Decision decision) {
        if (decision.allowed()) {
            ctx.next();
        } else {
            refuse(ctx, decision);
        }
    }

    private static void refuse(RoutingContext ctx, Decision decision) {
        LOG.debug("refused {} {}: {}", ctx.request().method(), ctx.request().path(), decision.message());
        ctx.response().setStatusCode(decision.status()).putHeader("Content-Type", "text/plain; charset=utf-8");
        if (decision.status() == 401) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer");
        }
        ctx.response().end(decision.message() + "\n");
    }

    static String bearerToken(String header) {
        if (header == null || header.length() <= 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    private static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
