package dev.kruisevertx.webhook.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobNodeSelector;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobTemplate;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.image.ImageReference;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * OpenKruise v1.9.0's validation of ImagePullJob, ImageListPullJob and NodeImage. As there, the first problem found
 * is the only one reported, with OpenKruise's text; an empty result means valid.
 */
public final class ImagePullJobValidation {
    static final int MAX_IMAGES_PER_LIST = 255;
    static final int MAX_IMAGES_PER_NODE = 256;

    private ImagePullJobValidation() {
    }

    public static Optional<String> validate(ImagePullJobSpec spec) {
        Optional<String> selectors = selectors(spec);
        if (selectors.isPresent()) {
            return selectors;
        }
        String image = spec.getImage();
        if (image == null || image.isEmpty()) {
            return Optional.of("image can not be empty");
        }
        ImageReference.Result ref = ImageReference.parse(image);
        if (!ref.valid()) {
            return Optional.of("invalid image " + image + ": " + ref.error());
        }
        Optional<String> parallelism = parallelism(spec.getParallelism());
        if (parallelism.isPresent()) {
            return parallelism;
        }
        CompletionPolicy completion = spec.completionPolicy();
        String type = completion.getType() == null ? "" : completion.getType();
        switch (type) {
            case "Always" -> {
                long timeout = spec.pullPolicy().timeoutOrDefault();
                if (completion.getActiveDeadlineSeconds() != null && timeout > completion.getActiveDeadlineSeconds()) {
                    return Optional.of("completionPolicy.activeDeadlineSeconds must be greater than "
                            + "pullPolicy.timeoutSeconds(default 600)");
                }
                return Optional.empty();
            }
            case "Never" -> {
                return neverChecks(completion);
            }
            default -> {
                return Optional.of("unknown type of completionPolicy: " + type);
            }
        }
    }

    public static Optional<String> validate(ImageListPullJobSpec spec) {
        Optional<String> selectors = selectors(spec);
        if (selectors.isPresent()) {
            return selectors;
        }
        List<String> images = spec.images();
        if (images.isEmpty()) {
            return Optional.of("image can not be empty");
        }
        if (new HashSet<>(images).size() != images.size()) {
            return Optional.of("images cannot have duplicate values");
        }
        if (images.size() > MAX_IMAGES_PER_LIST) {
            return Optional.of("the maximum number of images cannot > " + MAX_IMAGES_PER_LIST);
        }
        for (String image : images) {
            ImageReference.Result ref = ImageReference.parse(image);
            if (!ref.valid()) {
                return Optional.of("invalid image " + image + ": " + ref.error());
            }
        }
        // Stricter than OpenKruise, which checks neither here: each image's ImagePullJob carries this template and
        // the ImagePullJob webhook refuses it for these two, so the list could never create a job.
        Optional<String> parallelism = parallelism(spec.getParallelism());
        if (parallelism.isPresent()) {
            return parallelism;
        }
        CompletionPolicy completion = spec.completionPolicy();
        String type = completion.getType() == null ? "" : completion.getType();
        return switch (type) {
            case "Always" -> completion.getActiveDeadlineSeconds() != null
                    && spec.pullPolicy().timeoutOrDefault() > completion.getActiveDeadlineSeconds()
                    ? Optional.of("completionPolicy.activeDeadlineSeconds must be greater than "
                    + "pullPolicy.timeoutSeconds(default 600)") : Optional.empty();
            case "Never" -> neverChecks(completion);
            default -> Optional.of("unknown type of completionPolicy: " + type);
        };
    }

    public static Optional<String> validate(NodeImageSpec spec) {
        Map<String, ImageSpec> images = spec.images();
        if (images.size() > MAX_IMAGES_PER_NODE) {
            return Optional.of("spec images length " + images.size() + " can not be more than "
                    + MAX_IMAGES_PER_NODE);
        }
        for (Map.Entry<String, ImageSpec> e : images.entrySet()) {
            String name = e.getKey();
            if (name.isEmpty()) {
                return Optional.of("image name can not be empty");
            }
            Set<String> seen = new HashSet<>();
            List<ImageTagSpec> tags = e.getValue() == null ? List.of() : e.getValue().tags();
            for (ImageTagSpec tag : tags) {
                String t = tag == null || tag.getTag() == null ? "" : tag.getTag();
                if (t.isEmpty()) {
                    return Optional.of("tag for image " + name + " can not be empty");
                }
                if (!seen.add(t)) {
                    return Optional.of("duplicated tag " + t + " for image " + name);
                }
                String fullName = name + "/" + t;
                if (tag.getCreatedAt() == null) {
                    return Optional.of("createAt field for " + fullName + " can not be empty");
                }
                if (tag.versionOrZero() < 0) {
                    return Optional.of("version for " + fullName + " can not be less than 0");
                }
                if (tag.getPullPolicy() == null) {
                    return Optional.of("pullPolicy field for " + fullName + " must set");
                }
                if (tag.getPullPolicy().getTtlSecondsAfterFinished() == null) {
                    return Optional.of("pullPolicy.ttlSecondsAfterFinished for " + fullName + " must set");
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> selectors(ImagePullJobTemplate spec) {
        ImagePullJobNodeSelector selector = spec.getSelector();
        if (selector != null) {
            if (selector.hasLabelPart()) {
                if (selector.getNames() != null) {
                    return Optional.of("can not set both names and labelSelector in this spec.selector");
                }
                try {
                    LabelSelectors.compile(selector.labelSelector());
                } catch (IllegalArgumentException e) {
                    return Optional.of("invalid selector: " + e.getMessage());
                }
            }
            if (selector.getNames() != null && new HashSet<>(selector.getNames()).size() != selector.getNames().size()) {
                return Optional.of("duplicated name in selector names");
            }
        }
        if (spec.getPodSelector() != null) {
            if (selector != null) {
                return Optional.of("can not set both selector and podSelector");
            }
            try {
                LabelSelectors.compile(spec.getPodSelector().labelSelector());
            } catch (IllegalArgumentException e) {
                return Optional.of("invalid podSelector: " + e.getMessage());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> parallelism(IntOrString parallelism) {
        if (parallelism == null) {
            return Optional.empty();
        }
        if (parallelism.getStrVal() != null) {
            String s = parallelism.getStrVal();
            if (s.endsWith("%")) {
                return Optional.of("parallelism does not support percentage value");
            }
            long value;
            try {
                value = Long.parseLong(s);
            } catch (NumberFormatException e) {
                return Optional.of("parallelism must be a valid integer: strconv.ParseInt: parsing \"" + s
                        + "\": invalid syntax");
            }
            if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
                return Optional.of("parallelism must be a valid integer: strconv.ParseInt: parsing \"" + s
                        + "\": value out of range");
            }
            return value < 0 ? Optional.of("parallelism must be non-negative") : Optional.empty();
        }
        Integer value = parallelism.getIntVal();
        return value != null && value < 0 ? Optional.of("parallelism must be non-negative") : Optional.empty();
    }

    private static Optional<String> neverChecks(CompletionPolicy completion) {
        if (completion.getActiveDeadlineSeconds() != null || completion.getTtlSecondsAfterFinished() != null) {
            return Optional.of("activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always "
                    + "CompletionPolicyType");
        }
        return Optional.empty();
    }
}
