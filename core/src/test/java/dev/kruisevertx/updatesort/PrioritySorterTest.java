package dev.kruisevertx.updatesort;

import dev.kruisevertx.api.common.UpdatePriorityOrderTerm;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdatePriorityWeightTerm;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static dev.kruisevertx.updatesort.TestPods.ints;
import static dev.kruisevertx.updatesort.TestPods.labels;
import static dev.kruisevertx.updatesort.TestPods.pods;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PrioritySorterTest {

    private static UpdatePriorityStrategy weights(Object... weightThenSelector) {
        UpdatePriorityStrategy s = new UpdatePriorityStrategy();
        List<UpdatePriorityWeightTerm> terms = new ArrayList<>();
        for (int i = 0; i < weightThenSelector.length; i += 2) {
            LabelSelector sel = new LabelSelectorBuilder().withMatchLabels(labels((String) weightThenSelector[i + 1])).build();
            terms.add(new UpdatePriorityWeightTerm((Integer) weightThenSelector[i], sel));
        }
        s.setWeightPriority(terms);
        return s;
    }

    private static UpdatePriorityStrategy orders(String... keys) {
        UpdatePriorityStrategy s = new UpdatePriorityStrategy();
        List<UpdatePriorityOrderTerm> terms = new ArrayList<>();
        for (String k : keys) {
            terms.add(new UpdatePriorityOrderTerm(k));
        }
        s.setOrderPriority(terms);
        return s;
    }

    /** strategy, labels of pod I, labels of pod J, expected: does I go strictly before J (ties: false). */
    static Stream<Arguments> pairs() {
        UpdatePriorityStrategy w2 = weights(20, "key=foo", 10, "key=bar");
        UpdatePriorityStrategy o2 = orders("key1", "key2");
        return Stream.of(
                Arguments.of("no labels tie", w2, "", "", 0),
                Arguments.of("same weight tie", w2, "key=foo", "key=foo", 0),
                Arguments.of("lower weight after", w2, "key=bar", "key=foo", 1),
                Arguments.of("no weight after weighted", w2, "", "key=bar", 1),
                Arguments.of("no weight after heavier", w2, "", "key=foo", 1),
                Arguments.of("sum of two terms beats one", weights(20, "key1=foo", 10, "key2=bar", 15, "key3=baz"),
                        "key1=foo", "key2=bar,key3=baz", 1),
                Arguments.of("one term beats sum of two lighter", weights(20, "key1=foo", 10, "key2=bar", 5, "key3=baz"),
                        "key2=bar,key3=baz", "key1=foo", 1),
                Arguments.of("heavier first", w2, "key=foo", "key=bar", -1),
                Arguments.of("order: neither key tie", o2, "", "", 0),
                Arguments.of("order: numeric not lexical", o2, "key1=o-10", "key1=o-5", -1),
                Arguments.of("order: same value tie", o2, "key1=o-10", "key1=o-10", 0),
                Arguments.of("order: smaller number after", o2, "key1=o-10", "key1=o-20", 1),
                Arguments.of("order: later key after earlier key", o2, "key2=o-20", "key1=o-10", 1),
                Arguments.of("order: within second key", o2, "key2=o-20", "key2=o-10", -1),
                Arguments.of("order: pods without any key first", o2, "", "key1=o-99", -1),
                Arguments.of("order: value without number counts 0", o2, "key1=abc", "key1=x-1", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void comparesLikeOpenKruise(String name, UpdatePriorityStrategy strategy, String a, String b, int expectedSign) {
        int got = new PrioritySorter(strategy).compare(labels(a), labels(b));
        assertEquals(expectedSign, Integer.signum(got));
    }

    @Test
    void sortsIndexesByWeightAndBreaksTiesByHigherIndex() {
        List<Pod> pods = pods("", "key=bar", "key=foo", "", "key=foo");
        List<Integer> order = new PrioritySorter(weights(20, "key=foo", 10, "key=bar")).sort(pods, ints(0, 1, 2, 3, 4));
        assertEquals(ints(4, 2, 1, 3, 0), order);
    }

    @Test
    void sortsByOrderedKeyAndLeavesInputUntouched() {
        List<Pod> pods = pods("sts=web-1", "sts=web-10", "sts=web-2", "other=1");
        List<Integer> in = ints(0, 1, 2, 3);
        List<Integer> order = new PrioritySorter(orders("sts")).sort(pods, in);
        assertEquals(ints(3, 1, 2, 0), order);
        assertEquals(ints(0, 1, 2, 3), in);
    }

    @Test
    void noStrategyKeepsOrder() {
        List<Pod> pods = pods("a=1", "b=2", "c=3");
        assertEquals(ints(2, 0, 1), new PrioritySorter(null).sort(pods, ints(2, 0, 1)));
        assertEquals(ints(2, 0, 1), new PrioritySorter(new UpdatePriorityStrategy()).sort(pods, ints(2, 0, 1)));
    }

    @Test
    void invalidSelectorTermIsIgnored() {
        UpdatePriorityStrategy s = weights(10, "key=bar");
        LabelSelector bad = new LabelSelectorBuilder().addNewMatchExpression().withKey("key").withOperator("Sometimes")
                .endMatchExpression().build();
        s.getWeightPriority().add(new UpdatePriorityWeightTerm(50, bad));
        PrioritySorter sorter = new PrioritySorter(s);
        assertEquals(10, sorter.weight(labels("key=bar")));
        assertEquals(ints(1, 0), sorter.sort(pods("", "key=bar"), ints(0, 1)));
    }

    @Test
    void trailingNumber() {
        assertEquals(12, PrioritySorter.trailingNumber("sts-12"));
        assertEquals(0, PrioritySorter.trailingNumber("abc"));
        assertEquals(7, PrioritySorter.trailingNumber("7"));
        assertEquals(0, PrioritySorter.trailingNumber("x-99999999999999999999999"));
    }
}
