package dev.kruisevertx.webhook.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobTemplate;
import dev.kruisevertx.api.apps.v1beta1.ImagePullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.PullPolicy;

/** OpenKruise v1.9.0's defaults for ImagePullJob, ImageListPullJob and NodeImage (both versions alike). */
public final class ImagePullJobDefaults {
    /** The finalizer v1alpha1 ImagePullJobs get on creation (v1beta1 ones do not). */
    public static final String PROTECTION_FINALIZER = "apps.kruise.io/deletion-protection";

    private ImagePullJobDefaults() {
    }

    /** Completion Always, timeout 600 s, 3 retries; {@code imagePullPolicy} IfNotPresent only for an ImagePullJob. */
    public static void apply(ImagePullJobTemplate spec, boolean defaultImagePullPolicy) {
        CompletionPolicy completion = spec.getCompletionPolicy() == null ? new CompletionPolicy()
                : spec.getCompletionPolicy();
        if (completion.getType() == null || completion.getType().isEmpty()) {
            completion.setType(CompletionPolicyType.ALWAYS.value());
        }
        spec.setCompletionPolicy(completion);
        PullPolicy pull = spec.getPullPolicy() == null ? new PullPolicy() : spec.getPullPolicy();
        if (pull.getTimeoutSeconds() == null) {
            pull.setTimeoutSeconds(PullPolicy.DEFAULT_TIMEOUT_SECONDS);
        }
        if (pull.getBackoffLimit() == null) {
            pull.setBackoffLimit(PullPolicy.DEFAULT_BACKOFF_LIMIT);
        }
        spec.setPullPolicy(pull);
        if (defaultImagePullPolicy && (spec.getImagePullPolicy() == null || spec.getImagePullPolicy().isEmpty())) {
            spec.setImagePullPolicy(ImagePullPolicy.IF_NOT_PRESENT.value());
        }
    }

    /** Every tag gets {@code createdAt} (now) and a pull policy with timeout 600 s and 3 retries. */
    public static void apply(NodeImageSpec spec, String now) {
        for (ImageSpec image : spec.images().values()) {
            if (image == null) {
                continue;
            }
            for (ImageTagSpec tag : image.tags()) {
                if (tag == null) {
                    continue;
                }
                if (tag.getCreatedAt() == null) {
                    tag.setCreatedAt(now);
                }
                ImageTagPullPolicy pull = tag.getPullPolicy() == null ? new ImageTagPullPolicy() : tag.getPullPolicy();
                if (pull.getTimeoutSeconds() == null) {
                    pull.setTimeoutSeconds(PullPolicy.DEFAULT_TIMEOUT_SECONDS);
                }
                if (pull.getBackoffLimit() == null) {
                    pull.setBackoffLimit(PullPolicy.DEFAULT_BACKOFF_LIMIT);
                }
                tag.setPullPolicy(pull);
            }
        }
    }
}
