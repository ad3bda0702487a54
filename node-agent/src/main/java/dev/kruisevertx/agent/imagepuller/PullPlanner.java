package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.api.apps.v1beta1.ImagePullPhase;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The image puller's pure decisions (kruise-daemon's worker pool sync and status computation): which tags to pull,
 * which pulls to stop, which finished results to take over from the reported status, and the status to report.
 *
 * <p>A tag is identified by image and tag; its {@code version} is the pull round the manager asks for. A tag whose
 * reported status has a completion time at the asked version is finished and not pulled again (also after an agent
 * restart); a tag the agent already handles at that version is left alone; any other tag is pulled, stopping a pull of
 * an older version. Tags no longer in the spec are stopped and their statuses dropped.
 */
public final class PullPlanner {

    /** One tag of one image. */
    public record TagKey(String image, String tag) {
        @Override
        public String toString() {
            return ImageRefs.ref(image, tag);
        }
    }

    /** What the agent knows of a tag: the version it handles and its current status. */
    public record Known(long version, ImageTagStatus status) {
    }

    /**
     * @param start  tags to pull now (a worker each), with their spec and image
     * @param stop   tags whose workers end (gone from the spec, or a newer version asked for)
     * @param adopt  finished results reported before, taken over without pulling
     * @param drop   tags whose state is forgotten (no longer in the spec)
     * @param skipped tags of the spec that cannot be pulled, with the reason (no tag name)
     */
    public record Plan(List<Start> start, Set<TagKey> stop, Map<TagKey, ImageTagStatus> adopt, Set<TagKey> drop,
                       List<String> skipped) {
        public boolean idle() {
            return start.isEmpty() && stop.isEmpty() && adopt.isEmpty() && drop.isEmpty();
        }
    }

    public record Start(TagKey key, ImageSpec image, ImageTagSpec tag) {
    }

    private PullPlanner() {
    }

    public static Plan plan(NodeImageSpec spec, NodeImageStatus reported, Map<TagKey, Known> known) {
        List<Start> start = new ArrayList<>();
        Set<TagKey> stop = new LinkedHashSet<>();
        Map<TagKey, ImageTagStatus> adopt = new LinkedHashMap<>();
        Set<TagKey> wanted = new LinkedHashSet<>();
        List<String> skipped = new ArrayList<>();
        Map<String, ImageStatus> statuses = reported == null ? Map.of() : reported.imageStatuses();
        for (Map.Entry<String, ImageSpec> image : spec == null ? Set.<Map.Entry<String, ImageSpec>>of()
                : spec.images().entrySet()) {
            if (image.getValue() == null || image.getKey() == null || image.getKey().isBlank()) {
                continue;
            }
            for (ImageTagSpec tag : image.getValue().tags()) {
                if (tag == null || tag.getTag() == null || tag.getTag().isBlank()) {
                    skipped.add(image.getKey() + ": a tag without a name");
                    continue;
                }
                TagKey key = new TagKey(image.getKey(), tag.getTag());
                if (!wanted.add(key)) {
                    skipped.add(key + ": listed twice, the first entry is used");
                    continue;
                }
                long version = tag.versionOrZero();
                Known mine = known.get(key);
                if (mine != null && mine.version() == version) {
                    continue;
                }
                if (mine != null) {
                    stop.add(key);
                }
                ImageTagStatus done = finished(statuses.get(image.getKey()), tag.getTag(), version);
                if (done != null) {
                    adopt.put(key, done);
                } else {
                    start.add(new Start(key, image.getValue(), tag));
                }
            }
        }
        Set<TagKey> drop = new LinkedHashSet<>();
        for (TagKey key : known.keySet()) {
            if (!wanted.contains(key)) {
                stop.add(key);
                drop.add(key);
            }
        }
        return new Plan(start, stop, adopt, drop, skipped);
    }

    /** The reported status of that tag at that version, if it has finished there. */
    private static ImageTagStatus finished(ImageStatus status, String tag, long version) {
        if (status == null) {
            return null;
        }
        for (ImageTagStatus s : status.tags()) {
            if (s != null && tag.equals(s.getTag()) && s.versionOrZero() == version && s.getCompletionTime() != null) {
                return s;
            }
        }
        return null;
    }

    /**
     * The NodeImage status to report: for each image of the spec, the statuses of its tags the agent knows, in spec
     * order; {@code desired} counts the spec's tags, the other counts the reported phases.
     */
    public static NodeImageStatus status(NodeImageSpec spec, Map<TagKey, Known> known) {
        NodeImageStatus out = new NodeImageStatus();
        Map<String, ImageStatus> images = new LinkedHashMap<>();
        int desired = 0;
        for (Map.Entry<String, ImageSpec> image : spec == null ? Set.<Map.Entry<String, ImageSpec>>of()
                : spec.images().entrySet()) {
            if (image.getValue() == null) {
                continue;
            }
            List<ImageTagStatus> tags = new ArrayList<>();
            Set<String> seen = new LinkedHashSet<>();
            for (ImageTagSpec tag : image.getValue().tags()) {
                if (tag == null || tag.getTag() == null || tag.getTag().isBlank() || !seen.add(tag.getTag())) {
                    continue;
                }
                desired++;
                Known k = known.get(new TagKey(image.getKey(), tag.getTag()));
                if (k == null || k.status() == null) {
                    continue;
                }
                tags.add(k.status());
                switch (k.status().phaseValue().orElse(ImagePullPhase.WAITING)) {
                    case SUCCEEDED -> out.setSucceeded(out.getSucceeded() + 1);
                    case FAILED -> out.setFailed(out.getFailed() + 1);
                    case PULLING -> out.setPulling(out.getPulling() + 1);
                    case WAITING -> out.setWaiting(out.getWaiting() + 1);
                }
            }
            if (!tags.isEmpty()) {
                ImageStatus s = new ImageStatus();
                s.setTags(tags);
                images.put(image.getKey(), s);
            }
        }
        out.setDesired(desired);
        out.setImageStatuses(images.isEmpty() ? null : images);
        return out;
    }
}
