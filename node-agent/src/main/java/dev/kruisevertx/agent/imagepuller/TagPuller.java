package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.agent.cri.CriException;
import dev.kruisevertx.api.apps.v1beta1.ImagePullPhase;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.SandboxConfig;
import dev.kruisevertx.cri.v1.AuthConfig;
import dev.kruisevertx.cri.v1.PodSandboxConfig;
import dev.kruisevertx.podutil.Pods;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Pulls one tag (one version) through CRI, as a kruise-daemon pull worker: Waiting until it gets a slot, then
 * Pulling; with {@code IfNotPresent} it asks ImageStatus first; PullImage is tried with each matching credential in
 * turn (none: anonymously), each attempt within the tag's timeout (and what is left of its active deadline), and
 * failed attempts are retried {@code backoffLimit} times after 1 s doubling to 30 s. It ends Succeeded (progress 100,
 * {@code imageID} {@code image@id}) or Failed with the runtime's message. Every call runs on the caller's context;
 * nothing blocks.
 */
final class TagPuller {
    private static final Logger LOG = LoggerFactory.getLogger(TagPuller.class);
    /** The sandbox annotation that tells the runtime (and its plugins) who pulls. */
    static final String PULLING_IMAGE_BY = "apps.kruise.io/pulling-image-by";
    static final String PULLING_IMAGE_BY_VALUE = "kruise-daemon";

    private final Vertx vertx;
    private final CriClient cri;
    private final PullPlanner.TagKey key;
    private final long version;
    private final PullSettings settings;
    private final PodSandboxConfig sandbox;
    private final RegistryAuths.Result auths;
    private final Clock clock;
    private final Consumer<ImageTagStatus> report;
    private final String ref;
    private volatile boolean stopped;
    private Instant started;
    private long retryTimer = -1;
    private Promise<Void> done;

    TagPuller(Vertx vertx, CriClient cri, PullPlanner.TagKey key, ImageTagSpec tag, SandboxConfig sandboxConfig,
              RegistryAuths.Result auths, Clock clock, Consumer<ImageTagStatus> report) {
        this.vertx = vertx;
        this.cri = cri;
        this.key = key;
        this.version = tag.versionOrZero();
        this.settings = PullSettings.of(tag);
        this.sandbox = sandbox(sandboxConfig);
        this.auths = auths;
        this.clock = clock;
        this.report = report;
        this.ref = ImageRefs.ref(key.image(), key.tag());
    }

    static PodSandboxConfig sandbox(SandboxConfig config) {
        PodSandboxConfig.Builder b = PodSandboxConfig.newBuilder();
        if (config != null) {
            if (config.getLabels() != null) {
                config.getLabels().forEach((k, v) -> {
                    if (k != null && v != null) {
                        b.putLabels(k, v);
                    }
                });
            }
            if (config.getAnnotations() != null) {
                config.getAnnotations().forEach((k, v) -> {
                    if (k != null && v != null) {
                        b.putAnnotations(k, v);
                    }
                });
            }
        }
        b.putAnnotations(PULLING_IMAGE_BY, PULLING_IMAGE_BY_VALUE);
        return b.build();
    }

    long version() {
        return version;
    }

    /** Time since the pull started (zero before it started). */
    Duration elapsed() {
        return started == null ? Duration.ZERO : Duration.between(started, clock.instant());
    }

    /** The status before the pull starts. */
    ImageTagStatus waiting() {
        ImageTagStatus s = base();
        s.setPhase(ImagePullPhase.WAITING.value());
        return s;
    }

    /** Runs the pull; the future completes when the worker's slot is free again (finished or stopped). */
    Future<Void> run() {
        done = Promise.promise();
        if (stopped) {
            done.complete();
            return done.future();
        }
        started = clock.instant();
        report.accept(pulling());
        LOG.info("pulling image {} (version {})", ref, version);
        attempt(0, null);
        return done.future();
    }

    /** Stops the worker: a retry is not made, an answer still coming is ignored, the slot is freed now. */
    void stop() {
        stopped = true;
        if (retryTimer >= 0) {
            vertx.cancelTimer(retryTimer);
            retryTimer = -1;
        }
        if (done != null) {
            done.tryComplete();
        }
    }

    private ImageTagStatus base() {
        ImageTagStatus s = new ImageTagStatus();
        s.setTag(key.tag());
        s.setVersion(version);
        return s;
    }

    private ImageTagStatus pulling() {
        ImageTagStatus s = base();
        s.setPhase(ImagePullPhase.PULLING.value());
        s.setProgress(0);
        s.setStartTime(Pods.formatTime(started));
        return s;
    }

