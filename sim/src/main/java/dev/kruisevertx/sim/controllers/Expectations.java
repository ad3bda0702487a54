package dev.kruisevertx.sim.controllers;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * kube-controller-manager's expectations: after creating or deleting children a controller waits until its informer
 * has seen those writes before deciding again, so a stale cache never makes it create or delete twice. Unlike kube's
 * counters these remember the children by name and are checked against the cache itself, so no event is needed to
 * settle them; an expectation older than {@link #TTL} is dropped (kube's 5 minutes, shorter here as nothing is slow).
 * Used from the controllers' single thread only.
 */
final class Expectations {
    static final Duration TTL = Duration.ofSeconds(30);

    private record Pending(String namespace, String name, String uid, Instant since) {
        boolean isCreate() {
            return uid == null;
        }
    }

    private final Map<String, List<Pending>> byOwner = new HashMap<>();

    void expectCreate(String owner, String namespace, String name) {
        byOwner.computeIfAbsent(owner, k -> new ArrayList<>()).add(new Pending(namespace, name, null, Instant.now()));
    }

    void expectDelete(String owner, HasMetadata child) {
        byOwner.computeIfAbsent(owner, k -> new ArrayList<>()).add(new Pending(child.getMetadata().getNamespace(),
                child.getMetadata().getName(), child.getMetadata().getUid(), Instant.now()));
    }

    /** Whether the cache ({@code lookup(namespace, name)}) shows every write made for {@code owner}. */
    boolean satisfied(String owner, BiFunction<String, String, ? extends HasMetadata> lookup) {
        List<Pending> pending = byOwner.get(owner);
        if (pending == null) {
            return true;
        }
        Instant expired = Instant.now().minus(TTL);
        pending.removeIf(p -> p.since().isBefore(expired) || seen(p, lookup.apply(p.namespace(), p.name())));
        if (pending.isEmpty()) {
            byOwner.remove(owner);
            return true;
        }
        return false;
    }

    private static boolean seen(Pending p, HasMetadata cached) {
        if (p.isCreate()) {
            return cached != null;
        }
        return cached == null || !p.uid().equals(cached.getMetadata().getUid())
                || cached.getMetadata().getDeletionTimestamp() != null;
    }

    void forget(String owner) {
        byOwner.remove(owner);
    }
}
