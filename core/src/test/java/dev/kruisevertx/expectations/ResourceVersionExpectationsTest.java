package dev.kruisevertx.expectations;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResourceVersionExpectationsTest {
    private ManualClock clock;
    private ResourceVersionExpectations expectations;

    @BeforeEach
    void setUp() {
        clock = new ManualClock();
        expectations = new ResourceVersionExpectations(Duration.ofMinutes(5), clock);
    }

    private static Pod pod(String uid, String rv) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName("p-" + uid).withUid(uid)
                .withResourceVersion(rv).endMetadata().build();
    }

    @Test
    void cachedCopyMustReachTheWrittenVersionNumerically() {
        expectations.expect(pod("u1", "100"));
        assertFalse(expectations.isSatisfied(pod("u1", "99")));
        // numeric, not lexical: "100" > "99" although "100" < "99" as strings
        assertTrue(expectations.isSatisfied(pod("u1", "100")));
        // satisfied drops the expectation
        assertEquals(0, expectations.size());
        assertTrue(expectations.isSatisfied(pod("u1", "5")));
    }

    @Test
    void expectKeepsTheNewestWrite() {
        expectations.expect(pod("u1", "20"));
        expectations.expect(pod("u1", "10")); // older write: ignored
        assertFalse(expectations.isSatisfied(pod("u1", "15")));
        assertTrue(expectations.isSatisfied(pod("u1", "21")));
    }

    @Test
    void observeDropsAMetExpectation() {
        expectations.expect(pod("u1", "20"));
        expectations.observe(pod("u1", "19"));
        assertEquals(1, expectations.size());
        expectations.observe(pod("u1", "20"));
        assertEquals(0, expectations.size());
        expectations.observe(pod("u2", "1")); // never expected: nothing to do
        assertEquals(0, expectations.size());
    }

    @Test
    void unparsableVersionsFollowOpenKruise() {
        expectations.expect(pod("u1", "abc"));
        assertTrue(expectations.isSatisfied(pod("u1", "1")), "an unparsable expected version is always met");
        expectations.expect(pod("u2", "10"));
        assertFalse(expectations.isSatisfied(pod("u2", "xyz")), "an unparsable cached version never meets");
        assertTrue(ResourceVersionExpectations.isNewer("", "1"));
        assertTrue(ResourceVersionExpectations.isNewer(null, "1"));
        assertTrue(ResourceVersionExpectations.isNewer("18446744073709551615", "18446744073709551615"));
    }

    @Test
    void timeoutDropsTheExpectation() {
        expectations.expect(pod("u1", "50"));
        ResourceVersionExpectations.Status first = expectations.status(pod("u1", "40"));
        assertFalse(first.satisfied());
        assertEquals(Duration.ZERO, first.unsatisfiedFor());
        clock.advance(Duration.ofMinutes(3));
        assertEquals(Duration.ofMinutes(3), expectations.status(pod("u1", "40")).unsatisfiedFor());
        clock.advance(Duration.ofMinutes(2));
        ResourceVersionExpectations.Status timedOut = expectations.status(pod("u1", "40"));
        assertTrue(timedOut.satisfied());
        assertTrue(timedOut.timedOut());
        assertEquals(0, expectations.size());
    }

    @Test
    void deleteByUidOrObject() {
        expectations.expect(pod("u1", "50"));
        expectations.expect(pod("u2", "50"));
        expectations.delete("u1");
        expectations.delete(pod("u2", "1"));
        assertEquals(0, expectations.size());
    }

    @Test
    void objectWithoutUidIsAClearError() {
        Pod noUid = new PodBuilder().withNewMetadata().withName("x").endMetadata().build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> expectations.expect(noUid));
        assertTrue(e.getMessage().contains("metadata.uid"));
    }
}