    private void attempt(int retries, String lastError) {
        if (stopped) {
            return;
        }
        Duration once = settings.timeout();
        if (settings.activeDeadline() != null) {
            Duration left = settings.activeDeadline().minus(Duration.between(started, clock.instant()));
            if (left.isNegative() || left.isZero()) {
                finish(false, null, "pulling exceeds the activeDeadlineSeconds"
                        + (lastError == null ? "" : "; last error: " + lastError));
                return;
            }
            if (left.compareTo(once) < 0) {
                once = left;
            }
        }
        Duration limit = once;
        pullOnce(limit).onComplete(ar -> {
            if (stopped) {
                return;
            }
            if (ar.succeeded()) {
                finish(true, ar.result(), null);
                return;
            }
            String error = describe(ar.cause(), limit);
            if (retries >= settings.backoffLimit()) {
                finish(false, null, error);
                return;
            }
            Duration pause = PullSettings.backoff(retries + 1);
            LOG.warn("pulling image {} failed (attempt {} of {}, next in {} s): {}", ref, retries + 1,
                    settings.backoffLimit() + 1, pause.toSeconds(), error);
            retryTimer = vertx.setTimer(pause.toMillis(), t -> {
                retryTimer = -1;
                attempt(retries + 1, error);
            });
        });
    }

    /** One attempt: the image id once the runtime has the image. */
    private Future<String> pullOnce(Duration limit) {
        Instant end = clock.instant().plus(limit);
        Future<Boolean> present = settings.ifNotPresent()
                ? cri.imageStatus(ref).map(image -> image.isPresent())
                : Future.succeededFuture(false);
        return present.compose(have -> {
            if (have) {
                LOG.info("image {} is already present", ref);
                return Future.succeededFuture();
            }
            List<AuthConfig> credentials = auths.auths().isEmpty() ? java.util.Collections.singletonList(null)
                    : auths.auths();
            return pullWith(credentials, 0, end, new ArrayList<>()).mapEmpty();
        }).compose(v -> cri.imageStatus(ref)).map(image -> image.map(i -> key.image() + "@" + i.getId()).orElse(null));
    }

    /** PullImage with each credential in turn until one works; fails with every answer. */
    private Future<String> pullWith(List<AuthConfig> credentials, int i, Instant end, List<Throwable> errors) {
        if (stopped) {
            return Future.failedFuture("stopped");
        }
        Duration left = Duration.between(clock.instant(), end);
        if (left.isNegative() || left.isZero()) {
            return Future.failedFuture(errors.isEmpty() ? new CriException("ImageService/PullImage", cri.endpoint(),
                    GrpcStatus.DEADLINE_EXCEEDED, "timed out", null) : errors.get(errors.size() - 1));
        }
        return cri.pullImage(ref, credentials.get(i), sandbox, left).recover(err -> {
            errors.add(err);
            if (i + 1 < credentials.size()) {
                return pullWith(credentials, i + 1, end, errors);
            }
            return Future.failedFuture(errors.size() == 1 ? err : new MultipleFailures(errors));
        });
    }

    private static final class MultipleFailures extends RuntimeException {
        final List<Throwable> errors;

        MultipleFailures(List<Throwable> errors) {
            super(null, null, false, false);
            this.errors = List.copyOf(errors);
        }
    }

    /** The message a user reads in the status: the runtime's words as Go's gRPC prints them, and secret problems. */
    private String describe(Throwable err, Duration limit) {
        String text;
        if (err instanceof MultipleFailures m) {
            List<String> parts = new ArrayList<>();
            for (Throwable t : m.errors) {
                parts.add(one(t, limit));
            }
            text = "[" + String.join(", ", parts) + "]";
        } else {
            text = one(err, limit);
        }
        if (!auths.problems().isEmpty()) {
            text = text + " (" + String.join("; ", auths.problems()) + ")";
        }
        return text;
    }

    private String one(Throwable err, Duration limit) {
        if (err instanceof CriException ce) {
            if (ce.status() == GrpcStatus.DEADLINE_EXCEEDED) {
                return "pulling image " + ref + " timed out after " + limit.toSeconds() + "s";
            }
            String detail = ce.detail() == null || ce.detail().isEmpty() ? ce.status().name() : ce.detail();
            return "rpc error: code = " + goCode(ce.status()) + " desc = " + detail;
        }
        return "pulling image " + ref + " failed: " + (err.getMessage() == null ? err.getClass().getSimpleName()
                : err.getMessage());
    }

    /** NOT_FOUND -> NotFound, as Go's codes print. */
    static String goCode(GrpcStatus status) {
        StringBuilder b = new StringBuilder();
        for (String part : status.name().split("_")) {
            if (part.equals("OK")) {
                return "OK";
            }
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase());
        }
        return b.toString();
    }

    private void finish(boolean succeeded, String imageId, String message) {
        ImageTagStatus s = pulling();
        s.setPhase(succeeded ? ImagePullPhase.SUCCEEDED.value() : ImagePullPhase.FAILED.value());
        s.setCompletionTime(Pods.formatTime(clock.instant()));
        if (succeeded) {
            s.setProgress(100);
            s.setImageID(imageId);
            LOG.info("pulled image {} in {} s", ref, Duration.between(started, clock.instant()).toSeconds());
        } else {
            s.setMessage(message);
            LOG.warn("pulling image {} failed: {}", ref, message);
        }
        report.accept(s);
        done.tryComplete();
    }
}
