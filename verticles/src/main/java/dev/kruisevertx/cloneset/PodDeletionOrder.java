package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Which pods go first when a CloneSet scales down: the first in this order is deleted first. OpenKruise's
 * ranking, step by step: unassigned before assigned; Pending before Unknown before Running; unavailable before
 * available and not ready before ready; lower {@code controller.kubernetes.io/pod-deletion-cost} first; higher
 * spread rank first (pods crowding a node); ready for a shorter time first; more container restarts first;
 * newer first.
 */
public final class PodDeletionOrder implements Comparator<Pod> {
    private final ToDoubleFunction<Pod> rank;
    private final Predicate<Pod> available;

    /**
     * @param rank      spread rank of a pod (higher goes first); null ranks every pod 0
     * @param available availability test; null skips that step (readiness still counts)
     */
    public PodDeletionOrder(ToDoubleFunction<Pod> rank, Predicate<Pod> available) {
        this.rank = rank;
        this.available = available;
    }

    /** The order with the same-node spread rank of {@code pods} and the CloneSet's availability. */
    public static PodDeletionOrder forPods(List<Pod> pods, int minReadySeconds, Instant now) {
        return forPods(pods, minReadySeconds, now, List.of(), name -> null);
    }

    /**
     * The order OpenKruise uses to scale down {@code pods}: with topology keys (the template's spread
     * constraints), ranked by {@link SpreadConstraintRanker} on the nodes' labels; without, by the same-node rank.
     *
     * @param nodeLabels labels of a node by name, null when the node is unknown
     */
    public static PodDeletionOrder forPods(List<Pod> pods, int minReadySeconds, Instant now, List<String> topologyKeys,
                                           Function<String, Map<String, String>> nodeLabels) {
        ToDoubleFunction<Pod> rank = topologyKeys.isEmpty() ? sameNodeRank(pods)
                : SpreadConstraintRanker.rank(pods, topologyKeys, nodeLabels);
        return new PodDeletionOrder(rank, p -> Pods.isServing(p, minReadySeconds, now));
    }

    /** Sorts a copy of {@code pods} and returns the first {@code count}. */
    public List<Pod> first(List<Pod> pods, int count) {
        List<Pod> sorted = count < pods.size() ? sort(pods) : new ArrayList<>(pods);
        return sorted.subList(0, Math.min(count, sorted.size()));
    }

    /** A sorted copy; every pod's sort key is computed once, not once per comparison. */
    public List<Pod> sort(List<Pod> pods) {
        List<Keyed> keyed = new ArrayList<>(pods.size());
        for (Pod p : pods) {
            keyed.add(new Keyed(p, keyOf(p)));
        }
        keyed.sort((x, y) -> compareKeys(x.key(), y.key()));
        List<Pod> out = new ArrayList<>(pods.size());
        for (Keyed k : keyed) {
            out.add(k.pod());
        }
        return out;
    }

    /** Sorts indexes into {@code pods} by this order, computing each pod's key once. */
    public List<Integer> sortIndexes(List<Pod> pods, List<Integer> indexes) {
        Map<Integer, Key> keys = new HashMap<>();
        for (int i : indexes) {
            keys.put(i, keyOf(pods.get(i)));
        }
        List<Integer> out = new ArrayList<>(indexes);
        out.sort((x, y) -> compareKeys(keys.get(x), keys.get(y)));
        return out;
    }

    private record Keyed(Pod pod, Key key) {
    }

    /** Everything the order looks at, read from the pod once. */
    private record Key(boolean unassigned, String node, int phase, boolean available, boolean ready, int cost,
                       double rank, Instant readySince, int restarts, Instant created) {
    }

    private Key keyOf(Pod p) {
        boolean ready = Pods.isReady(p);
        return new Key(node(p).isEmpty(), node(p), phaseOrdinal(p), available != null && available.test(p), ready,
                deletionCost(p), rank == null ? 0 : rank.applyAsDouble(p), ready ? Pods.readySince(p) : null,
                Pods.maxRestarts(p), Pods.creationTime(p));
    }

    @Override
    public int compare(Pod a, Pod b) {
        return compareKeys(keyOf(a), keyOf(b));
    }

    private int compareKeys(Key a, Key b) {
        if (!a.node().equals(b.node()) && (a.unassigned() || b.unassigned())) {
            return a.unassigned() ? -1 : 1;
        }
        int phase = Integer.compare(a.phase(), b.phase());
        if (phase != 0) {
            return phase;
        }
        if (available != null && a.available() != b.available()) {
            return a.available() ? 1 : -1;
        }
        if (a.ready() != b.ready()) {
            return a.ready() ? 1 : -1;
        }
        int cost = Integer.compare(a.cost(), b.cost());
        if (cost != 0) {
            return cost;
        }
        int r = Double.compare(b.rank(), a.rank());
        if (r != 0) {
            return r;
        }
        if (a.ready() && b.ready()) {
            int t = laterFirst(a.readySince(), b.readySince());
            if (t != 0) {
                return t;
            }
        }
        int restarts = Integer.compare(b.restarts(), a.restarts());
        if (restarts != 0) {
            return restarts;
        }
        return laterFirst(a.created(), b.created());
    }

    /** A missing time sorts first, then the later time. */
    private static int laterFirst(Instant a, Instant b) {
        if (a == null || b == null) {
            return a == null && b == null ? 0 : a == null ? -1 : 1;
        }
        return b.compareTo(a);
    }

    private static String node(Pod pod) {
        String n = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return n == null ? "" : n;
    }

    private static int phaseOrdinal(Pod pod) {
        return switch (java.util.Objects.requireNonNullElse(Pods.phase(pod), "")) {
            case "Unknown" -> 1;
            case "Running" -> 2;
            // Pending and anything unexpected rank lowest, as a missing map entry does in Go.
            default -> 0;
        };
    }

    /**
     * The pod-deletion-cost annotation as an int32; 0 when absent or invalid (a leading '+' or leading zeros are
     * invalid, as in Kubernetes).
     */
    public static int deletionCost(Pod pod) {
        String value = Pods.annotations(pod).get(WellKnown.POD_DELETION_COST_ANNOTATION);
        if (value == null || value.isEmpty()) {
            return 0;
        }
        char first = value.charAt(0);
        boolean validStart = first == '-' || value.equals("0") || (first >= '1' && first <= '9');
        if (!validStart) {
            return 0;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * OpenKruise's same-node ranker: on every node that runs more than one of the pods, all but the pod the plain
     * order would keep longest get a rank, the highest for the one it would delete first; so a scale-down spreads
     * the remaining pods over nodes.
     */
    public static ToDoubleFunction<Pod> sameNodeRank(List<Pod> pods) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : pods) {
            String n = node(p);
            if (!n.isEmpty()) {
                byNode.computeIfAbsent(n, k -> new ArrayList<>()).add(p);
            }
        }
        Map<Pod, Double> ranks = new IdentityHashMap<>();
        PodDeletionOrder plain = new PodDeletionOrder(null, null);
        for (List<Pod> onNode : byNode.values()) {
            if (onNode.size() <= 1) {
                continue;
            }
            onNode = plain.sort(onNode);
            int ranked = onNode.size() - 1;
            for (int i = 0; i < ranked; i++) {
                ranks.put(onNode.get(i), (double) (ranked - i));
            }
        }
        return p -> ranks.getOrDefault(p, 0.0);
    }
}
