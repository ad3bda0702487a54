package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.agent.imagepuller.PullPlanner.Known;
import dev.kruisevertx.agent.imagepuller.PullPlanner.TagKey;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which tags the puller pulls, stops, takes over and reports. */
class PullPlannerTest {

    /**
     * Compact tables. spec: "tag@version,..." for image "app" ("" = no tags, "-" = no image). reported:
     * "tag@version:Phase[+done]" entries of the current status. known: "tag@version:Phase" the agent holds.
     */
    @ParameterizedTest(name = "[{index}] spec {0} | reported {1} | known {2} -> start {3} stop {4} adopt {5}")
    @CsvSource(delimiter = '|', value = {
            // fresh agent, fresh tags: everything starts
            "a@1            | -                 | -              | a            | -     | -",
            "a@1,b@1        | -                 | -              | a,b          | -     | -",
            // finished earlier (agent restarted): taken over, not pulled again
            "a@1            | a@1:Succeeded+done | -             | -            | -     | a",
            "a@1            | a@1:Failed+done   | -              | -            | -     | a",
            // reported but not finished (pull interrupted by a restart): pulled again
            "a@1            | a@1:Pulling       | -              | a            | -     | -",
            "a@1            | a@1:Waiting       | -              | a            | -     | -",
            // finished at an older version: a new round
            "a@2            | a@1:Succeeded+done | -             | a            | -     | -",
            // already handled at this version: nothing to do
            "a@1            | -                 | a@1:Pulling    | -            | -     | -",
            "a@1            | a@1:Pulling       | a@1:Succeeded  | -            | -     | -",
            // a newer version while pulling the old one: stop and start again
            "a@2            | -                 | a@1:Pulling    | a            | a     | -",
            "a@2            | a@2:Succeeded+done | a@1:Pulling   | -            | a     | a",
            // tags gone from the spec: stopped and dropped
            "b@1            | -                 | a@1:Pulling    | b            | a     | -",
            "''             | -                 | a@1:Pulling    | -            | a     | -",
            "-              | -                 | a@1:Succeeded  | -            | a     | -",
            // a tag listed twice counts once
            "a@1,a@2        | -                 | -              | a            | -     | -",
            // versions unset count as 0
            "a              | a:Succeeded+done  | -              | -            | -     | a",
            // mixed
            "a@1,b@3,c@1    | a@1:Succeeded+done,b@2:Failed+done | c@1:Pulling | b | - | a",
    })
    void plan(String spec, String reported, String known, String start, String stop, String adopt) {
        PullPlanner.Plan plan = PullPlanner.plan(spec(spec), reported(reported), known(known));
        assertEquals(names(start), plan.start().stream().map(s -> s.key().tag()).toList());
        assertEquals(names(stop), plan.stop().stream().map(TagKey::tag).toList());
        assertEquals(names(adopt), new ArrayList<>(plan.adopt().keySet().stream().map(TagKey::tag).toList()));
    }

    @Test
    void hostileSpecsAreSkippedWithAReason() {
        NodeImageSpec spec = new NodeImageSpec();
        ImageSpec image = new ImageSpec();
        ImageTagSpec blank = new ImageTagSpec();
        blank.setTag(" ");
        ImageTagSpec none = new ImageTagSpec();
        List<ImageTagSpec> tags = new ArrayList<>();
        tags.add(null);
        tags.add(blank);
        tags.add(none);
        tags.add(tag("ok", 1));
        image.setTags(tags);
        Map<String, ImageSpec> images = new HashMap<>();
        images.put("app", image);
        images.put("nulled", null);
        images.put("", image);
        spec.setImages(images);
        PullPlanner.Plan plan = PullPlanner.plan(spec, null, Map.of());
        assertEquals(List.of("ok"), plan.start().stream().map(s -> s.key().tag()).toList());
        assertEquals(List.of("app: a tag without a name", "app: a tag without a name", "app: a tag without a name"),
                plan.skipped());
        assertTrue(PullPlanner.plan(null, null, Map.of()).idle());
    }

    /** spec | known -> desired succeeded failed pulling waiting | reported tags */
    @ParameterizedTest(name = "[{index}] {0} | {1}")
    @CsvSource(delimiter = '|', value = {
            "-          | -                                   | 0 0 0 0 0 | -",
            "a@1        | -                                   | 1 0 0 0 0 | -",
            "a@1,b@1    | a@1:Waiting                         | 2 0 0 0 1 | a",
            "a@1,b@1    | a@1:Pulling,b@1:Succeeded           | 2 1 0 1 0 | a,b",
            "b@1,a@1    | a@1:Failed,b@1:Succeeded            | 2 1 1 0 0 | b,a",
            "a@1        | a@1:Succeeded,gone@1:Succeeded      | 1 1 0 0 0 | a",
            "a@1,a@1    | a@1:Succeeded                       | 1 1 0 0 0 | a",
    })
    void status(String spec, String known, String counts, String tags) {
        NodeImageStatus s = PullPlanner.status(spec(spec), known(known));
        assertEquals(counts, s.getDesired() + " " + s.getSucceeded() + " " + s.getFailed() + " " + s.getPulling() + " "
                + s.getWaiting());
        if (tags.equals("-")) {
            assertNull(s.getImageStatuses());
        } else {
            assertEquals(names(tags), s.getImageStatuses().get("app").tags().stream().map(ImageTagStatus::getTag).toList());
        }
    }

