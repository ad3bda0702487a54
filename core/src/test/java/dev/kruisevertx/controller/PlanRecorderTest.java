package dev.kruisevertx.controller;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanRecorderTest {
    private static PlanRecorder recorder(int perController, String... controllers) {
        PlanRecorder plans = new PlanRecorder();
        for (String c : controllers) {
            for (int i = 0; i < perController; i++) {
                plans.record(c, new Request("ns", String.format("obj-%05d", i)), "plan " + i);
            }
        }
        return plans;
    }

    private static List<String> all(PlanRecorder plans, String controller, int limit) {
        List<String> seen = new ArrayList<>();
        String token = null;
        do {
            PlanRecorder.Page page = plans.page(controller, token, limit);
            assertTrue(page.items().size() <= limit);
            page.items().forEach(i -> seen.add(i.controller() + " " + i.key()));
            token = page.continueToken();
        } while (token != null);
        return seen;
    }

    @Test
    void pagesWalkEveryEntryOnceInOrder() {
        PlanRecorder plans = recorder(1234, "statefulset", "cloneset");
        List<String> seen = all(plans, null, 500);
        assertEquals(2468, seen.size());
        assertEquals("cloneset ns/obj-00000", seen.get(0));
        assertEquals("statefulset ns/obj-01233", seen.get(seen.size() - 1));
        assertEquals(seen.stream().sorted().toList(), seen, "sorted by controller, then object");
        assertEquals(1234, all(plans, "cloneset", 100).size());
        assertEquals(1234, all(plans, "statefulset", 1234).size());
        assertEquals(0, all(plans, "nope", 10).size());
    }

    @Test
    void theLastPageHasNoContinueToken() {
        PlanRecorder plans = recorder(10, "cloneset");
        PlanRecorder.Page first = plans.page(null, null, 10);
        assertEquals(10, first.items().size());
        assertNull(first.continueToken(), "nothing follows");
        PlanRecorder.Page half = plans.page(null, null, 5);
        assertEquals("ns/obj-00005", plans.page(null, half.continueToken(), 5).items().get(0).key());
    }

    @Test
    void aTokenStaysValidWhileEntriesComeAndGo() {
        PlanRecorder plans = recorder(10, "cloneset");
        PlanRecorder.Page first = plans.page(null, null, 4);
        plans.forget("cloneset", new Request("ns", "obj-00003"));
        plans.forget("cloneset", new Request("ns", "obj-00004"));
        plans.record("cloneset", new Request("ns", "obj-00002a"), "new, but before the token: not shown");
        PlanRecorder.Page next = plans.page(null, first.continueToken(), 4);
        assertEquals(List.of("ns/obj-00005", "ns/obj-00006", "ns/obj-00007", "ns/obj-00008"),
                next.items().stream().map(PlanRecorder.Item::key).toList());
    }

    @Test
    void badTokensAndLimitsAreRefused() {
        PlanRecorder plans = recorder(3, "cloneset");
        assertThrows(IllegalArgumentException.class, () -> plans.page(null, "not a token!", 10));
        assertThrows(IllegalArgumentException.class, () -> plans.page(null, "bm9uZXdsaW5l", 10));
        assertThrows(IllegalArgumentException.class, () -> plans.page(null, null, 0));
    }

    @Test
    void summariesKeepOnlyABoundedNumberOfActions() {
        PlanSummary.Builder b = PlanSummary.builder("SCALE: create 60");
        for (int i = 0; i < 60; i++) {
            b.action("create pod web-" + i + " at revision web-1");
        }
        PlanSummary s = b.count("scaleUpNum", 60).count("updateNum", 0).build();
        assertEquals(PlanSummary.MAX_ACTIONS, s.actions().size());
        assertEquals(60 - PlanSummary.MAX_ACTIONS, s.omittedActions());
        assertEquals(java.util.Map.of("scaleUpNum", 60L), s.counts(), "zero counts are left out");
    }
}
