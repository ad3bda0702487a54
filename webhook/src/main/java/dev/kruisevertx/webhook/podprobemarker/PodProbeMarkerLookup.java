package dev.kruisevertx.webhook.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;

import java.util.List;
import java.util.Optional;

/**
 * The PodProbeMarkers {@code /mutate-pod} reads for the serverless step (gate EnablePodProbeMarkerOnServerless). The
 * manager wires the shared watch cache; lookups run on the event loop, so they must be in-memory.
 */
public interface PodProbeMarkerLookup {
    /** No PodProbeMarkers. */
    PodProbeMarkerLookup NONE = new PodProbeMarkerLookup() {
        @Override
        public List<PodProbeMarker> inNamespace(String namespace) {
            return List.of();
        }

        @Override
        public Optional<PodProbeMarker> get(String namespace, String name) {
            return Optional.empty();
        }
    };

    /** The PodProbeMarkers of {@code namespace} (the cache's objects: never modified). */
    List<PodProbeMarker> inNamespace(String namespace);

    /** One PodProbeMarker by name, empty when not known. */
    Optional<PodProbeMarker> get(String namespace, String name);

    /** A lookup over in-memory lists, e.g. a test's fixed markers. */
    static PodProbeMarkerLookup of(List<PodProbeMarker> markers) {
        return new PodProbeMarkerLookup() {
            @Override
            public List<PodProbeMarker> inNamespace(String namespace) {
                return markers.stream().filter(m -> namespace != null
                        && namespace.equals(m.getMetadata().getNamespace())).toList();
            }

            @Override
            public Optional<PodProbeMarker> get(String namespace, String name) {
                return inNamespace(namespace).stream().filter(m -> m.getMetadata().getName().equals(name)).findFirst();
            }
        };
    }
}
