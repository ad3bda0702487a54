package dev.kruisevertx.controller.reason;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes an admission webhook refused, kept per workload until one of its writes goes through again: "keep the
 * message of the last failed write", so {@code kubectl kruise why} still shows it while the controller backs off.
 * A refusal naming a PodUnavailableBudget is reported as such (OpenKruise's PUB webhook refuses deletions and
 * evictions that would take too many pods down).
 */
public final class WriteRejections {
    private final Map<String, BlockReason> last = new ConcurrentHashMap<>();

    /** The reason a failed write gives, when an admission webhook refused it. */
    public static Optional<BlockReason> reasonOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof KubernetesClientException e) {
                Status status = e.getStatus();
                String message = status != null && status.getMessage() != null ? status.getMessage() : e.getMessage();
                if (message == null || !message.contains("admission webhook")) {
                    return Optional.empty();
                }
                String object = status != null && status.getDetails() != null ? status.getDetails().getName() : null;
                if (object == null || object.isEmpty()) {
                    // Webhooks seldom fill in the details: the request fabric8 sent names the object (not a create's).
                    object = e.getName();
                }
                String kind = status != null && status.getDetails() != null ? status.getDetails().getKind() : null;
                String write = writeOf(e, kind, object);
                String lower = message.toLowerCase(Locale.ROOT);
                if (lower.contains("podunavailablebudget") || lower.contains("pub ") || lower.contains("pub:")) {
                    return Optional.of(Reasons.podUnavailableBudget(write.startsWith("evict") ? "evict" : "delete",
                            object == null ? "(unknown)" : object, message));
                }
                return Optional.of(Reasons.webhookRejection(write, object, message));
            }
        }
        return Optional.empty();
    }

    /** "create pods web-x", from what the client and the Status tell; "a write" when they tell nothing. */
    private static String writeOf(KubernetesClientException e, String kind, String object) {
        String verb = null;
        String text = e.getMessage() == null ? "" : e.getMessage();
        if (text.contains(": POST at")) {
            verb = text.contains("/eviction") ? "evict" : "create";
        } else if (text.contains(": PUT at") || text.contains(": PATCH at")) {
            verb = "update";
        } else if (text.contains(": DELETE at")) {
            verb = "delete";
        }
        StringBuilder b = new StringBuilder(verb == null ? "a write" : verb);
        if (kind == null) {
            // fabric8 names the URL it called: ".../namespaces/NS/pods." or ".../pods/NAME."
            java.util.regex.Matcher m = java.util.regex.Pattern
                    .compile(" at: \\S*/namespaces/[^/\\s]+/([a-z]+)(?:/[^/\\s.]+)?\\.?\\s").matcher(text + " ");
            if (m.find()) {
                kind = m.group(1);
            }
        }
        if (kind != null) {
            b.append(' ').append(kind);
        }
        if (object != null) {
            b.append(' ').append(object);
        }
        return b.toString();
    }

    /** Remembers the refusal of {@code failure} for {@code key}; returns whether it was one. */
    public boolean record(String key, Throwable failure) {
        Optional<BlockReason> reason = reasonOf(failure);
        reason.ifPresent(r -> last.put(key, r));
        return reason.isPresent();
    }

    /** Remembers a refusal the controller met before writing (a PodUnavailableBudget asked in advance). */
    public void remember(String key, BlockReason reason) {
        last.put(key, reason);
    }

    /** A write of {@code key} went through: the refusal is history. */
    public void clear(String key) {
        last.remove(key);
    }

    public Optional<BlockReason> last(String key) {
        return Optional.ofNullable(last.get(key));
    }
}
