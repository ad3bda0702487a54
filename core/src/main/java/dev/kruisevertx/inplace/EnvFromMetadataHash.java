package dev.kruisevertx.inplace;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The hash OpenKruise keeps in {@code runtime-containers-meta} as {@code extractedEnvFromMetadataHash}: over the env
 * variables of a container that take their value from a pod label or annotation ({@code valueFrom.fieldRef} with
 * {@code metadata.labels['k']} or {@code metadata.annotations['k']}), sorted by name.
 *
 * <p>The manager computes the expected hash from the pod's current labels/annotations; the node agent computes the
 * current hash from the values the running container actually has. They differ exactly when the container still runs
 * with old values, which is what makes the agent restart it during an in-place update.
 *
 * <p>The value is the one kruise-daemon writes: 32-bit FNV-1a over Go's {@code %#v} rendering of the JSON of the
 * {@code [{name, value}]} list, so an annotation written by either agent reads the same in either manager.
 */
public final class EnvFromMetadataHash {
    /** Hot-upgrade version variables: they change on every sidecar upgrade and must not restart the container. */
    private static final Set<String> EXCLUDED = Set.of("SIDECARSET_VERSION", "SIDECARSET_VERSION_ALT");
    private static final String LABELS = "metadata.labels";
    private static final String ANNOTATIONS = "metadata.annotations";

    private EnvFromMetadataHash() {
    }

    /** A reference {@code path['key']} of a fieldRef, or null when the path is not subscripted. */
    record Reference(String path, String key) {
        static Reference parse(String fieldPath) {
            if (fieldPath == null || !fieldPath.endsWith("']")) {
                return null;
            }
            String s = fieldPath.substring(0, fieldPath.length() - 2);
            int open = s.indexOf("['");
            if (open <= 0) {
                return null;
            }
            return new Reference(s.substring(0, open), s.substring(open + 2));
        }

        boolean toMetadata() {
            return LABELS.equals(path) || ANNOTATIONS.equals(path);
        }
    }

    /** The hash the container should have: env values taken from the pod's current labels and annotations. */
    public static long expected(Container c, Map<String, String> labels, Map<String, String> annotations) {
        List<String[]> envs = new ArrayList<>();
        for (EnvVar e : env(c)) {
            Reference ref = reference(e);
            if (ref == null || !ref.toMetadata()) {
                continue;
            }
            Map<String, String> source = LABELS.equals(ref.path()) ? labels : annotations;
            String value = source == null ? null : source.get(ref.key());
            envs.add(new String[]{e.getName(), value == null ? "" : value});
        }
        return hash(envs);
    }

    /**
     * The hash the running container has: {@code running} gives the value of a variable in the container (null or
     * empty when unset).
     */
    public static long current(Container c, Function<String, String> running) {
        List<String[]> envs = new ArrayList<>();
        for (EnvVar e : env(c)) {
            Reference ref = reference(e);
            if (ref == null || !ref.toMetadata()) {
                continue;
            }
            String value = running.apply(e.getName());
            envs.add(new String[]{e.getName(), value == null ? "" : value});
        }
        return hash(envs);
    }

    /** Whether the container has any env taken from a label or annotation (only those can need a restart). */
    public static boolean referencesMetadata(Container c) {
        for (EnvVar e : env(c)) {
            Reference ref = reference(e);
            if (ref != null && ref.toMetadata()) {
                return true;
            }
        }
        return false;
    }

    /** The value of {@code env} output ({@code NAME=value} lines) by name; lines without '=' are skipped. */
    public static Map<String, String> parseEnvOutput(String stdout) {
        Map<String, String> out = new java.util.HashMap<>();
        if (stdout == null) {
            return out;
        }
        for (String line : stdout.strip().split("\n")) {
            String l = line.strip();
            int eq = l.indexOf('=');
            if (eq >= 0) {
                out.put(l.substring(0, eq), l.substring(eq + 1));
            }
        }
        return out;
    }

    private static List<EnvVar> env(Container c) {
        return c == null || c.getEnv() == null ? List.of() : c.getEnv();
    }

    private static Reference reference(EnvVar e) {
        if (e == null || e.getName() == null || (e.getValue() != null && !e.getValue().isEmpty())
                || e.getValueFrom() == null || e.getValueFrom().getFieldRef() == null
                || EXCLUDED.contains(e.getName())) {
            return null;
        }
        return Reference.parse(e.getValueFrom().getFieldRef().getFieldPath());
    }

    static long hash(List<String[]> envs) {
        envs.sort(Comparator.comparing((String[] e) -> e[0]));
        byte[] json = goJson(envs).getBytes(StandardCharsets.UTF_8);
        // Go's %#v of a []byte: []byte{0x7b, 0x22, ...}, unpadded lower-case hex.
        StringBuilder printed = new StringBuilder(json.length * 6 + 8).append("[]byte{");
        for (int i = 0; i < json.length; i++) {
            if (i > 0) {
                printed.append(", ");
            }
            printed.append("0x").append(Integer.toHexString(json[i] & 0xff));
        }
        printed.append('}');
        int h = 0x811c9dc5;
        for (int i = 0; i < printed.length(); i++) {
            h ^= printed.charAt(i);
            h *= 0x01000193;
        }
        return Integer.toUnsignedLong(h);
    }

    /** encoding/json of a []EnvVar holding only name and value (value omitted when empty; a nil list is null). */
    private static String goJson(List<String[]> envs) {
        if (envs.isEmpty()) {
            return "null";
        }
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < envs.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append("{\"name\":");
            goString(b, envs.get(i)[0]);
            if (!envs.get(i)[1].isEmpty()) {
                b.append(",\"value\":");
                goString(b, envs.get(i)[1]);
            }
            b.append('}');
        }
        return b.append(']').toString();
    }

    private static void goString(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '<', '>', '&', '\u2028', '\u2029' -> b.append(String.format("\\u%04x", (int) ch));
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else if (Character.isSurrogate(ch)) {
                        if (Character.isHighSurrogate(ch) && i + 1 < s.length()
                                && Character.isLowSurrogate(s.charAt(i + 1))) {
                            b.append(ch).append(s.charAt(++i));
                        } else {
                            b.append('\ufffd');
                        }
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        b.append('"');
    }
}
