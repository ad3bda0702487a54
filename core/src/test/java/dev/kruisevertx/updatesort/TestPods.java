package dev.kruisevertx.updatesort;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds pods from a compact label notation: "a=1,b=2"; "" for no labels; "-" for a null slot. */
final class TestPods {
    private TestPods() {
    }

    static Map<String, String> labels(String spec) {
        Map<String, String> m = new LinkedHashMap<>();
        if (spec == null || spec.isEmpty()) {
            return m;
        }
        for (String kv : spec.split(",")) {
            String[] p = kv.split("=", 2);
            if (p.length == 2) {
                m.put(p[0], p[1]);
            }
        }
        return m;
    }

    static List<Pod> pods(String... specs) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            if ("-".equals(specs[i])) {
                pods.add(null);
                continue;
            }
            pods.add(new PodBuilder().withNewMetadata().withName("p" + i).withNamespace("default")
                    .withLabels(labels(specs[i])).endMetadata().build());
        }
        return pods;
    }

    static List<Integer> ints(int... v) {
        List<Integer> l = new ArrayList<>();
        for (int x : v) {
            l.add(x);
        }
        return l;
    }
}
