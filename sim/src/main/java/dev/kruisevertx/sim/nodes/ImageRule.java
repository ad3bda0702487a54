package dev.kruisevertx.sim.nodes;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What happens to containers whose image matches {@code pattern}, a glob where {@code *} matches any run of
 * characters (e.g. {@code "*:broken"}, {@code "registry.local/slow/*"}).
 */
public record ImageRule(String pattern, Duration startDelay, ContainerFailure failure) {
    public ImageRule {
        if (pattern == null || pattern.isEmpty()) {
            throw new IllegalArgumentException("an image rule needs a non-empty pattern");
        }
        startDelay = startDelay == null ? Duration.ZERO : startDelay;
        failure = failure == null ? ContainerFailure.NONE : failure;
    }

    public boolean matches(String image) {
        String[] parts = pattern.split("\\*", -1);
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(parts[i]));
        }
        return Pattern.matches(regex.toString(), image == null ? "" : image);
    }
}
