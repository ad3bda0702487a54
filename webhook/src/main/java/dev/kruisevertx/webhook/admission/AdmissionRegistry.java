package dev.kruisevertx.webhook.admission;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Admission handlers by URL path. OpenKruise's chart 1.8 still points at {@code -v1alpha1-} spellings
 * (e.g. {@code /mutate-apps-kruise-io-v1alpha1-cloneset}), so each kruise path is also answered under its
 * legacy name.
 */
public final class AdmissionRegistry {
    private final Map<String, AdmissionHandler> handlers = new LinkedHashMap<>();

    /** Registers {@code path} and, for kruise resources, its legacy {@code -v1alpha1-} spelling. */
    public AdmissionRegistry register(String path, AdmissionHandler handler) {
        if (path == null || !path.startsWith("/") || path.length() < 2) {
            throw new IllegalArgumentException("admission path must start with '/', got " + path);
        }
        if (handlers.containsKey(path)) {
            throw new IllegalArgumentException("an admission handler is already registered for " + path);
        }
        handlers.put(path, handler);
        String legacy = legacyPath(path);
        if (!legacy.equals(path)) {
            handlers.putIfAbsent(legacy, handler);
        }
        return this;
    }

    /**
     * Replaces the handler of {@code path} (and of its legacy spelling, when that answers with the same handler) by
     * {@code wrap} applied to it, so one concern (deletion protection) can sit in front of a kind's own webhook.
     */
    public AdmissionRegistry decorate(String path, UnaryOperator<AdmissionHandler> wrap) {
        AdmissionHandler current = handlers.get(path);
        if (current == null) {
            throw new IllegalArgumentException("no admission handler is registered for " + path);
        }
        AdmissionHandler wrapped = wrap.apply(current);
        handlers.put(path, wrapped);
        String legacy = legacyPath(path);
        if (!legacy.equals(path) && handlers.get(legacy) == current) {
            handlers.put(legacy, wrapped);
        }
        return this;
    }

    public Optional<AdmissionHandler> find(String path) {
        return Optional.ofNullable(handlers.get(path));
    }

    /** Every path answered, including legacy spellings. */
    public Set<String> paths() {
        return Collections.unmodifiableSet(handlers.keySet());
    }

    /**
     * {@code /mutate-apps-kruise-io-cloneset} becomes {@code /mutate-apps-kruise-io-v1alpha1-cloneset}; paths
     * already carrying a version, and non-kruise paths such as {@code /mutate-pod}, are returned unchanged.
     */
    public static String legacyPath(String path) {
        String marker = "-kruise-io-";
        int at = path.indexOf(marker);
        if (at < 0) {
            return path;
        }
        String rest = path.substring(at + marker.length());
        if (rest.startsWith("v1alpha1-") || rest.startsWith("v1beta1-")) {
            return path;
        }
        return path.substring(0, at + marker.length()) + "v1alpha1-" + rest;
    }
}