    /** timeoutSeconds | backoffLimit | activeDeadlineSeconds | imagePullPolicy -> timeout s | retries | deadline s | ifNotPresent */
    @ParameterizedTest(name = "[{index}] {0} {1} {2} {3}")
    @CsvSource(delimiter = '|', value = {
            "        |      |       |              | 600    | 3          | -     | false",
            "30      | 0    |       | IfNotPresent | 30     | 0          | -     | true",
            "0       | -1   |       | Always       | 600    | 3          | -     | false",
            "-5      | -100 | -3    | bogus        | 600    | 3          | 0     | false",
            "2147483647 | 2147483647 | 9223372036854775807 | IfNotPresent | 86400 | 2147483647 | 9223372036854775807 | true",
            "1       | 5    | 60    |              | 1      | 5          | 60    | false",
    })
    void settings(Integer timeout, Integer backoff, Long deadline, String policy, long timeoutS, int retries,
                  String deadlineS, boolean ifNotPresent) {
        ImageTagSpec tag = tag("t", 1);
        ImageTagPullPolicy p = new ImageTagPullPolicy();
        p.setTimeoutSeconds(timeout);
        p.setBackoffLimit(backoff);
        p.setActiveDeadlineSeconds(deadline);
        tag.setPullPolicy(p);
        tag.setImagePullPolicy(policy);
        PullSettings s = PullSettings.of(tag);
        assertEquals(timeoutS, s.timeout().toSeconds());
        assertEquals(retries, s.backoffLimit());
        assertEquals(deadlineS.equals("-") ? null : Duration.ofSeconds(Long.parseLong(deadlineS)), s.activeDeadline());
        assertEquals(ifNotPresent, s.ifNotPresent());
    }

    @Test
    void backoffDoublesFromOneToThirtySeconds() {
        List<Long> seconds = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            seconds.add(PullSettings.backoff(i).toSeconds());
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L), seconds);
        assertEquals(1, PullSettings.backoff(Integer.MIN_VALUE).toSeconds());
        assertEquals(30, PullSettings.backoff(Integer.MAX_VALUE).toSeconds());
    }

    // ---- table helpers ----

    static List<String> names(String list) {
        return list.equals("-") ? List.of() : List.of(list.split(","));
    }

    static ImageTagSpec tag(String name, long version) {
        ImageTagSpec t = new ImageTagSpec();
        t.setTag(name);
        t.setVersion(version);
        return t;
    }

    static NodeImageSpec spec(String text) {
        NodeImageSpec spec = new NodeImageSpec();
        if (text.equals("-")) {
            return spec;
        }
        ImageSpec image = new ImageSpec();
        List<ImageTagSpec> tags = new ArrayList<>();
        for (String t : text.isEmpty() ? new String[0] : text.split(",")) {
            String[] parts = t.split("@");
            ImageTagSpec tag = new ImageTagSpec();
            tag.setTag(parts[0]);
            if (parts.length > 1) {
                tag.setVersion(Long.parseLong(parts[1]));
            }
            tags.add(tag);
        }
        image.setTags(tags);
        spec.setImages(Map.of("app", image));
        return spec;
    }

    static ImageTagStatus tagStatus(String text) {
        boolean done = text.endsWith("+done");
        String t = done ? text.substring(0, text.length() - 5) : text;
        String[] tagAndPhase = t.split(":");
        String[] tagAndVersion = tagAndPhase[0].split("@");
        ImageTagStatus s = new ImageTagStatus();
        s.setTag(tagAndVersion[0]);
        if (tagAndVersion.length > 1) {
            s.setVersion(Long.parseLong(tagAndVersion[1]));
        }
        s.setPhase(tagAndPhase[1]);
        if (done) {
            s.setCompletionTime("2026-11-24T00:00:00Z");
        }
        return s;
    }

    static NodeImageStatus reported(String text) {
        NodeImageStatus status = new NodeImageStatus();
        if (text.equals("-")) {
            return status;
        }
        List<ImageTagStatus> tags = new ArrayList<>();
        for (String t : text.split(",")) {
            tags.add(tagStatus(t));
        }
        ImageStatus image = new ImageStatus();
        image.setTags(tags);
        status.setImageStatuses(Map.of("app", image));
        return status;
    }

    static Map<TagKey, Known> known(String text) {
        Map<TagKey, Known> known = new LinkedHashMap<>();
        if (text.equals("-")) {
            return known;
        }
        for (String t : text.split(",")) {
            ImageTagStatus s = tagStatus(t);
            known.put(new TagKey("app", s.getTag()), new Known(s.versionOrZero(), s));
        }
        return known;
    }

    @Test
    void droppedTagsAreTheOnesGoneFromTheSpec() {
        PullPlanner.Plan plan = PullPlanner.plan(spec("b@1"), null, known("a@1:Pulling,b@1:Pulling"));
        assertEquals(Set.of(new TagKey("app", "a")), plan.drop());
        assertTrue(plan.start().isEmpty());
    }
}
