package dev.kruisevertx.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** The key a controller reconciles: namespace (empty for cluster-scoped objects) and name. */
public record Request(String namespace, String name) {
    public Request {
        namespace = namespace == null ? "" : namespace;
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a reconcile request needs a name");
        }
    }

    public static Request of(HasMetadata object) {
        return new Request(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** Parses {@code namespace/name} or {@code name}. */
    public static Request parse(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? new Request("", key) : new Request(key.substring(0, slash), key.substring(slash + 1));
    }

    public String key() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    @Override
    public String toString() {
        return key();
    }
}
