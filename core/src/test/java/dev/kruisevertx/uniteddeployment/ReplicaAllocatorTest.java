package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.AdaptiveUnitedDeploymentStrategy;
import dev.kruisevertx.api.apps.v1alpha1.Subset;
import dev.kruisevertx.api.apps.v1alpha1.Topology;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentScheduleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSpec;
import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The replica allocation as OpenKruise v1.9.0 pins it: every case of its allocator tests (fixed replicas spread
 * evenly, min/max capacities, Adaptive, Adaptive with reservation) as a table of facts, plus cases of our own for
 * percentages and the rule choice.
 */
class ReplicaAllocatorTest {

    // ---- fixed replicas: subsets t1..tN, their current replicas, the fixed ones, the expected split

    static Stream<Arguments> fixedCases() {
        return Stream.of(
                // OpenKruise TestScaleReplicas: nothing fixed, the rest spread, the remainder to the biggest subsets
                fixed("scale 9 to 5", 5, "t1=1,t2=4,t3=2,t4=2", "", "t1=1,t2=2,t3=1,t4=1"),
                fixed("scale one subset to 0", 0, "t1=2", "", "t1=0"),
                fixed("scale 9 to 17", 17, "t1=1,t2=4,t3=2,t4=2", "", "t1=4,t2=5,t3=4,t4=4"),
                fixed("scale 10 to 9", 9, "t1=2,t2=4,t3=2,t4=2", "", "t1=2,t2=3,t3=2,t4=2"),
                fixed("scale 10 to 19", 19, "t1=0,t2=10", "", "t1=9,t2=10"),
                fixed("scale 10 to 21", 21, "t1=0,t2=10", "", "t1=10,t2=11"),
                // OpenKruise TestSpecifyValidReplicas
                fixed("two fixed, rest spread", 27, "t1=1,t2=4,t3=2,t4=2", "t1=4,t3=4", "t1=4,t2=10,t3=4,t4=9"),
                fixed("fixed take everything", 8, "t1=2,t2=4,t3=2,t4=2", "t1=4,t3=4", "t1=4,t2=0,t3=4,t4=0"),
                fixed("all fixed", 16, "t1=2,t2=4,t3=2,t4=2", "t1=4,t2=4,t3=4,t4=4", "t1=4,t2=4,t3=4,t4=4"),
                fixed("three fixed, one takes the rest", 10, "t1=4,t2=2,t3=2,t4=2", "t1=1,t2=2,t3=3",
                        "t1=1,t2=2,t3=3,t4=4"),
                fixed("all fixed, sum equal", 10, "t1=4,t2=2,t3=2,t4=2", "t1=1,t2=2,t3=3,t4=4", "t1=1,t2=2,t3=3,t4=4"),
                fixed("all fixed, replicas unset", null, "t1=4,t2=2,t3=2,t4=2", "t1=1,t2=2,t3=3,t4=4",
                        "t1=1,t2=2,t3=3,t4=4"),
                // OpenKruise TestSpecifyInvalidReplicas
                fixed("all fixed, sum below replicas", 14, "t1=10,t2=4", "t1=6,t2=6",
                        "error: specified subsets' replica (12) is less than UnitedDeployment replica (14)"),
                fixed("fixed above replicas", 14, "t1=10,t2=4", "t1=10,t2=11",
                        "error: specified subsets' replica (21) is greater than UnitedDeployment replica (14)"),
                // ours
                fixed("replicas unset and one subset not fixed", null, "t1=1,t2=1", "t1=1", "error: all subsets must "
                        + "be specified when UnitedDeployment replica is unspecified"),
                fixed("percentages round half up", 5, "a=0,b=0,c=0", "a=50%,b=30%", "a=3,b=2,c=0"),
                fixed("percentage of 3 rounds 1.5 to 2", 3, "a=0,b=0", "a=50%", "a=2,b=1"),
                fixed("unreadable percentage shares the rest", 4, "a=0,b=0", "a=x%", "a=2,b=2"),
                fixed("new subsets start empty, remainder from the last name", 5, "", "", "t1=1,t2=2,t3=2"),
                fixed("replicas unset and nothing fixed", null, "t1=1", "", "error: all subsets must be specified when "
                        + "UnitedDeployment replica is unspecified"));
    }

