package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.sidecarset.SidecarPodState;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SidecarSet's promise during an in-place sidecar upgrade ({@value #MAX_UNAVAILABLE}), checked on every pod event:
 * the pods a SidecarSet injected that already record its current hash but are unavailable (not running and ready, a
 * sidecar still running another image than its spec, or a hot-upgrade idle container not on the empty image) never
 * exceed its {@code updateStrategy.maxUnavailable} (default 1; a percentage of its pods, rounded up). Watch
 * {@link InvariantChecker#SIDECARSET_OBJECTS} for it.
 */
public final class SidecarSetInvariant implements Invariant {
    public static final String MAX_UNAVAILABLE = "sidecarset-max-unavailable";

    private final Map<String, SidecarSet> sets = new HashMap<>();
    private final Map<String, Pod> pods = new HashMap<>();

    @Override
    public String name() {
        return MAX_UNAVAILABLE;
    }

    @Override
    public void onObject(PodEvent.Type type, JsonNode object, long atMillis, Violations out) {
        if (!"SidecarSet".equals(object.path("kind").asText())) {
            return;
        }
        String name = object.at("/metadata/name").asText();
        if (type == PodEvent.Type.DELETED) {
            sets.remove(name);
        } else {
            sets.put(name, ApiJson.serialization().convertValue(object, SidecarSet.class));
        }
    }

    @Override
    public void onPod(PodEvent event, ClusterView view, Violations out) {
        String uid = ClusterView.uid(event.pod());
        if (event.type() == PodEvent.Type.DELETED) {
            pods.remove(uid);
            return;
        }
        Pod pod = ApiJson.serialization().convertValue(event.pod(), Pod.class);
        pods.put(uid, pod);
        for (SidecarSet set : sets.values()) {
            if (SidecarPodState.injected(pod, set.getMetadata().getName())) {
                check(set, event.atMillis(), out);
            }
        }
    }

    private void check(SidecarSet set, long at, Violations out) {
        List<Pod> mine = new ArrayList<>();
        for (Pod p : pods.values()) {
            if (SidecarPodState.injected(p, set.getMetadata().getName()) && ClusterView.active(ApiJson.serialization()
                    .convertValue(p, JsonNode.class))) {
                mine.add(p);
            }
        }
        var strategy = set.getSpec() == null ? null : set.getSpec().getUpdateStrategy();
        int budget = strategy == null || strategy.getMaxUnavailable() == null ? 1
                : IntOrPercent.scaledValue(strategy.getMaxUnavailable(), mine.size(), true);
        List<String> unavailable = new ArrayList<>();
        for (Pod p : mine) {
            if (SidecarPodState.updated(p, set)
                    && (!SidecarPodState.consistent(p, set, null) || !SidecarPodState.ready(p, set))) {
                unavailable.add(p.getMetadata().getName());
            }
        }
        if (unavailable.size() > budget) {
            unavailable.sort(null);
            out.report(new Violation(MAX_UNAVAILABLE, set.getMetadata().getName(), unavailable.size()
                    + " upgraded pods unavailable, maxUnavailable allows " + budget + " (" + String.join(", ", unavailable)
                    + ")", at));
        }
    }
}
