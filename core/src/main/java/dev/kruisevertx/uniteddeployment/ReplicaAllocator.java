package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.Subset;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSpec;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many replicas each subset of a UnitedDeployment gets, exactly as OpenKruise v1.9.0's allocators decide it.
 * Pure: the spec and the observed subsets in, the replicas per subset (in topology order) out.
 *
 * <p>One of four rules applies, chosen in OpenKruise's order:
 * <ol>
 *   <li>Adaptive with {@code reserveUnschedulablePods}: min/max capacities; an unschedulable subset keeps its
 *       replicas but only its healthy pods count, so the rest is given again to later subsets (temporary pods);</li>
 *   <li>Adaptive: min/max capacities, where an unschedulable subset is held to its ready pods and a schedulable one
 *       never goes below its ready pods;</li>
 *   <li>any subset with {@code minReplicas}/{@code maxReplicas}: minimums in topology order, then up to each
 *       maximum in topology order;</li>
 *   <li>otherwise fixed {@code replicas} (int or percentage) where given and the rest spread evenly over the other
 *       subsets, the remainder going to the subsets that already have the most replicas.</li>
 * </ol>
 */
public final class ReplicaAllocator {
    private static final int NO_LIMIT = Integer.MAX_VALUE;

    private ReplicaAllocator() {
    }

    /**
     * The next replicas of every subset in {@code spec.topology.subsets}.
     *
     * @param existing the subsets that have a workload, by subset name; others count as new and schedulable
     * @throws AllocationException when the spec asks for an impossible split (OpenKruise's messages)
     */
    public static Map<String, Integer> allocate(UnitedDeploymentSpec spec, Map<String, SubsetState> existing) {
        UnitedDeploymentScheduleStrategy schedule = spec.topology().scheduleStrategy();
        if (schedule.reservationMode()) {
            return reservation(spec, existing);
        }
        if (schedule.adaptiveMode()) {
            return adaptive(spec, existing);
        }
        for (Subset s : spec.topology().subsets()) {
            if (s.getMinReplicas() != null || s.getMaxReplicas() != null) {
                return minMax(spec);
            }
        }
        return specific(spec, existing);
    }

    /** The rule {@link #allocate} applies, for debug plans. */
    public static String ruleOf(UnitedDeploymentSpec spec) {
        UnitedDeploymentScheduleStrategy schedule = spec.topology().scheduleStrategy();
        if (schedule.reservationMode()) {
            return "reservation";
        }
        if (schedule.adaptiveMode()) {
            return "adaptive";
        }
        for (Subset s : spec.topology().subsets()) {
            if (s.getMinReplicas() != null || s.getMaxReplicas() != null) {
                return "minMax";
            }
        }
        return "specific";
    }