    static Arguments fixed(String name, Integer replicas, String current, String fixed, String expected) {
        return Arguments.of(name, replicas, current, fixed, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixedCases")
    void fixedReplicasAndEvenSpread(String name, Integer replicas, String current, String fixed, String expected) {
        Map<String, String> fixedBy = pairs(fixed);
        Map<String, String> currentBy = pairs(current);
        List<String> names = new ArrayList<>(currentBy.keySet());
        if (names.isEmpty()) {
            names.addAll(pairs(expected).keySet());
        }
        UnitedDeploymentSpec spec = spec(replicas, null);
        for (String n : names) {
            Subset s = subset(n);
            if (fixedBy.containsKey(n)) {
                s.setReplicas(intOrString(fixedBy.get(n)));
            }
            spec.getTopology().getSubsets().add(s);
        }
        Map<String, SubsetState> existing = new LinkedHashMap<>();
        currentBy.forEach((n, r) -> existing.put(n, SubsetState.of(Integer.parseInt(r))));
        check(expected, spec, existing);
    }

    // ---- min/max capacities (OpenKruise TestCapacityAllocator): -1 is "no maxReplicas"

    static Stream<Arguments> capacityCases() {
        return Stream.of(
                Arguments.of("sum_all_min_replicas == replicas", 10, new int[] {2, 2, 2, 2, 2},
                        new int[] {5, 5, 5, 5, -1}, new int[] {2, 2, 2, 2, 2}),
                Arguments.of("sum_all_min_replicas < replicas", 14, new int[] {2, 2, 2, 2, 2},
                        new int[] {5, 5, 5, 5, -1}, new int[] {5, 3, 2, 2, 2}),
                Arguments.of("sum_all_min_replicas > replicas", 5, new int[] {2, 2, 2, 2, 2},
                        new int[] {5, 5, 5, 5, -1}, new int[] {2, 2, 1, 0, 0}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capacityCases")
    void minimumsFirstThenMaximumsInTopologyOrder(String name, int replicas, int[] min, int[] max, int[] expected) {
        UnitedDeploymentSpec spec = spec(replicas, null);
        for (int i = 0; i < min.length; i++) {
            Subset s = subset("subset-" + i);
            s.setMinReplicas(new IntOrString(min[i]));
            if (max[i] != -1) {
                s.setMaxReplicas(new IntOrString(max[i]));
            }
            spec.getTopology().getSubsets().add(s);
        }
        assertEquals("minMax", ReplicaAllocator.ruleOf(spec));
        assertEquals(list(expected), values(ReplicaAllocator.allocate(spec, Map.of())));
    }

    @Test
    void minAboveMaxIsAnErrorNamingTheSubset() {
        UnitedDeploymentSpec spec = spec(10, null);
        Subset a = subset("a");
        a.setMinReplicas(new IntOrString(1));
        Subset b = subset("b");
        b.setMinReplicas(new IntOrString(5));
        b.setMaxReplicas(new IntOrString("20%"));
        spec.getTopology().getSubsets().addAll(List.of(a, b));
        ReplicaAllocator.AllocationException e = assertThrows(ReplicaAllocator.AllocationException.class,
                () -> ReplicaAllocator.allocate(spec, Map.of()));
        assertEquals("subset[1].maxReplicas(2) must be more than or equal to minReplicas(5)", e.getMessage());
    }

    // ---- Adaptive (OpenKruise TestDefaultAdaptiveAllocation): pending -1 is "no pending pods but unschedulable"

    static Stream<Arguments> adaptiveCases() {
        return Stream.of(
                Arguments.of("5 pending pods = maxReplicas -> 3, 7", 10, new int[] {5, 5},
                        new int[] {3, -1}, new int[] {5, -1}, new int[] {5, 0}, new int[] {3, 7}),
                Arguments.of("4 pending pods < maxReplicas -> 3, 7", 10, new int[] {5, 5},
                        new int[] {3, -1}, new int[] {5, -1}, new int[] {4, 0}, new int[] {3, 7}),
                Arguments.of("3 pending pods = minReplicas -> 3, 7", 10, new int[] {5, 5},
                        new int[] {3, -1}, new int[] {5, -1}, new int[] {3, 0}, new int[] {3, 7}),
                Arguments.of("2 pending pods < minReplicas -> 3, 7", 10, new int[] {5, 5},
                        new int[] {3, -1}, new int[] {5, -1}, new int[] {2, 0}, new int[] {3, 7}),
                Arguments.of("no pending pods -> 5, 5", 10, new int[] {5, 5},
                        new int[] {3, -1}, new int[] {5, -1}, new int[] {0, 0}, new int[] {5, 5}),
                Arguments.of("normal scale up 2-> 4", 4, new int[] {1, 1},
                        new int[] {1, -1}, new int[] {2, -1}, new int[] {0, 0}, new int[] {2, 2}),
                Arguments.of("normal scale down 4 -> 3", 3, new int[] {2, 2},
                        new int[] {1, -1}, new int[] {2, -1}, new int[] {0, 0}, new int[] {2, 1}),
                Arguments.of("normal scale down 3 -> 1", 1, new int[] {2, 1},
                        new int[] {1, -1}, new int[] {2, -1}, new int[] {0, 0}, new int[] {1, 0}),
                Arguments.of("scale down with min and pending", 3, new int[] {1, 3},
                        new int[] {1, -1}, new int[] {2, -1}, new int[] {1, 0}, new int[] {1, 2}),
                Arguments.of("scale down with only pending", 3, new int[] {1, 3},
                        new int[] {0, -1}, new int[] {2, -1}, new int[] {1, 0}, new int[] {0, 3}),
                Arguments.of("complex: start", 4, new int[] {0, 0, 0, 0},
                        new int[] {0, 0, 0, 0}, new int[] {2, -1, -1, -1}, new int[] {0, 0, 0, 0}, new int[] {2, 2, 0, 0}),
                Arguments.of("complex: found subset-1 unschedulable", 4, new int[] {2, 2, 0, 0},
                        new int[] {0, 0, 0, 0}, new int[] {2, -1, -1, -1}, new int[] {0, 2, 0, 0}, new int[] {2, 0, 2, 0}),
                Arguments.of("complex: found subset-2 unschedulable", 4, new int[] {2, 0, 2, 0},
                        new int[] {0, 0, 0, 0}, new int[] {2, -1, -1, -1}, new int[] {0, -1, 2, 0}, new int[] {2, 0, 0, 2}),
                Arguments.of("complex: scale up 4 -> 8 when unschedulable", 8, new int[] {2, 0, 0, 2},
                        new int[] {0, 0, 0, 0}, new int[] {2, -1, -1, -1}, new int[] {0, -1, -1, 0}, new int[] {2, 0, 0, 6}),
                Arguments.of("complex: scale up 4 -> 8 after recovered", 8, new int[] {2, 0, 0, 2},
                        new int[] {0, 0, 0, 0}, new int[] {2, -1, -1, -1}, new int[] {0, 0, 0, 0}, new int[] {2, 4, 0, 2}),
                Arguments.of("complex: scale down 8 -> 4 when unschedulable", 4, new int[] {2, 0, 0, 6},
                        new int[] {0, 0, 0, 0}, new int[] {-1, -1, -1, -1}, new int[] {0, 0, 0, 0}, new int[] {2, 0, 0, 2}),
                Arguments.of("complex: scale down 8 -> 4 after recovered", 4, new int[] {2, 0, 0, 6},
                        new int[] {0, 0, 0, 0}, new int[] {-1, -1, -1, -1}, new int[] {0, 0, 0, 0}, new int[] {2, 0, 0, 2}),
                // ours: a subset without a workload yet counts as schedulable and empty
                Arguments.of("new subset after an unschedulable one", 6, new int[] {3, 0},
                        new int[] {0, 0}, new int[] {-1, -1}, new int[] {-1, 0}, new int[] {3, 3}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("adaptiveCases")
    void adaptiveHoldsUnschedulableSubsetsToTheirReadyPods(String name, int replicas, int[] pods, int[] min, int[] max,
                                                            int[] pending, int[] expected) {
        UnitedDeploymentSpec spec = spec(replicas, adaptive(false));
        Map<String, SubsetState> existing = new LinkedHashMap<>();
        for (int i = 0; i < pods.length; i++) {
            spec.getTopology().getSubsets().add(bounded("subset-" + i, min[i], max[i]));
            int p = Math.max(0, pending[i]);
            existing.put("subset-" + i, new SubsetState(pods[i], pods[i] - p, pending[i] != 0, false, 0));
        }
        assertEquals("adaptive", ReplicaAllocator.ruleOf(spec));
        assertEquals(list(expected), values(ReplicaAllocator.allocate(spec, existing)));
    }

    // ---- Adaptive with reservation (OpenKruise TestReservedAdaptiveAllocation): reserved -1 is "no reserved pods
    // but still marked unschedulable"; the last subset never has maxReplicas

    static Stream<Arguments> reservationCases() {
        return Stream.of(
                Arguments.of("4 subsets, 2 each, start", 8, new int[] {1, 1, 1, 1},
                        new int[] {2, 2, 2, -1}, new int[] {0, 0, 0, 0}, new int[] {0, 0, 0, 0}, new int[] {2, 2, 2, 2}),
                Arguments.of("4 subsets, subset 1 and 2 unschedulable detected", 8, new int[] {1, 1, 1, 1},
                        new int[] {2, 2, 2, -1}, new int[] {2, 2, 2, 2}, new int[] {0, 2, 2, 0}, new int[] {2, 2, 2, 6}),
                Arguments.of("4 subsets, subset 1 and 2 starts each 1 pods", 8, new int[] {1, 1, 1, 1},
                        new int[] {2, 2, 2, -1}, new int[] {2, 2, 2, 6}, new int[] {0, 1, 1, 0}, new int[] {2, 2, 2, 4}),
                Arguments.of("4 subsets, subset 1 recovered", 8, new int[] {1, 1, 1, 1},
                        new int[] {2, 2, 2, -1}, new int[] {2, 2, 2, 4}, new int[] {0, -1, 1, 0}, new int[] {2, 2, 2, 3}),
                Arguments.of("4 subsets, all subset recovered", 8, new int[] {1, 1, 1, 1},
                        new int[] {2, 2, 2, -1}, new int[] {2, 2, 2, 3}, new int[] {0, 0, -1, 0}, new int[] {2, 2, 2, 2}),
                Arguments.of("4 subsets, part of subset 1 and 2 started, scaled to 16", 16, new int[] {2, 2, 2, 2},
                        new int[] {4, 4, 4, -1}, new int[] {2, 2, 2, 6}, new int[] {0, 1, 1, 0}, new int[] {4, 2, 2, 10}),
                Arguments.of("4 subsets, part of subset 1 and 2 started, scaled back to 8", 8, new int[] {1, 1, 1, 1},
                        new int[] {2, 2, 2, -1}, new int[] {4, 2, 2, 10}, new int[] {0, 1, 1, 0}, new int[] {2, 2, 2, 4}),
                Arguments.of("4 subsets, all of subset 1 and 2 started, already scaled to 16 replicas", 16, new int[] {2, 2, 2, 2},
                        new int[] {4, 4, 4, -1}, new int[] {4, 2, 2, 10}, new int[] {0, -1, -1, 0}, new int[] {4, 4, 4, 8}),
                Arguments.of("4 subsets, scaled to 16, new pods of subset 1 2 already started, verifying new pods", 16, new int[] {2, 2, 2, 2},
                        new int[] {4, 4, 4, -1}, new int[] {4, 4, 4, 8}, new int[] {0, 2, 2, 0}, new int[] {4, 4, 4, 8}),
                Arguments.of("4 subsets, scaled to 16, new pods of subset 1 2 already started, new pods started", 16, new int[] {2, 2, 2, 2},
                        new int[] {4, 4, 4, -1}, new int[] {4, 4, 4, 8}, new int[] {0, -1, -1, 0}, new int[] {4, 4, 4, 4}),
                Arguments.of("3 infinity subsets, start", 2, null,
                        null, new int[] {0, 0, 0}, new int[] {0, 0, 0}, new int[] {2, 0, 0}),
                Arguments.of("3 infinity subsets, found subset-0 unschedulable", 2, null,
                        null, new int[] {2, 0, 0}, new int[] {2, 0, 0}, new int[] {2, 2, 0}),
                Arguments.of("3 infinity subsets, found subset-1 unschedulable", 2, null,
                        null, new int[] {2, 2, 0}, new int[] {2, 2, 0}, new int[] {2, 2, 2}),
                Arguments.of("3 infinity subsets, 2 unschedulable, scale up to 4", 4, null,
                        null, new int[] {2, 2, 2}, new int[] {2, 2, 0}, new int[] {2, 2, 4}),
                Arguments.of("3 infinity subsets, scaled, 2 unschedulable, subset-1 recovered", 4, null,
                        null, new int[] {2, 2, 4}, new int[] {4, -1, 0}, new int[] {2, 4, 2}),
                Arguments.of("3 infinity subsets, scaled, 2 unschedulable, subset-1 started, waiting verify", 4, null,
                        null, new int[] {2, 4, 2}, new int[] {4, 2, 0}, new int[] {2, 4, 2}),
                Arguments.of("3 infinity subsets, scaled, 2 unschedulable, subset-1 started after recovery", 4, null,
                        null, new int[] {2, 4, 2}, new int[] {4, -1, 0}, new int[] {2, 4, 0}),
                Arguments.of("3 infinity subsets, one of subset-1 started", 2, null,
                        null, new int[] {2, 2, 2}, new int[] {2, 1, 0}, new int[] {2, 2, 1}),
                Arguments.of("3 infinity subsets, subset-0 recovered", 2, null,
                        null, new int[] {2, 2, 1}, new int[] {0, 1, 0}, new int[] {2, 0, 0}),
                Arguments.of("3 infinity subsets, scale from 4 to 2", 2, null,
                        null, new int[] {2, 2, 0}, new int[] {0, 0, 0}, new int[] {2, 0, 0}),
                Arguments.of("3 infinity subsets, scaled from 2 to 4 and subset-1 recovered", 4, null,
                        null, new int[] {2, 2, 4}, new int[] {-1, 2, 0}, new int[] {4, 2, 2}),
                Arguments.of("3 subsets, 2 with minReplicas, start", 2, new int[] {1, 1, 0},
                        null, new int[] {0, 0, 0}, new int[] {0, 0, 0}, new int[] {1, 1, 0}),
                Arguments.of("3 subsets, 2 with minReplicas, two subsets unschedulable", 2, new int[] {1, 1, 0},
                        null, new int[] {1, 1, 0}, new int[] {1, 1, 0}, new int[] {1, 1, 2}),
                Arguments.of("3 subsets, 2 with minReplicas, subset-0 recovered", 2, new int[] {1, 1, 0},
                        null, new int[] {1, 1, 2}, new int[] {-1, 1, 0}, new int[] {2, 1, 1}),
                Arguments.of("3 subsets, 2 with minReplicas, subset-0 recovered, verifying new pods", 2, new int[] {1, 1, 0},
                        null, new int[] {2, 1, 1}, new int[] {1, 1, 0}, new int[] {2, 1, 1}),
                Arguments.of("3 subsets, 2 with minReplicas, subset-0 recovered, new pod started", 2, new int[] {1, 1, 0},
                        null, new int[] {2, 1, 1}, new int[] {0, 1, 0}, new int[] {2, 1, 0}),
                Arguments.of("3 subsets, 2 with minReplicas, subset-1 recovered", 2, new int[] {1, 1, 0},
                        null, new int[] {2, 1, 0}, new int[] {0, -1, 0}, new int[] {1, 1, 0}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reservationCases")
    void reservationGivesReservedPodsTemporarySubstitutes(String name, int replicas, int[] min, int[] max, int[] cur,
                                                          int[] reserved, int[] expected) {
        UnitedDeploymentSpec spec = spec(replicas, adaptive(true));
        Map<String, SubsetState> existing = new LinkedHashMap<>();
        for (int i = 0; i < cur.length; i++) {
            boolean last = i == cur.length - 1;
            spec.getTopology().getSubsets().add(bounded("subset-" + i, min == null ? -1 : min[i],
                    max == null || last ? -1 : max[i]));
            int r = Math.max(0, reserved[i]);
            existing.put("subset-" + i, new SubsetState(cur[i], cur[i] - r, r != 0, reserved[i] != 0, r));
        }
        assertEquals("reservation", ReplicaAllocator.ruleOf(spec));
        assertEquals(list(expected), values(ReplicaAllocator.allocate(spec, existing)));
    }

    @Test
    void ruleFollowsOpenKruisesOrder() {
        UnitedDeploymentSpec plain = spec(3, null);
        plain.getTopology().getSubsets().add(subset("a"));
        assertEquals("specific", ReplicaAllocator.ruleOf(plain));
        UnitedDeploymentScheduleStrategy fixed = new UnitedDeploymentScheduleStrategy();
        fixed.setType(UnitedDeploymentScheduleStrategy.FIXED);
        fixed.setAdaptive(new AdaptiveUnitedDeploymentStrategy());
        fixed.getAdaptive().setReserveUnschedulablePods(true);
        UnitedDeploymentSpec fixedWithReserve = spec(3, fixed);
        fixedWithReserve.getTopology().getSubsets().add(subset("a"));
        assertEquals("specific", ReplicaAllocator.ruleOf(fixedWithReserve), "reservation needs the Adaptive type");
    }

    // ---- helpers

    private static UnitedDeploymentSpec spec(Integer replicas, UnitedDeploymentScheduleStrategy schedule) {
        UnitedDeploymentSpec spec = new UnitedDeploymentSpec();
        spec.setReplicas(replicas);
        Topology topology = new Topology();
        topology.setSubsets(new ArrayList<>());
        topology.setScheduleStrategy(schedule);
        spec.setTopology(topology);
        return spec;
    }

    private static UnitedDeploymentScheduleStrategy adaptive(boolean reserve) {
        UnitedDeploymentScheduleStrategy s = new UnitedDeploymentScheduleStrategy();
        s.setType(UnitedDeploymentScheduleStrategy.ADAPTIVE);
        if (reserve) {
            s.setAdaptive(new AdaptiveUnitedDeploymentStrategy());
            s.getAdaptive().setReserveUnschedulablePods(true);
        }
        return s;
    }

    private static Subset subset(String name) {
        Subset s = new Subset();
        s.setName(name);
        return s;
    }

    private static Subset bounded(String name, int min, int max) {
        Subset s = subset(name);
        if (min >= 0) {
            s.setMinReplicas(new IntOrString(min));
        }
        if (max >= 0) {
            s.setMaxReplicas(new IntOrString(max));
        }
        return s;
    }

    private static IntOrString intOrString(String v) {
        return v.endsWith("%") ? new IntOrString(v) : new IntOrString(Integer.parseInt(v));
    }

    private static Map<String, String> pairs(String csv) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!csv.isEmpty() && !csv.startsWith("error: ")) {
            for (String p : csv.split(",")) {
                String[] kv = p.split("=", 2);
                out.put(kv[0], kv[1]);
            }
        }
        return out;
    }

    private static void check(String expected, UnitedDeploymentSpec spec, Map<String, SubsetState> existing) {
        if (expected.startsWith("error: ")) {
            ReplicaAllocator.AllocationException e = assertThrows(ReplicaAllocator.AllocationException.class,
                    () -> ReplicaAllocator.allocate(spec, existing));
            assertEquals(expected.substring("error: ".length()), e.getMessage());
            return;
        }
        Map<String, Integer> want = new LinkedHashMap<>();
        pairs(expected).forEach((k, v) -> want.put(k, Integer.parseInt(v)));
        assertEquals(want, ReplicaAllocator.allocate(spec, existing));
    }

    private static List<Integer> list(int[] values) {
        List<Integer> out = new ArrayList<>();
        for (int v : values) {
            out.add(v);
        }
        return out;
    }

    private static List<Integer> values(Map<String, Integer> byName) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; byName.containsKey("subset-" + i); i++) {
            out.add(byName.get("subset-" + i));
        }
        assertEquals(byName.size(), out.size(), "one value per subset");
        return out;
    }
}
