package dev.kruisevertx.image;

import io.fabric8.kubernetes.api.model.ObjectReference;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventSpamFilterTest {
    static final class MovableClock extends Clock {
        Instant now = Instant.parse("2026-11-24T20:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void twentyFiveEventsPerObjectThenOneEveryFiveMinutes() {
        MovableClock clock = new MovableClock();
        EventSpamFilter filter = new EventSpamFilter(clock);
        int allowed = 0;
        for (int i = 0; i < 1000; i++) {
            if (filter.allow("node-1|NodeImage|node-1")) {
                allowed++;
            }
        }
        assertEquals(25, allowed, "a failing node cannot flood the API server with Events");
        clock.now = clock.now.plus(Duration.ofMinutes(4));
        assertFalse(filter.allow("node-1|NodeImage|node-1"));
        clock.now = clock.now.plus(Duration.ofMinutes(1));
        assertTrue(filter.allow("node-1|NodeImage|node-1"), "one token back after 5 minutes");
        assertFalse(filter.allow("node-1|NodeImage|node-1"));
        assertTrue(filter.allow("node-1|ImagePullJob|team-a/job"), "each object has its own bucket");
    }

    @Test
    void aForgottenObjectStartsAFullBucketAndTheMemoryIsBounded() {
        MovableClock clock = new MovableClock();
        EventSpamFilter filter = new EventSpamFilter(1, Duration.ofMinutes(5), 2, clock);
        assertTrue(filter.allow("a"));
        assertFalse(filter.allow("a"));
        assertTrue(filter.allow("b"));
        assertTrue(filter.allow("c"));
        assertTrue(filter.allow("a"), "only 2 objects remembered: a was the least recently used");
        assertThrows(IllegalArgumentException.class, () -> new EventSpamFilter(0, Duration.ofMinutes(5), 2, clock));
    }

    @Test
    void theKeyIsTheSourceAndTheObjectsIdentity() {
        ObjectReference a = PullEvents.nodeImage("n", "uid-1", "1");
        ObjectReference sameObjectNewVersion = PullEvents.nodeImage("n", "uid-1", "2");
        ObjectReference recreated = PullEvents.nodeImage("n", "uid-2", "3");
        assertEquals(EventSpamFilter.key("c", "h", a), EventSpamFilter.key("c", "h", sameObjectNewVersion));
        assertFalse(EventSpamFilter.key("c", "h", a).equals(EventSpamFilter.key("c", "h", recreated)));
        assertFalse(EventSpamFilter.key("c", "h", a).equals(EventSpamFilter.key("c", "other-host", a)));
    }
}
