package dev.kruisevertx.sim.progress;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.cache.InformerHandlers;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Prints one line per change of the watched kinds' readiness (e.g. for {@code demo}):
 * {@code "CloneSet default/sample: 3/5 ready, 5/5 updated"}, {@code "Pod default/sample-x2b4c deleted"}.
 * Lines go to a consumer, from fabric8's informer threads. Starting blocks until the informers are running:
 * call {@link #start} off the event loop.
 */
public final class ProgressReporter implements AutoCloseable {
    /** A kind to follow, by apiVersion and kind (e.g. {@code "apps.kruise.io/v1alpha1", "CloneSet"}). */
    public record Watched(String apiVersion, String kind) {
    }

    private final KubernetesClient client;
    private final String namespace;
    private final Consumer<String> out;
    private final Map<String, String> lastLine = new ConcurrentHashMap<>();
    private final Map<String, Readiness> current = new ConcurrentHashMap<>();
    private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();

    /** {@code namespace} null follows all namespaces. */
    public ProgressReporter(KubernetesClient client, String namespace, Consumer<String> out) {
        this.client = client;
        this.namespace = namespace;
        this.out = out;
    }

    public ProgressReporter start(List<Watched> kinds) {
        for (Watched w : kinds) {
            var resources = client.genericKubernetesResources(w.apiVersion(), w.kind());
            var scoped = namespace == null ? resources.inAnyNamespace() : resources.inNamespace(namespace);
            informers.add(scoped.inform(InformerHandlers.changesAndDeletes(obj -> report(w, obj), obj -> {
                String key = key(w, obj);
                lastLine.remove(key);
                current.remove(key);
                out.accept(w.kind() + " " + name(obj) + " deleted");
            }), 0));
        }
        return this;
    }

    private void report(Watched w, GenericKubernetesResource obj) {
        JsonNode tree = Serialization.jsonMapper().valueToTree(obj);
        Readiness r = Readiness.of(tree);
        String key = key(w, obj);
        current.put(key, r);
        String line = w.kind() + " " + name(obj) + ": " + r.summary();
        if (!line.equals(lastLine.put(key, line))) {
            out.accept(line);
        }
    }

    private static String key(Watched w, GenericKubernetesResource o) {
        return w.apiVersion() + "/" + w.kind() + "/" + name(o);
    }

    private static String name(GenericKubernetesResource o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null ? o.getMetadata().getName() : ns + "/" + o.getMetadata().getName();
    }

    /** The objects seen so far that are not ready, with their summaries (empty when everything converged). */
    public Map<String, String> notReady() {
        Map<String, String> out = new java.util.TreeMap<>();
        current.forEach((k, r) -> {
            if (!r.ready()) {
                out.put(k, r.summary());
            }
        });
        return out;
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
    }
}
