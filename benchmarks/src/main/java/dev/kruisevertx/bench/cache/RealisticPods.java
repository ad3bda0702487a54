package dev.kruisevertx.bench.cache;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 *
 * <p>The template is split once into literal byte runs and placeholders, so a pod costs one pass of byte copies
 * plus its ~15 short field values; a stand-in server that re-scans the 10 KB template per field would be the
 * benchmark's bottleneck instead of the cache it measures. The field values contain no JSON metacharacters, so
 * they are spliced unescaped (inside the last-applied annotation's escaped JSON too).
 */
final class RealisticPods {
    static final int PODS_PER_SET = 50;
    static final int NAMESPACES = 100;
    static final int PODS_PER_NODE = 110;
    static final int IMAGES = 40;

    /** Placeholders of the template, in the order of {@link #fields}. */
    private static final List<String> PLACEHOLDERS = List.of("@NAME@", "@SET@", "@NS@", "@UID@", "@OWNERUID@",
            "@RV@", "@ID@", "@IMAGE@", "@TOKEN@", "@NODE@", "@HOSTIP@", "@IP@", "@CID1@", "@CID2@");
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** literals[k] is followed by the field slots[k]; the last literal has no slot after it. */
    private final byte[][] literals;
    private final int[] slots;

    RealisticPods() {
        String template;
        try (InputStream in = RealisticPods.class.getResourceAsStream("/bench/realistic-pod.json")) {
            if (in == null) {
                throw new IllegalStateException("bench/realistic-pod.json is missing from the class path");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\n", "");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        List<byte[]> lits = new ArrayList<>();
        List<Integer> slotList = new ArrayList<>();
        int from = 0;
        while (true) {
            int at = -1;
            int which = -1;
            for (int k = 0; k < PLACEHOLDERS.size(); k++) {
                int p = template.indexOf(PLACEHOLDERS.get(k), from);
                if (p >= 0 && (at < 0 || p < at)) {
                    at = p;
                    which = k;
                }
            }
            if (at < 0) {
                lits.add(template.substring(from).getBytes(StandardCharsets.UTF_8));
                break;
            }
            lits.add(template.substring(from, at).getBytes(StandardCharsets.UTF_8));
            slotList.add(which);
            from = at + PLACEHOLDERS.get(which).length();
        }
        literals = lits.toArray(new byte[0][]);
        slots = slotList.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Pod {@code i} as a JSON string. */
    String json(int i) {
        Bytes out = new Bytes(11_000);
        write(i, out);
        return new String(out.buf, 0, out.len, StandardCharsets.UTF_8);
    }

    /** Appends pod {@code i}'s JSON to {@code out}. */
    void write(int i, Bytes out) {
        byte[][] f = fields(i);
        for (int k = 0; k < slots.length; k++) {
            out.append(literals[k]);
            out.append(f[slots[k]]);
        }
        out.append(literals[literals.length - 1]);
    }

    private static byte[][] fields(int i) {
        int set = i / PODS_PER_SET;
        String setName = "app-" + set;
        int node = i / PODS_PER_NODE;
        String id = suffix(i);
        return new byte[][]{
                ascii(setName + "-" + id),
                ascii(setName),
                ascii("team-" + (set % NAMESPACES)),
                ascii(uuid(1, i)),
                ascii(uuid(2, set)),
                ascii(Integer.toString(1_000_000 + i)),
                ascii(id),
                ascii("registry.example.com/payments/service-" + (set % IMAGES) + ":1.4." + (set % 7)),
                ascii(suffix(i * 31 + 7).substring(0, 5)),
                ascii("node-" + node),
                ascii("10.0." + (node >> 8 & 255) + "." + (node & 255)),
                ascii("10." + (64 + (i >> 16 & 63)) + "." + (i >> 8 & 255) + "." + (i & 255)),
                hex64(i, 1),
                hex64(i, 2)};
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Five or more base-36 characters, unique per pod (as a CloneSet's random suffix looks). */
    private static String suffix(int i) {
        String s = Long.toString((i * 2654435761L) & 0xffffffffL ^ 0x5a5a5L, 36);
        return s.length() >= 5 ? s : ("00000" + s).substring(s.length());
    }

    private static String uuid(int kind, int i) {
        return new UUID(0x5eedL << 48 | (long) kind << 32 | i, 0x9e3779b97f4a7c15L * (i + 1)).toString();
    }

    /** 64 lowercase hex digits: four 16-digit words of a small LCG seeded by pod and container. */
    private static byte[] hex64(int i, int c) {
        byte[] b = new byte[64];
        long x = 0x9e3779b97f4a7c15L * (i * 4L + c);
        for (int w = 0; w < 4; w++) {
            for (int d = 0; d < 16; d++) {
                b[w * 16 + d] = HEX[(int) (x >>> (60 - 4 * d)) & 15];
            }
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return b;
    }

    /** A growable byte array the page is written into, handed to the HTTP server without another copy. */
    static final class Bytes {
        byte[] buf;
        int len;

        Bytes(int capacity) {
            buf = new byte[capacity];
        }

        void append(byte[] b) {
            if (len + b.length > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + b.length));
            }
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
        }

        void append(String ascii) {
            append(ascii.getBytes(StandardCharsets.US_ASCII));
        }

        void append(byte b) {
            if (len == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            buf[len++] = b;
        }
    }
}
