package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.cli.GoDuration;

import java.time.Duration;

/**
 * A container that ends on its own: it exits with {@code code} {@code after} it started. Written {@code code=0,after=2s}
 * (either part may be left out: code 0, after 0s), the form of the {@value #ANNOTATION} pod annotation.
 */
public record ContainerExit(int code, Duration after) {
    /** Pod annotation for every container of the pod; {@value #ANNOTATION}{@code .<container>} for one container. */
    public static final String ANNOTATION = "sim.kruise-vertx.dev/exit";

    public ContainerExit {
        if (code < 0 || code > 255) {
            throw new IllegalArgumentException("an exit code is 0..255, got " + code);
        }
        after = after == null ? Duration.ZERO : after;
        if (after.isNegative()) {
            throw new IllegalArgumentException("an exit delay must be >= 0");
        }
    }

    /** Parses {@code code=3,after=1500ms}; a clear error names what is wrong. */
    public static ContainerExit parse(String text) {
        int code = 0;
        Duration after = Duration.ZERO;
        for (String part : text.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            String key = eq < 0 ? p : p.substring(0, eq).trim();
            String value = eq < 0 ? "" : p.substring(eq + 1).trim();
            try {
                switch (key) {
                    case "code" -> code = Integer.parseInt(value);
                    case "after" -> after = GoDuration.parse(value);
                    default -> throw new IllegalArgumentException("unknown key \"" + key + "\"");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid container exit \"" + text + "\" (expected e.g. \"code=0,after=2s\"): "
                        + e.getMessage(), e);
            }
        }
        return new ContainerExit(code, after);
    }
}
