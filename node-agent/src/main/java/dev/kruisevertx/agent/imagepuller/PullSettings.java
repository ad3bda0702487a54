package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.api.apps.v1beta1.ImagePullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;

import java.time.Duration;

/**
 * How one tag is pulled, from its {@code pullPolicy} with kruise-daemon's defaults: each attempt bounded by
 * {@code timeoutSeconds} (default 10 min), {@code backoffLimit} retries (default 3; a negative value means the
 * default), all attempts within {@code activeDeadlineSeconds} when given, and 1 s doubling to 30 s between attempts.
 * Only {@code imagePullPolicy: IfNotPresent} looks for the image first.
 */
public record PullSettings(Duration timeout, int backoffLimit, Duration activeDeadline, boolean ifNotPresent) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    public static final int DEFAULT_BACKOFF_LIMIT = 3;
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** Longer timeouts are cut to this: a gRPC deadline cannot say more, and no pull needs a day. */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(1);

    public static PullSettings of(ImageTagSpec tag) {
        ImageTagPullPolicy p = tag.getPullPolicy();
        Duration timeout = DEFAULT_TIMEOUT;
        int backoff = DEFAULT_BACKOFF_LIMIT;
        Duration deadline = null;
        if (p != null) {
            // A zero or negative timeout would fail every attempt at once; the webhook refuses it, an edited
            // NodeImage may still carry it.
            if (p.getTimeoutSeconds() != null && p.getTimeoutSeconds() > 0) {
                timeout = Duration.ofSeconds(Math.min(p.getTimeoutSeconds(), MAX_TIMEOUT.toSeconds()));
            }
            if (p.getBackoffLimit() != null && p.getBackoffLimit() >= 0) {
                backoff = p.getBackoffLimit();
            }
            if (p.getActiveDeadlineSeconds() != null) {
                deadline = Duration.ofSeconds(Math.max(0, p.getActiveDeadlineSeconds()));
            }
        }
        boolean ifNotPresent = tag.imagePullPolicyValue().orElse(null) == ImagePullPolicy.IF_NOT_PRESENT;
        return new PullSettings(timeout, backoff, deadline, ifNotPresent);
    }

    /** The pause before retry {@code attempt} (1-based): 1 s, 2 s, 4 s ... at most 30 s. */
    public static Duration backoff(int attempt) {
        int shift = (int) Math.min(Math.max((long) attempt - 1, 0), 5);
        Duration d = FIRST_BACKOFF.multipliedBy(1L << shift);
        return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
    }
}
