package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * resourceVersions as numbers. Kubernetes calls them opaque, but etcd's (and the embedded API server's) are one
 * growing counter, and comparing them is what makes per-namespace lists exact against one watch. A version that is
 * not a number reads as {@link #UNKNOWN}; callers then fall back to applying what the watch says.
 */
final class ResourceVersions {
    static final long UNKNOWN = -1;

    private ResourceVersions() {
    }

    static long of(String rv) {
        if (rv == null || rv.isEmpty() || rv.length() > 18) {
            return UNKNOWN;
        }
        long v = 0;
        for (int i = 0; i < rv.length(); i++) {
            char c = rv.charAt(i);
            if (c < '0' || c > '9') {
                return UNKNOWN;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    static long of(HasMetadata obj) {
        return obj == null || obj.getMetadata() == null ? UNKNOWN : of(obj.getMetadata().getResourceVersion());
    }
}
