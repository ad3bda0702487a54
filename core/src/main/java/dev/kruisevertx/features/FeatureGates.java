package dev.kruisevertx.features;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The effective feature gates of one process: defaults, overridden by {@code --feature-gates}, then
 * the rules OpenKruise applies at startup (a gate that depends on a disabled one is switched off).
 * Immutable and safe to share.
 */
public final class FeatureGates {
    /** Legacy variable: a comma-separated list of enabled kinds; without {@code SidecarSet} the pod webhook defaults to off. */
    public static final String CUSTOM_RESOURCE_ENABLE_ENV = "CUSTOM_RESOURCE_ENABLE";

    private static final Set<Feature> OFF_WITHOUT_POD_WEBHOOK = Set.of(
            Feature.KruisePodReadinessGate,
            Feature.PodUnavailableBudgetDeleteGate,
            Feature.PodUnavailableBudgetUpdateGate,
            Feature.WorkloadSpread,
            Feature.SidecarSetPatchPodMetadataDefaultsAllowed,
            Feature.EnhancedLivenessProbe,
            Feature.EnablePodProbeMarkerOnServerless);

    private static final Set<Feature> OFF_WITHOUT_DAEMON = Set.of(
            Feature.PreDownloadImageForInPlaceUpdate,
            Feature.PreDownloadImageForDaemonSetUpdate,
            Feature.DaemonWatchingPod,
            Feature.InPlaceUpdateEnvFromMetadata,
            Feature.PodProbeMarkerGate,
            Feature.SidecarTerminator,
            Feature.ImagePullJobGate,
            Feature.EnhancedLivenessProbe);

    private final Map<Feature, Boolean> enabled;

    private FeatureGates(Map<Feature, Boolean> enabled) {
        this.enabled = Collections.unmodifiableMap(new EnumMap<>(enabled));
    }

    /** The defaults with the derived rules applied, ignoring the environment. */
    public static FeatureGates defaults() {
        return parse("", Map.of());
    }

    /**
     * Parses a {@code --feature-gates} value such as {@code "A=true,B=false"} (blank means no overrides).
     *
     * @param env the process environment; only {@value #CUSTOM_RESOURCE_ENABLE_ENV} is read
     * @throws IllegalArgumentException naming the bad entry and listing the known gates, for an
     *         unknown gate, a missing {@code =}, or a value other than true/false
     */
    public static FeatureGates parse(String flagValue, Map<String, String> env) {
        Map<Feature, Boolean> gates = new EnumMap<>(Feature.class);
        boolean podWebhookDefault = podWebhookDefault(env == null ? Map.of() : env);
        for (Feature f : Feature.values()) {
            gates.put(f, f == Feature.PodWebhook ? podWebhookDefault : f.defaultEnabled());
        }
        if (flagValue != null && !flagValue.isBlank()) {
            for (String rawEntry : flagValue.split(",")) {
                String entry = rawEntry.trim();
                if (entry.isEmpty()) {
                    continue;
                }
                int eq = entry.indexOf('=');
                if (eq < 0) {
                    throw bad(entry, "expected Name=true|false");
                }
                String name = entry.substring(0, eq).trim();
                String value = entry.substring(eq + 1).trim();
                Feature feature = byName(name);
                if (feature == null) {
                    throw bad(entry, "unknown feature gate \"" + name + "\"");
                }
                gates.put(feature, parseBoolean(entry, value));
            }
        }
        applyDerivedRules(gates);
        return new FeatureGates(gates);
    }

    public boolean enabled(Feature f) {
        return enabled.get(f);
    }

    /** Every gate with its effective value, in declaration order. */
    public Map<Feature, Boolean> all() {
        return enabled;
    }

    /** The effective gates in {@code --feature-gates} syntax, sorted by name. */
    @Override
    public String toString() {
        return enabled.entrySet().stream()
                .map(e -> e.getKey().name() + "=" + e.getValue())
                .sorted()
                .collect(Collectors.joining(","));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeatureGates other && other.enabled.equals(enabled);
    }

    @Override
    public int hashCode() {
        return enabled.hashCode();
    }

    private static boolean podWebhookDefault(Map<String, String> env) {
        String raw = env.get(CUSTOM_RESOURCE_ENABLE_ENV);
        if (raw == null || raw.isBlank()) {
            return Feature.PodWebhook.defaultEnabled();
        }
        boolean sidecarSetEnabled = Arrays.stream(raw.trim().split(",")).anyMatch("SidecarSet"::equals);
        return sidecarSetEnabled && Feature.PodWebhook.defaultEnabled();
    }

    // Order matters and follows OpenKruise: the dependency switches first, then the pre-download
    // rule (which can only fire if the daemon is on, since the daemon rule cleared both pre-download gates).
    private static void applyDerivedRules(Map<Feature, Boolean> gates) {
        if (!gates.get(Feature.PodWebhook)) {
            OFF_WITHOUT_POD_WEBHOOK.forEach(f -> gates.put(f, false));
        }
        if (!gates.get(Feature.KruiseDaemon)) {
            OFF_WITHOUT_DAEMON.forEach(f -> gates.put(f, false));
        }
        if (gates.get(Feature.PreDownloadImageForInPlaceUpdate) || gates.get(Feature.PreDownloadImageForDaemonSetUpdate)) {
            gates.put(Feature.ImagePullJobGate, true);
        }
        if (!gates.get(Feature.ResourcesDeletionProtection)) {
            gates.put(Feature.DeletionProtectionForCRDCascadingGate, false);
        }
    }

    private static Feature byName(String name) {
        for (Feature f : Feature.values()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    // The spellings Go's strconv.ParseBool accepts, which is what OpenKruise's flag parser uses.
    private static final Set<String> TRUE_VALUES = Set.of("1", "t", "T", "true", "TRUE", "True");
    private static final Set<String> FALSE_VALUES = Set.of("0", "f", "F", "false", "FALSE", "False");

    private static boolean parseBoolean(String entry, String value) {
        if (TRUE_VALUES.contains(value)) {
            return true;
        }
        if (FALSE_VALUES.contains(value)) {
            return false;
        }
        throw bad(entry, "value \"" + value + "\" is not true or false");
    }

    private static IllegalArgumentException bad(String entry, String why) {
        String known = Arrays.stream(Feature.values()).map(Enum::name).sorted().collect(Collectors.joining(", "));
        return new IllegalArgumentException("invalid --feature-gates entry \"" + entry + "\": " + why
                + "; known gates: " + known);
    }
}
