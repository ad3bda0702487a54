package dev.kruisevertx.image;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The Events kruise-daemon's image puller records when a tag's pull ends: {@code PullImageSucceed} (Normal) on the
 * NodeImage, {@code PullImageFailed} (Warning) on each owner of the tag (its ImagePullJobs) and on the NodeImage,
 * from the component {@code kruise-daemon-imagepuller} on the node. Messages carry the image, the tag and the
 * runtime's error (never secrets); the success message keeps kruise-daemon's wording, misspelling included, so
 * tools matching it keep working.
 */
public final class PullEvents {
    public static final String COMPONENT = "kruise-daemon-imagepuller";
    public static final String SUCCEEDED = "PullImageSucceed";
    public static final String FAILED = "PullImageFailed";
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";

    /** One Event to record: on what, Normal or Warning, why, and the text. */
    public record PullEvent(ObjectReference on, String type, String reason, String message) {
    }

    private PullEvents() {
    }

    /** A reference to a NodeImage as client-go's GetReference makes it. */
    public static ObjectReference nodeImage(String name, String uid, String resourceVersion) {
        return new ObjectReferenceBuilder().withApiVersion("apps.kruise.io/v1beta1").withKind("NodeImage")
                .withName(name).withUid(uid).withResourceVersion(resourceVersion).build();
    }

    /** A pull that succeeded after {@code elapsed}. */
    public static List<PullEvent> succeeded(ObjectReference nodeImage, String image, String tag, Duration elapsed) {
        return List.of(new PullEvent(nodeImage, NORMAL, SUCCEEDED,
                "Image " + image + ":" + tag + ", ecalpsedTime " + goString(elapsed)));
    }

    /** A pull that failed for good: one Event per owner of the tag, then one on the NodeImage. */
    public static List<PullEvent> failed(ObjectReference nodeImage, List<ObjectReference> owners, String image,
                                         String tag, String error) {
        String message = "Image " + image + ":" + tag + " " + error;
        List<PullEvent> out = new ArrayList<>();
        for (ObjectReference owner : owners) {
            out.add(new PullEvent(owner, WARNING, FAILED, message));
        }
        out.add(new PullEvent(nodeImage, WARNING, FAILED, message));
        return out;
    }

    /**
     * The Event object, named {@code <object>.<16 hex>} as client-go names them, in the object's namespace (a
     * cluster-scoped NodeImage's in {@code default}), reported from {@code host}.
     */
    public static Event toEvent(PullEvent e, String host, Instant now) {
        String ns = e.on().getNamespace() == null || e.on().getNamespace().isEmpty() ? "default" : e.on().getNamespace();
        String time = now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        return new EventBuilder().withNewMetadata()
                .withName(e.on().getName() + "." + UUID.randomUUID().toString().replace("-", "").substring(0, 16))
                .withNamespace(ns).endMetadata()
                .withInvolvedObject(e.on())
                .withType(e.type()).withReason(e.reason()).withMessage(e.message()).withCount(1)
                .withFirstTimestamp(time).withLastTimestamp(time)
                .withNewSource().withComponent(COMPONENT).withHost(host).endSource()
                .build();
    }

    /** Go's time.Duration.String(): "1h2m3.5s", "2.003s", "1m0s", "450ms", "12µs", "0s". */
    public static String goString(Duration d) {
        long u = d.toNanos();
        String sign = u < 0 ? "-" : "";
        u = Math.abs(u);
        if (u < 1_000_000_000L) {
            if (u == 0) {
                return "0s";
            }
            if (u < 1_000) {
                return sign + u + "ns";
            }
            if (u < 1_000_000) {
                return sign + decimal(u, 3) + "µs";
            }
            return sign + decimal(u, 6) + "ms";
        }
        long seconds = u / 1_000_000_000L;
        String s = decimal((seconds % 60) * 1_000_000_000L + u % 1_000_000_000L, 9) + "s";
        long minutes = seconds / 60;
        if (minutes > 0) {
            s = minutes % 60 + "m" + s;
            long hours = minutes / 60;
            if (hours > 0) {
                s = hours + "h" + s;
            }
        }
        return sign + s;
    }

    /** {@code value / 10^digits} with the fraction's trailing zeros (and a bare point) left out. */
    private static String decimal(long value, int digits) {
        long scale = (long) Math.pow(10, digits);
        String fraction = String.format("%0" + digits + "d", value % scale).replaceAll("0+$", "");
        return (value / scale) + (fraction.isEmpty() ? "" : "." + fraction);
    }
}
