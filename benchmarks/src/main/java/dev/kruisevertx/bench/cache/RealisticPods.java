package dev.kruisevertx.bench.cache;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Pod JSON as a real API server serves it for a CloneSet's pods: two containers (app + envoy sidecar) with probes,
 * env, ports, resources and volume mounts; projected service-account volume; tolerations and readiness gate; a full
 * running status; OpenKruise labels; the {@code kubectl.kubernetes.io/last-applied-configuration} annotation of the
 * applied CloneSet; and managedFields as kube-apiserver writes them (the creating controller, the kubelet's status,
 * the readiness-gate writer). About 10 KB per pod.
 *
 * <p>Pod {@code i} belongs to CloneSet {@code i / 50} ({@value #PODS_PER_SET} pods each, so 1M pods are 20,000
 * sets), in one of {@value #NAMESPACES} namespaces, on node {@code i / 110}; the 40 app images are spread over the
 * sets. Names, uids, IPs, container ids and resourceVersions are unique per pod.
 */
final class RealisticPods {
    static final int PODS_PER_SET = 50;
    static final int NAMESPACES = 100;
    static final int PODS_PER_NODE = 110;
    static final int IMAGES = 40;

    private final String template;

    RealisticPods() {
        try (InputStream in = RealisticPods.class.getResourceAsStream("/bench/realistic-pod.json")) {
            if (in == null) {
                throw new IllegalStateException("bench/realistic-pod.json is missing from the class path");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\n", "");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    String json(int i) {
        int set = i / PODS_PER_SET;
        String setName = "app-" + set;
        String ns = "team-" + (set % NAMESPACES);
        int node = i / PODS_PER_NODE;
        String image = "registry.example.com/payments/service-" + (set % IMAGES) + ":1.4." + (set % 7);
        return template
                .replace("@NAME@", setName + "-" + suffix(i))
                .replace("@SET@", setName)
                .replace("@NS@", ns)
                .replace("@UID@", uuid(1, i))
                .replace("@OWNERUID@", uuid(2, set))
                .replace("@RV@", Integer.toString(1_000_000 + i))
                .replace("@ID@", suffix(i))
                .replace("@IMAGE@", image)
                .replace("@TOKEN@", suffix(i * 31 + 7).substring(0, 5))
                .replace("@NODE@", "node-" + node)
                .replace("@HOSTIP@", "10.0." + (node >> 8 & 255) + "." + (node & 255))
                .replace("@IP@", "10." + (64 + (i >> 16 & 63)) + "." + (i >> 8 & 255) + "." + (i & 255))
                .replace("@CID1@", hex64(i, 1))
                .replace("@CID2@", hex64(i, 2));
    }

    /** Five or more base-36 characters, unique per pod (as a CloneSet's random suffix looks). */
    private static String suffix(int i) {
        String s = Long.toString((i * 2654435761L) & 0xffffffffL ^ 0x5a5a5L, 36);
        return s.length() >= 5 ? s : ("00000" + s).substring(s.length());
    }

    private static String uuid(int kind, int i) {
        return new UUID(0x5eedL << 48 | (long) kind << 32 | i, 0x9e3779b97f4a7c15L * (i + 1)).toString();
    }

    private static String hex64(int i, int c) {
        StringBuilder b = new StringBuilder(64);
        long x = 0x9e3779b97f4a7c15L * (i * 4L + c);
        while (b.length() < 64) {
            b.append(String.format("%016x", x));
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return b.toString();
    }
}