    /** The split cannot be made; the message says why. */
    public static final class AllocationException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AllocationException(String message) {
            super(message);
        }
    }

    // ---- fixed replicas, the rest spread evenly

    private static final class Slot {
        final String name;
        int replicas;
        boolean specified;

        Slot(String name, int replicas) {
            this.name = name;
            this.replicas = replicas;
        }
    }

    private static Map<String, Integer> specific(UnitedDeploymentSpec spec, Map<String, SubsetState> existing) {
        List<Slot> slots = new ArrayList<>();
        for (Subset s : spec.topology().subsets()) {
            SubsetState state = existing.get(s.getName());
            slots.add(new Slot(s.getName(), state == null ? 0 : state.specReplicas()));
        }
        // Fewest replicas first, then by name: walking from the end gives the remainder to the biggest subsets.
        slots.sort(Comparator.<Slot>comparingInt(x -> x.replicas).thenComparing(x -> x.name));
        int expected = spec.getReplicas() == null ? SubsetReplicas.UNSET : spec.getReplicas();
        Map<String, Integer> specified = new HashMap<>();
        for (Subset s : spec.topology().subsets()) {
            if (s.getReplicas() == null) {
                continue;
            }
            try {
                specified.put(s.getName(), SubsetReplicas.parse(expected, s.getReplicas()));
            } catch (IllegalArgumentException e) {
                // OpenKruise logs and ignores a subset whose replicas cannot be read: it shares the rest.
            }
        }
        validateSpecified(expected, specified, slots);
        int specifiedSum = 0;
        int specifiedCount = 0;
        for (Slot slot : slots) {
            Integer r = specified.get(slot.name);
            if (r != null) {
                specifiedSum += r;
                slot.replicas = r;
                slot.specified = true;
                specifiedCount++;
            }
        }
        int left = slots.size() - specifiedCount;
        if (left != 0) {
            int allocatable = expected - specifiedSum;
            int average = allocatable / left;
            int remainder = allocatable % left;
            for (int i = slots.size() - 1; i >= 0 && left > 0; i--) {
                Slot slot = slots.get(i);
                if (slot.specified) {
                    continue;
                }
                if (remainder > 0) {
                    slot.replicas = average + 1;
                    remainder--;
                } else {
                    slot.replicas = average;
                }
                left--;
            }
        }
        Map<String, Integer> bySlot = new HashMap<>();
        slots.forEach(s -> bySlot.put(s.name, s.replicas));
        return inTopologyOrder(spec, bySlot);
    }

    private static void validateSpecified(int expected, Map<String, Integer> specified, List<Slot> slots) {
        int sum = specified.values().stream().mapToInt(Integer::intValue).sum();
        long count = slots.stream().filter(s -> specified.containsKey(s.name)).count();
        if (expected != SubsetReplicas.UNSET) {
            if (sum > expected) {
                throw new AllocationException("specified subsets' replica (" + sum
                        + ") is greater than UnitedDeployment replica (" + expected + ")");
            }
            if (sum < expected && count == slots.size()) {
                throw new AllocationException("specified subsets' replica (" + sum
                        + ") is less than UnitedDeployment replica (" + expected + ")");
            }
        } else if (count != slots.size()) {
            throw new AllocationException("all subsets must be specified when UnitedDeployment replica is unspecified");
        }
    }

    // ---- min/max capacities

    private record Bounds(Map<String, Integer> min, Map<String, Integer> max) {
    }

    private static Bounds bounds(int replicas, List<Subset> subsets) {
        Map<String, Integer> min = new HashMap<>();
        Map<String, Integer> max = new HashMap<>();
        for (int i = 0; i < subsets.size(); i++) {
            Subset s = subsets.get(i);
            int lo = SubsetReplicas.parseOr(replicas, s.getMinReplicas(), 0);
            int hi = SubsetReplicas.parseOr(replicas, s.getMaxReplicas(), NO_LIMIT);
            if (lo > hi) {
                throw new AllocationException("subset[" + i + "].maxReplicas(" + hi
                        + ") must be more than or equal to minReplicas(" + lo + ")");
            }
            min.put(s.getName(), lo);
            max.put(s.getName(), hi);
        }
        return new Bounds(min, max);
    }

    private static int replicasOrZero(UnitedDeploymentSpec spec) {
        return spec.getReplicas() == null ? 0 : spec.getReplicas();
    }

    private static Map<String, Integer> minMax(UnitedDeploymentSpec spec) {
        int replicas = replicasOrZero(spec);
        Bounds b = bounds(replicas, spec.topology().subsets());
        return byMinMax(replicas, b, spec.topology().subsets());
    }

    private static Map<String, Integer> adaptive(UnitedDeploymentSpec spec, Map<String, SubsetState> existing) {
        int replicas = replicasOrZero(spec);
        Bounds b = bounds(replicas, spec.topology().subsets());
        for (Subset s : spec.topology().subsets()) {
            String name = s.getName();
            int lo = b.min().get(name);
            int hi = b.max().get(name);
            SubsetState state = existing.get(name);
            boolean unschedulable = state != null && state.unschedulable();
            int ready = state == null ? 0 : state.readyReplicas();
            if (unschedulable) {
                // An unschedulable subset keeps exactly the pods that run.
                lo = Math.max(ready, lo);
                hi = Math.min(ready, hi);
            }
            if (!unschedulable && ready > lo) {
                // Pods that run stay where they are: never scale a schedulable subset below them.
                lo = Math.min(ready, hi);
            }
            b.min().put(name, lo);
            b.max().put(name, hi);
        }
        return byMinMax(replicas, b, spec.topology().subsets());
    }

    private static Map<String, Integer> byMinMax(int replicas, Bounds b, List<Subset> subsets) {
        Map<String, Integer> out = new LinkedHashMap<>();
        int allocated = 0;
        for (Subset s : subsets) {
            int add = Math.max(Math.min(b.min().get(s.getName()), replicas - allocated), 0);
            out.put(s.getName(), add);
            allocated += add;
        }
        if (allocated >= replicas) {
            return out;
        }
        for (Subset s : subsets) {
            int add = Math.max(Math.min(b.max().get(s.getName()) - b.min().get(s.getName()), replicas - allocated), 0);
            out.merge(s.getName(), add, Integer::sum);
            allocated += add;
        }
        return out;
    }

    // ---- Adaptive with reservation

    /**
     * One subset during a reservation allocation. {@code maxAllocatable} is how many more replicas can be expected
     * to run there: unlimited for a schedulable subset, its healthy pods for one that is not; once it goes negative
     * the excess is reserved pods, which do not count as allocated, so later subsets get temporary pods for them.
     */
    private static final class Reservation {
        int maxAllocatable;
        int allocated;

        Reservation(int maxAllocatable) {
            this.maxAllocatable = maxAllocatable;
        }

        /** Raises the subset towards {@code to} within {@code rest}; returns how much of {@code rest} it used. */
        int allocate(int to, int rest) {
            int add = Math.min(to - allocated, rest);
            allocated += add;
            maxAllocatable -= add;
            if (maxAllocatable < 0) {
                return Math.max(0, add + maxAllocatable);
            }
            return add;
        }
    }

    private static Map<String, Integer> reservation(UnitedDeploymentSpec spec, Map<String, SubsetState> existing) {
        int replicas = replicasOrZero(spec);
        List<Subset> subsets = spec.topology().subsets();
        Bounds b = bounds(replicas, subsets);
        Map<String, Reservation> records = new LinkedHashMap<>();
        for (Subset s : subsets) {
            SubsetState state = existing.get(s.getName());
            records.put(s.getName(), new Reservation(state == null || state.allocatable() ? NO_LIMIT
                    : state.specReplicas() - state.reservedPods()));
        }
        int rest = replicas;
        boolean done = false;
        for (Subset s : subsets) {
            rest -= records.get(s.getName()).allocate(b.min().get(s.getName()), rest);
            if (rest <= 0) {
                done = true;
                break;
            }
        }
        if (!done) {
            for (Subset s : subsets) {
                SubsetState state = existing.get(s.getName());
                int to = state == null || !state.unschedulable() ? b.max().get(s.getName()) : state.specReplicas();
                rest -= records.get(s.getName()).allocate(to, rest);
                if (rest <= 0) {
                    break;
                }
            }
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        records.forEach((name, r) -> out.put(name, r.allocated));
        return out;
    }

    private static Map<String, Integer> inTopologyOrder(UnitedDeploymentSpec spec, Map<String, Integer> values) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Subset s : spec.topology().subsets()) {
            out.put(s.getName(), values.get(s.getName()));
        }
        return out;
    }
}
