package dev.kruisevertx.agent.imagepuller;

/**
 * Image names as the puller needs them: the reference a NodeImage image/tag pair stands for, and where its
 * registry credentials are looked up.
 */
public final class ImageRefs {
    public static final String DOCKER_HUB = "docker.io";

    private ImageRefs() {
    }

    /** {@code image:tag}, or {@code image@digest} when the tag is a digest ({@code sha256:...}). */
    public static String ref(String image, String tag) {
        return tag.contains(":") ? image + "@" + tag : image + ":" + tag;
    }

    /**
     * The repository a credential lookup matches against: registry host and path, with Docker Hub written out
     * ({@code busybox} is {@code docker.io/library/busybox}).
     */
    public static String repository(String image) {
        String name = image;
        int at = name.indexOf('@');
        if (at >= 0) {
            name = name.substring(0, at);
        }
        int slash = name.indexOf('/');
        String first = slash < 0 ? "" : name.substring(0, slash);
        boolean hasRegistry = slash >= 0 && (first.contains(".") || first.contains(":") || first.equals("localhost"));
        if (!hasRegistry) {
            return DOCKER_HUB + "/" + (slash < 0 ? "library/" + name : name);
        }
        String host = first.equals("index.docker.io") || first.equals("registry-1.docker.io") ? DOCKER_HUB : first;
        return host + name.substring(slash);
    }
}
