package dev.kruisevertx.image;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container image reference split as OpenKruise's image pulling splits it: the familiar name (the key of a
 * NodeImage's {@code spec.images}: {@code nginx}, {@code foo/bar}, {@code registry:5000/app}) and the tag
 * ({@code latest} when none; a digest reference's tag is the digest itself). Parsing follows the grammar of the
 * distribution reference library (the one behind Docker's and containerd's "invalid reference format").
 *
 * @param name   the familiar name
 * @param tag    the tag or {@code algorithm:hex} digest
 * @param domain the registry, {@code docker.io} for Docker Hub
 */
public record ImageReference(String name, String tag, String domain) {
    static final String DOCKER_HUB = "docker.io";
    static final int NAME_MAX = 255;

    private static final String DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
    private static final String DOMAIN = DOMAIN_COMPONENT + "(?:\\." + DOMAIN_COMPONENT + ")*(?::[0-9]+)?";
    private static final String PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*";
    private static final String TAG = "[\\w][\\w.-]{0,127}";
    private static final String DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
    private static final Pattern REFERENCE = Pattern.compile("^((?:" + DOMAIN + "/)?" + PATH_COMPONENT + "(?:/"
            + PATH_COMPONENT + ")*)(?::(" + TAG + "))?(?:@(" + DIGEST + "))?$");
    private static final Pattern ANY_CASE_NAME = Pattern.compile("^((?:" + DOMAIN + "/)?" + PATH_COMPONENT
            .replace("a-z", "a-zA-Z") + "(?:/" + PATH_COMPONENT.replace("a-z", "a-zA-Z") + ")*)(?::(" + TAG
            + "))?(?:@(" + DIGEST + "))?$");

    /** Parses {@code ref}, or explains why it is not a reference (the error text of the reference library). */
    public static Result parse(String ref) {
        if (ref == null || ref.isEmpty()) {
            return Result.error("repository name must have at least one component");
        }
        Matcher m = REFERENCE.matcher(ref);
        if (!m.matches()) {
            if (ANY_CASE_NAME.matcher(ref).matches()) {
                return Result.error("repository name must be lowercase");
            }
            return Result.error("invalid reference format");
        }
        String fullName = m.group(1);
        if (fullName.length() > NAME_MAX) {
            return Result.error("repository name must not be more than " + NAME_MAX + " characters");
        }
        String domain = DOCKER_HUB;
        String remainder = fullName;
        int slash = fullName.indexOf('/');
        if (slash >= 0) {
            String first = fullName.substring(0, slash);
            if (first.contains(".") || first.contains(":") || first.equals("localhost")
                    || !first.equals(first.toLowerCase(Locale.ROOT))) {
                domain = first;
                remainder = fullName.substring(slash + 1);
            }
        }
        if (domain.equals("index.docker.io")) {
            domain = DOCKER_HUB;
        }
        if (!domain.equals(DOCKER_HUB) && !remainder.equals(remainder.toLowerCase(Locale.ROOT))) {
            return Result.error("repository name must be lowercase");
        }
        String familiar;
        if (domain.equals(DOCKER_HUB)) {
            familiar = remainder.startsWith("library/") && remainder.indexOf('/', 8) < 0
                    ? remainder.substring(8) : remainder;
        } else {
            familiar = domain + "/" + remainder;
        }
        String tag = m.group(3) != null ? m.group(3) : m.group(2) != null ? m.group(2) : "latest";
        return new Result(Optional.of(new ImageReference(familiar, tag, domain)), null);
    }

    /** The reference as a runtime is asked to pull it: {@code name:tag}, or {@code name@digest}. */
    public String pullRef() {
        return tag.contains(":") ? name + "@" + tag : name + ":" + tag;
    }

    /** The outcome of {@link #parse}: a reference, or an error message. */
    public record Result(Optional<ImageReference> reference, String error) {
        static Result error(String message) {
            return new Result(Optional.empty(), message);
        }

        public boolean valid() {
            return reference.isPresent();
        }

        public ImageReference get() {
            return reference.orElseThrow(() -> new IllegalArgumentException(error));
        }
    }
}
