package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * An invariant over a workload's pods as a whole, judged again whenever the workload or one of its pods changes.
 * A breach is reported once, and again only after the workload was back within bounds.
 */
abstract class WorkloadPodsInvariant extends NamedInvariant {
    private final Set<String> breached = new HashSet<>();

    WorkloadPodsInvariant(String name) {
        super(name);
    }

    @Override
    public final void onPod(PodEvent event, ClusterView view, Violations out) {
        String owner = ClusterView.controllerUid(event.pod());
        if (owner != null && view.workload(owner) != null) {
            check(owner, view, event.atMillis(), out);
        }
    }

    @Override
    public final void onWorkload(WorkloadEvent event, ClusterView view, Violations out) {
        check(ClusterView.uid(event.workload()), view, event.atMillis(), out);
    }

    /** Judges the workload {@code uid} (which may be gone) as the view stands at {@code now}. */
    abstract void check(String uid, ClusterView view, long now, Violations out);

    /** Reports {@code what} against workload {@code w} if {@code breach} starts a new breach. */
    final void judge(String uid, JsonNode w, boolean breach, Supplier<String> what, long now, Violations out) {
        if (!breach) {
            breached.remove(uid);
        } else if (breached.add(uid)) {
            out.report(new Violation(name(), ClusterView.key(w), what.get(), now));
        }
    }

    /** Forgets a breach in progress, so the next one is reported even without a return within bounds first. */
    final void forgetBreach(String uid) {
        breached.remove(uid);
    }
}
