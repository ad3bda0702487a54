package dev.kruisevertx.workloadspread;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.Comparator;

/**
 * Kubernetes' {@code controller.ActivePods} order, the pods to delete first coming first: unassigned before
 * assigned; Pending before Unknown before Running; not ready before ready; ready for a shorter time first; more
 * restarts first; newer first. Unlike the ReplicaSet's scale-down rank it ignores the deletion cost (that is what
 * WorkloadSpread sets from it).
 */
public final class ActivePodsOrder implements Comparator<Pod> {
    public static final ActivePodsOrder INSTANCE = new ActivePodsOrder();

    private ActivePodsOrder() {
    }

    @Override
    public int compare(Pod a, Pod b) {
        String na = node(a);
        String nb = node(b);
        if (!na.equals(nb) && (na.isEmpty() || nb.isEmpty())) {
            return na.isEmpty() ? -1 : 1;
        }
        int phase = Integer.compare(phaseOrdinal(a), phaseOrdinal(b));
        if (phase != 0) {
            return phase;
        }
        boolean ra = Pods.isReady(a);
        boolean rb = Pods.isReady(b);
        if (ra != rb) {
            return ra ? 1 : -1;
        }
        if (ra) {
            int t = laterOrMissingFirst(Pods.readySince(a), Pods.readySince(b));
            if (t != 0) {
                return t;
            }
        }
        int restarts = Integer.compare(Pods.maxRestarts(b), Pods.maxRestarts(a));
        if (restarts != 0) {
            return restarts;
        }
        return laterOrMissingFirst(Pods.creationTime(a), Pods.creationTime(b));
    }

    /** Go's {@code afterOrZero}: a zero time first, then the later one. */
    private static int laterOrMissingFirst(Instant a, Instant b) {
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
        String phase = Pods.phase(pod);
        if ("Unknown".equals(phase)) {
            return 1;
        }
        if ("Running".equals(phase)) {
            return 2;
        }
        // Pending and anything else rank lowest, as a missing map entry does in Go.
        return 0;
    }
}
