package dev.kruisevertx.bench.cloneset;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts one replica's requests to the API server by verb and resource (e.g. {@code PATCH clonesets/status}), so a
 * benchmark can say how many round trips a phase costs. Only methods and resource names are kept: never names of
 * objects or bodies.
 */
final class RequestCounts implements Interceptor {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        counts.computeIfAbsent(verb(request) + " " + resource(request.uri().getPath()), k -> new LongAdder())
                .increment();
    }

    private static String verb(HttpRequest request) {
        String query = request.uri().getRawQuery();
        if (query != null && query.contains("watch=true")) {
            return "WATCH";
        }
        return request.method();
    }

    /**
     * The resource (and subresource) of a path: {@code /apis/g/v/namespaces/ns/clonesets/name/status} is
     * {@code clonesets/status}; a list or create has no name.
     */
    static String resource(String path) {
        String[] parts = path.split("/");
        int i = parts.length > 1 && parts[1].equals("api") ? 3 : 4;
        if (i < parts.length && parts[i].equals("namespaces") && i + 2 < parts.length) {
            i += 2;
        }
        if (i >= parts.length) {
            return path.startsWith("/apis") || path.startsWith("/api") ? "(discovery)" : path;
        }
        String resource = parts[i];
        return i + 2 < parts.length ? resource + "/" + parts[i + 2] : resource;
    }

    /** Counts per verb and resource, sorted; and resets them (one phase at a time). */
    String drain() {
        Map<String, String> lines = new TreeMap<>();
        long total = 0;
        for (Map.Entry<String, LongAdder> e : counts.entrySet()) {
            long n = e.getValue().sumThenReset();
            if (n > 0) {
                total += n;
                lines.put(e.getKey(), e.getKey() + ": " + n);
            }
        }
        return "requests " + total + ": " + String.join(", ", lines.values());
    }
}
