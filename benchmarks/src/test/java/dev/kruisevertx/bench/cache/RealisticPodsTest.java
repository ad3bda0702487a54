package dev.kruisevertx.bench.cache;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The spliced template must produce exactly the pods the placeholder-by-placeholder replacement produced. */
class RealisticPodsTest {
    private final RealisticPods pods = new RealisticPods();

    @Test
    void splicedPodsEqualTheTemplateWithEveryPlaceholderReplaced() throws IOException {
        String template;
        try (InputStream in = RealisticPods.class.getResourceAsStream("/bench/realistic-pod.json")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\n", "");
        }
        for (int i : new int[]{0, 1, 49, 50, 109, 110, 12_345, 65_536, 999_999}) {
            assertEquals(replaced(template, i), pods.json(i), "pod " + i);
        }
    }

    @Test
    void podsDecodeWithUniqueNamesAndTheirSetAsOwner() {
        KubernetesSerialization json = new KubernetesSerialization();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            Pod pod = json.unmarshal(pods.json(i), Pod.class);
            assertTrue(names.add(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()));
            assertEquals("app-" + i / RealisticPods.PODS_PER_SET, pod.getMetadata().getOwnerReferences().get(0).getName());
            assertEquals(2, pod.getSpec().getContainers().size());
        }
    }

    /** The reference: each placeholder replaced through the whole template, as the generator first did it. */
    private static String replaced(String template, int i) {
        int set = i / RealisticPods.PODS_PER_SET;
        String setName = "app-" + set;
        int node = i / RealisticPods.PODS_PER_NODE;
        return template
                .replace("@NAME@", setName + "-" + suffix(i))
                .replace("@SET@", setName)
                .replace("@NS@", "team-" + (set % RealisticPods.NAMESPACES))
                .replace("@UID@", new UUID(0x5eedL << 48 | 1L << 32 | i, 0x9e3779b97f4a7c15L * (i + 1)).toString())
                .replace("@OWNERUID@", new UUID(0x5eedL << 48 | 2L << 32 | set, 0x9e3779b97f4a7c15L * (set + 1)).toString())
                .replace("@RV@", Integer.toString(1_000_000 + i))
                .replace("@ID@", suffix(i))
                .replace("@IMAGE@", "registry.example.com/payments/service-" + (set % RealisticPods.IMAGES) + ":1.4." + (set % 7))
                .replace("@TOKEN@", suffix(i * 31 + 7).substring(0, 5))
                .replace("@NODE@", "node-" + node)
                .replace("@HOSTIP@", "10.0." + (node >> 8 & 255) + "." + (node & 255))
                .replace("@IP@", "10." + (64 + (i >> 16 & 63)) + "." + (i >> 8 & 255) + "." + (i & 255))
                .replace("@CID1@", hex64(i, 1))
                .replace("@CID2@", hex64(i, 2));
    }

    private static String suffix(int i) {
        String s = Long.toString((i * 2654435761L) & 0xffffffffL ^ 0x5a5a5L, 36);
        return s.length() >= 5 ? s : ("00000" + s).substring(s.length());
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
