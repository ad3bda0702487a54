package dev.kruisevertx.updatesort;

import dev.kruisevertx.api.common.UpdateScatterTerm;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static dev.kruisevertx.updatesort.TestPods.ints;
import static dev.kruisevertx.updatesort.TestPods.pods;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scatter orders pinned against the outcomes OpenKruise's scatter sorter produces for the same inputs. Label specs:
 * "" no labels, "A" = labelA=AAA, "B" = labelB=BBB, "C" = labelC=CCC, "AB" both..., "x" an unrelated label,
 * "-" a missing pod (a null slot, as reserved ordinals leave).
 */
class ScatterSorterTest {
    private static final UpdateScatterTerm A = new UpdateScatterTerm("labelA", "AAA");
    private static final UpdateScatterTerm B = new UpdateScatterTerm("labelB", "BBB");
    private static final UpdateScatterTerm C = new UpdateScatterTerm("labelC", "CCC");

    private static String expand(String s) {
        if (s.equals("-")) {
            return s;
        }
        List<String> parts = new ArrayList<>();
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case 'A' -> parts.add("labelA=AAA");
                case 'B' -> parts.add("labelB=BBB");
                case 'C' -> parts.add("labelC=CCC");
                case 'x' -> parts.add("other=x" + parts.size());
                case 'b' -> parts.add("labelB=B");
                default -> throw new IllegalArgumentException(s);
            }
        }
        return String.join(",", parts);
    }

    private static List<Pod> podsOf(String... specs) {
        String[] expanded = new String[specs.length];
        for (int i = 0; i < specs.length; i++) {
            expanded[i] = expand(specs[i]);
        }
        return pods(expanded);
    }

    /** One term, every pod to update (indexes 0..n-1 of the first n pods; further pods only count in totals). */
    static Stream<Arguments> oneRule() {
        return Stream.of(
                Arguments.of("no label", new String[]{""}, 1, ints(0)),
                Arguments.of("only one scattered", new String[]{"A"}, 1, ints(0)),
                Arguments.of("one of each", new String[]{"A", "x"}, 2, ints(0, 1)),
                Arguments.of("2 matched 4 other", new String[]{"", "", "", "", "A", "A"}, 6, ints(4, 0, 1, 2, 3, 5)),
                Arguments.of("3 matched 3 other", new String[]{"", "", "", "A", "A", "A"}, 6, ints(3, 0, 1, 4, 2, 5)),
                Arguments.of("2 matched 5 other", new String[]{"", "", "", "A", "", "", "A"}, 7, ints(3, 0, 1, 2, 4, 5, 6)),
                Arguments.of("3 matched 6 other", new String[]{"", "", "", "", "", "", "A", "A", "A"}, 9,
                        ints(6, 0, 1, 2, 7, 3, 4, 5, 8)),
                // v1.9 rounds the matched group size (1.5 -> 2), so matched pods go two by two here.
                Arguments.of("4 matched 2 other", new String[]{"", "", "A", "A", "A", "A"}, 6, ints(2, 3, 0, 4, 1, 5)),
                Arguments.of("3 matched 3 other of 8", new String[]{"", "", "", "A", "A", "A", "A", "A"}, 6,
                        ints(3, 0, 1, 4, 2, 5)),
                Arguments.of("6 matched 3 other", new String[]{"", "", "A", "", "A", "A", "A", "A", "A"}, 9,
                        ints(2, 4, 0, 5, 6, 1, 7, 3, 8)),
                Arguments.of("5 matched 4 other interleaved", new String[]{"", "A", "", "A", "", "", "A", "A", "A"}, 9,
                        ints(1, 0, 3, 2, 6, 4, 7, 5, 8)),
                Arguments.of("unrelated labels", new String[]{"", "", "", "", "x", "x", "", "A", "A", "AB"}, 10,
                        ints(7, 0, 1, 2, 3, 8, 4, 5, 6, 9)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneRule")
    void scattersOneRule(String name, String[] labels, int toUpdate, List<Integer> expected) {
        List<Pod> pods = podsOf(labels).subList(0, toUpdate);
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < toUpdate; i++) {
            indexes.add(i);
        }
        assertEquals(expected, ScatterSorter.scatter(A, pods, indexes));
    }

    /** Whole sort: the first `expected.size()` present pods are to update, the rest only count in totals. */
    static Stream<Arguments> sorts() {
        return Stream.of(
                Arguments.of("single pod", List.of(A), new String[]{"AB"}, ints(0)),
                Arguments.of("no terms", List.of(), new String[]{"", "", "", "", "", ""}, ints(0, 1, 2, 3, 4, 5)),
                Arguments.of("one term", List.of(A), new String[]{"", "", "", "", "A", "A"}, ints(4, 0, 1, 2, 3, 5)),
                Arguments.of("one term, other labels", List.of(B), new String[]{"", "", "", "", "x", "x", "B", "A", "A", "AB"},
                        ints(6, 0, 1, 2, 3, 4, 5, 7, 8, 9)),
                Arguments.of("two terms, one label each", List.of(A, B), new String[]{"B", "B", "", "", "A", "A"},
                        ints(0, 4, 2, 3, 5, 1)),
                Arguments.of("two terms, a pod with both", List.of(A, B), new String[]{"", "", "", "B", "AB", "A"},
                        ints(4, 0, 1, 2, 5, 3)),
                Arguments.of("two terms B then A", List.of(B, A), new String[]{"", "", "", "", "x", "x", "B", "A", "A", "B"},
                        ints(7, 6, 0, 1, 2, 3, 4, 5, 9, 8)),
                Arguments.of("two terms A then B", List.of(A, B), new String[]{"", "", "", "", "x", "x", "B", "A", "A", "B"},
                        ints(6, 7, 0, 1, 2, 3, 4, 5, 8, 9)),
                Arguments.of("both labels on the same pods, even", List.of(A, B),
                        new String[]{"", "", "", "", "x", "x", "AB", "", "", "AB"}, ints(6, 0, 1, 2, 3, 4, 5, 7, 8, 9)),
                Arguments.of("both labels on the same pods, odd others", List.of(A, B),
                        new String[]{"", "", "", "x", "x", "AB", "", "", "AB"}, ints(5, 0, 1, 2, 3, 4, 6, 7, 8)),
                Arguments.of("partial update, odd", List.of(A, B),
                        new String[]{"", "", "", "A", "x", "x", "AB", "", "", ""}, ints(3, 0, 1, 2, 4, 5, 7, 6)),
                Arguments.of("partial update of 12", List.of(A, B),
                        new String[]{"", "", "", "A", "", "", "x", "x", "AB", "", "", "AB"}, ints(0, 1, 2, 4, 3, 5, 6, 7, 9, 10, 8)),
                Arguments.of("more matched than other", List.of(A, B),
                        new String[]{"", "", "", "A", "Ax", "x", "AB", "", "", "AB"}, ints(6, 3, 0, 1, 4, 2, 5, 7, 8, 9)),
                Arguments.of("more matched, odd others", List.of(A, B),
                        new String[]{"", "A", "A", "x", "x", "AB", "", "", "AB"}, ints(5, 1, 0, 3, 2, 4, 6, 7, 8)),
                Arguments.of("more matched, partial", List.of(A, B),
                        new String[]{"A", "", "", "A", "Ax", "x", "AB", "", "", "AB"}, ints(1, 0, 2, 3, 5, 4, 7, 6)),
                Arguments.of("more matched, partial of 12", List.of(A, B),
                        new String[]{"", "", "A", "A", "", "A", "x", "x", "AB", "", "", "AB"}, ints(0, 2, 1, 4, 3, 6, 7, 5, 9, 10, 8)),
                Arguments.of("three terms", List.of(A, B, C),
                        new String[]{"", "A", "A", "B", "B", "C", "C", "C", "C", "C"}, ints(3, 1, 5, 0, 6, 7, 8, 9, 2, 4)),
                Arguments.of("three terms, pods with two", List.of(A, B, C),
                        new String[]{"", "A", "AC", "BC", "B", "", "", "C", "C", "C"}, ints(3, 2, 0, 7, 8, 5, 6, 9, 1, 4)),
                Arguments.of("continuous 1", List.of(A), new String[]{"", "", "", "", "A", "A", "A"}, ints(0, 1, 4, 2, 3, 5)),
                Arguments.of("continuous 2", List.of(A), new String[]{"A", "A", "", "", "", "", "", "", "", "A"},
                        ints(2, 0, 3, 4, 5, 6, 1)),
                Arguments.of("null slot (reserved ordinal)", List.of(A, B, C),
                        new String[]{"", "A", "AC", "BC", "B", "-", "", "", "C", "C", "C"}, ints(3, 2, 0, 8, 9, 6, 7, 10, 1, 4)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sorts")
    void sortsLikeOpenKruise(String name, List<UpdateScatterTerm> terms, String[] labels, List<Integer> expected) {
        List<Pod> pods = podsOf(labels);
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < pods.size() && indexes.size() < expected.size(); i++) {
            if (pods.get(i) != null) {
                indexes.add(i);
            }
        }
        List<Integer> got = new ScatterSorter(terms).sort(pods, indexes);
        assertEquals(expected, got);
        assertEquals(expected.size(), indexes.size(), "input list unchanged");
    }

    @Test
    void termsOrderedByMatchCount() {
        List<Pod> pods = podsOf("", "b", "B", "A", "A");
        ScatterSorter s = new ScatterSorter(List.of(A, B));
        assertEquals(List.of(A, B), s.effectiveTerms(pods, ints(0, 1, 2, 3, 4)));
        ScatterSorter reversed = new ScatterSorter(List.of(B, A));
        assertEquals(List.of(A, B), reversed.effectiveTerms(pods, ints(0, 1, 2, 3, 4)));
    }
}
