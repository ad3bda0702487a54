package dev.kruisevertx.inplace;

import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.function.Function;

/**
 * Inputs of an in-place update decision besides the two revisions.
 *
 * @param gracePeriodSeconds     {@code inPlaceUpdateStrategy.gracePeriodSeconds}: seconds between marking the pod
 *                               not ready and changing its containers (0 = at once)
 * @param envFromMetadataEnabled gate InPlaceUpdateEnvFromMetadata: env values taken from pod labels/annotations can
 *                               change in place
 * @param revisionName           the revision name recorded on the pod for a ControllerRevision (default: its name)
 */
public record InPlaceUpdateOptions(int gracePeriodSeconds, boolean envFromMetadataEnabled,
                                   Function<ControllerRevision, String> revisionName) {

    public InPlaceUpdateOptions {
        if (gracePeriodSeconds < 0) {
            throw new IllegalArgumentException("gracePeriodSeconds must not be negative, got " + gracePeriodSeconds);
        }
        if (revisionName == null) {
            revisionName = r -> r.getMetadata() == null ? null : r.getMetadata().getName();
        }
    }

    /** No grace, env-from-metadata on (the gate's default), revision = ControllerRevision name. */
    public static InPlaceUpdateOptions defaults() {
        return new InPlaceUpdateOptions(0, Feature.InPlaceUpdateEnvFromMetadata.defaultEnabled(), null);
    }

    /** Defaults with the gates of this manager. */
    public static InPlaceUpdateOptions of(FeatureGates gates) {
        return new InPlaceUpdateOptions(0, gates.enabled(Feature.InPlaceUpdateEnvFromMetadata), null);
    }

    public InPlaceUpdateOptions withGracePeriodSeconds(int seconds) {
        return new InPlaceUpdateOptions(seconds, envFromMetadataEnabled, revisionName);
    }

    public InPlaceUpdateOptions withEnvFromMetadata(boolean enabled) {
        return new InPlaceUpdateOptions(gracePeriodSeconds, enabled, revisionName);
    }

    public InPlaceUpdateOptions withRevisionName(Function<ControllerRevision, String> f) {
        return new InPlaceUpdateOptions(gracePeriodSeconds, envFromMetadataEnabled, f);
    }
}
