package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.api.apps.v1beta1.ReferenceObject;
import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pull secrets a NodeImage image names ({@code pullSecrets}: namespace/name, for ImagePullJobs the copies the
 * manager keeps in {@code kruise-daemon-config}, the one namespace the daemon's role may read), read on a worker
 * thread and kept 5 to 10 minutes as kruise-daemon's secret manager. A secret that cannot be read is left out and
 * named in the result's problems (404, 403: the reason only).
 */
final class SecretSource {
    private record Cached(Secret secret, Instant until) {
    }

    /** The secrets found and what kept the others out. */
    record Loaded(List<Secret> secrets, List<String> problems) {
    }

    private final Vertx vertx;
    private final KubernetesClient kube;
    private final Clock clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    SecretSource(Vertx vertx, KubernetesClient kube, Clock clock) {
        this.vertx = vertx;
        this.kube = kube;
        this.clock = clock;
    }

    Future<Loaded> load(List<ReferenceObject> refs) {
        if (refs == null || refs.isEmpty()) {
            return Future.succeededFuture(new Loaded(List.of(), List.of()));
        }
        List<ReferenceObject> copy = List.copyOf(refs);
        return vertx.executeBlocking(() -> {
            List<Secret> secrets = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (ReferenceObject ref : copy) {
                if (ref == null || ref.getName() == null || ref.getName().isBlank() || ref.getNamespace() == null
                        || ref.getNamespace().isBlank()) {
                    problems.add("a pull secret reference without namespace or name");
                    continue;
                }
                String key = ref.getNamespace() + "/" + ref.getName();
                Cached c = cache.get(key);
                if (c != null && clock.instant().isBefore(c.until())) {
                    secrets.add(c.secret());
                    continue;
                }
                try {
                    Secret s = kube.secrets().inNamespace(ref.getNamespace()).withName(ref.getName()).get();
                    if (s == null) {
                        problems.add("pull secret " + key + " not found");
                        continue;
                    }
                    long minutes = 5 + ThreadLocalRandom.current().nextInt(6);
                    cache.put(key, new Cached(s, clock.instant().plus(Duration.ofMinutes(minutes))));
                    secrets.add(s);
                } catch (KubernetesClientException e) {
                    problems.add("pull secret " + key + " cannot be read: " + (ApiErrors.isNotFound(e) ? "not found"
                            : "HTTP " + e.getCode() + (e.getStatus() != null && e.getStatus().getReason() != null
                            ? " " + e.getStatus().getReason() : "")));
                }
            }
            return new Loaded(secrets, problems);
        }, false);
    }
}
