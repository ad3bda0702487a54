package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.ResourceExprValues;
import dev.kruisevertx.api.apps.v1beta1.ResourcesExpr;
import dev.kruisevertx.api.apps.v1beta1.ResourcesPolicy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sidecar resources OpenKruise v1.9 computes from a resourcesPolicy (the facts of its
 * {@code sidecarset_resources_test.go}: applyResourcesPolicy, aggregation by sum and max, target selection,
 * expressions), plus this project's edge cases. Expected values are Go's {@code Quantity.String()}.
 */
class SidecarResourcesPolicyTest {
    /** Container with limits and requests "cpu/memory"; null or "-" leaves one out. */
    static Container c(String name, String limits, String requests) {
        return new ContainerBuilder().withName(name).withImage("nginx:1.14.2")
                .withResources(new ResourceRequirements(null, list(limits), list(requests))).build();
    }

    static Container nativeSidecar(Container c) {
        return new ContainerBuilder(c).withRestartPolicy("Always").build();
    }

    static Map<String, Quantity> list(String cpuSlashMemory) {
        if (cpuSlashMemory == null) {
            return null;
        }
        String[] p = cpuSlashMemory.split("/");
        Map<String, Quantity> m = new LinkedHashMap<>();
        if (!p[0].equals("-")) {
            m.put("cpu", new Quantity(p[0]));
        }
        if (!p[1].equals("-")) {
            m.put("memory", new Quantity(p[1]));
        }
        return m;
    }

    static Pod pod(List<Container> inits, List<Container> containers) {
        return new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec()
                .withInitContainers(inits).withContainers(containers).endSpec().build();
    }

    /** "cpu|memory" expressions, "" for none; null for no limits/requests block. */
    static ResourcesPolicy policy(String mode, String regex, String limits, String requests) {
        ResourcesPolicy p = new ResourcesPolicy();
        p.setTargetContainersMode(mode);
        p.setTargetContainersNameRegex(regex);
        ResourcesExpr e = new ResourcesExpr();
        e.setLimits(exprs(limits));
        e.setRequests(exprs(requests));
        p.setResourcesExpr(e);
        return p;
    }

    static ResourceExprValues exprs(String cpuSlashMemory) {
        if (cpuSlashMemory == null) {
            return null;
        }
        String[] p = cpuSlashMemory.split("\\|", -1);
        ResourceExprValues v = new ResourceExprValues();
        v.setCpu(p[0]);
        v.setMemory(p[1]);
        return v;
    }

    /** Expected resources as "cpuLimit memLimit cpuRequest memRequest", "-" for not set. */
    record Case(String name, Pod pod, ResourcesPolicy policy, Set<String> sidecars, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Pod TWO_APPS = pod(List.of(), List.of(c("app1", "200m/200Mi", "50m/100Mi"),
            c("app2", "400m/400Mi", "100m/200Mi")));
    static final Pod ENGINES = pod(List.of(), List.of(c("large.engine.v4", "200m/200Mi", "50m/100Mi"),
            c("large.engine.v8", "400m/400Mi", "100m/200Mi")));

    static Stream<Arguments> cases() {
        List<Case> cases = new ArrayList<>();
        // OpenKruise's TestApplyResourcesPolicy
        cases.add(new Case("sum mode with percentage", TWO_APPS,
                policy("sum", ".*", "cpu*50%|200Mi", "cpu*50%|100Mi"), Set.of(), "300m 200Mi 75m 100Mi"));
        cases.add(new Case("max mode with expression", ENGINES,
                policy("max", "^large.engine.v.*$", "max(cpu*50%, 50m)|200Mi", "max(cpu*50%, 50m)|100Mi"), Set.of(),
                "200m 200Mi 50m 100Mi"));
        cases.add(new Case("regex selects one container", ENGINES,
                policy("sum", "^large.engine.v4$", "max(cpu*50%, 50m)|200Mi", "max(cpu*50%, 50m)|100Mi"), Set.of(),
                "100m 200Mi 50m 100Mi"));
        cases.add(new Case("sum: one container without a cpu limit leaves cpu unlimited",
                pod(List.of(), List.of(c("app1", "200m/200Mi", "100m/100Mi"), c("app2", "-/400Mi", "50m/200Mi"))),
                policy("sum", ".*", "cpu*50%|memory*30%", "cpu*30%|memory*20%"), Set.of(), "- 180Mi 45m 60Mi"));
        cases.add(new Case("max: one container without a memory limit leaves memory unlimited",
                pod(List.of(), List.of(c("app1", "200m/200Mi", "100m/100Mi"), c("app2", "400m/-", "200m/-"))),
                policy("max", ".*", "cpu*40%|memory*30%", "cpu*25%|memory*20%"), Set.of(), "160m - 50m 20Mi"));
        cases.add(new Case("sum: a container without requests counts 0",
                pod(List.of(), List.of(c("app1", "200m/200Mi", "100m/100Mi"), c("app2", "400m/400Mi", null))),
                policy("sum", ".*", "cpu*50%|memory*30%", "cpu*30%|memory*20%"), Set.of(), "300m 180Mi 30m 20Mi"));
        cases.add(new Case("native sidecar init containers count, plain ones do not",
                pod(List.of(nativeSidecar(c("app1", "400m/800Mi", "200m/400Mi")), c("app-init", "9/9Gi", "9/9Gi")),
                        List.of(c("app2", "600m/1200Mi", "300m/600Mi"))),
                policy("sum", "^app.*$", "max(cpu*30%, 50m)|max(memory*25%, 100Mi)", "cpu*20%|memory*15%"),
                Set.of(), "300m 500Mi 100m 150Mi"));
        // OpenKruise's TestAggregateResourcesBySum / ByMax, read through the identity expressions
        cases.add(new Case("sum of all limits and requests", TWO_APPS,
                policy("sum", ".*", "cpu|memory", "cpu|memory"), Set.of(), "600m 600Mi 150m 300Mi"));
        cases.add(new Case("max of all limits and requests", TWO_APPS,
                policy("max", ".*", "cpu|memory", "cpu|memory"), Set.of(), "400m 400Mi 100m 200Mi"));
        cases.add(new Case("max: missing cpu limit is unlimited, missing cpu request is 0",
                pod(List.of(), List.of(c("app1", "200m/200Mi", "50m/100Mi"), c("app2", "-/400Mi", "-/200Mi"))),
                policy("max", ".*", "cpu|memory", "cpu|memory"), Set.of(), "- 400Mi 50m 200Mi"));
        cases.add(new Case("max: container without requests",
                pod(List.of(), List.of(c("app1", "200m/200Mi", "50m/100Mi"), c("app2", "100m/150Mi", null))),
                policy("max", ".*", "cpu|memory", "cpu|memory"), Set.of(), "200m 200Mi 50m 100Mi"));
        // OpenKruise's TestGetTargetContainers: injected sidecars and plain init containers are not targets
        cases.add(new Case("SidecarSet containers are never targets",
                pod(List.of(c("init-sidecar1", "1/1Gi", null), c("plain-init", "1/1Gi", null),
                        nativeSidecar(c("native", "100m/100Mi", null))),
                        List.of(c("app1", "100m/100Mi", null), c("app2", "100m/100Mi", null),
                                c("sidecar1", "8/8Gi", null))),
                policy("sum", "^.*$", "cpu|memory", null), Set.of("init-sidecar1", "sidecar1"), "300m 300Mi - -"));
        // Expressions (OpenKruise's TestEvaluateResourceExpression, over one container)
        cases.add(new Case("addition", pod(List.of(), List.of(c("a", "100m/800Mi", null))),
                policy("sum", ".*", "cpu + 50m|max(memory*20% + 100Mi, 200Mi)", null), Set.of(), "150m 260Mi - -"));
        cases.add(new Case("constants", pod(List.of(), List.of(c("a", "100m/500Mi", null))),
                policy("sum", ".*", "500m|1Gi", null), Set.of(), "500m 1Gi - -"));
        cases.add(new Case("a number is cores, also for memory without the variable",
                pod(List.of(), List.of(c("a", "2/2Mi", "2/2Mi"))),
                policy("sum", ".*", null, "1|1"), Set.of(), "- - 1 1"));
        cases.add(new Case("a request over a zero sum is 0", pod(List.of(), List.of(c("a", "1/1Gi", null))),
                policy("sum", ".*", null, "cpu*50%|memory*25%"), Set.of(), "- - 0 0"));
        cases.add(new Case("a limit expression over an unlimited resource sets nothing; an empty one neither",
                pod(List.of(), List.of(c("a", null, "100m/100Mi"))),
                policy("sum", ".*", "cpu*2|", "cpu*2|"), Set.of(), "- - 200m -"));
        cases.add(new Case("percent of a memory request", pod(List.of(), List.of(c("a", null, "-/400Mi"))),
                policy("max", ".*", null, "|memory*25%"), Set.of(), "- - - 100Mi"));
        cases.add(new Case("min() and a fraction of a milli core truncate as Go", pod(List.of(), List.of(c("a", "1/1Gi", null))),
                policy("sum", ".*", "min(cpu/3, 2)|min(memory, 512Mi)", null), Set.of(), "333m 512Mi - -"));
        cases.add(new Case("non-canonical container quantities", pod(List.of(), List.of(c("a", "1000m/1024Mi", null),
                c("b", "0.5/1Gi", null))), policy("sum", ".*", "cpu|memory", null), Set.of(), "1500m 2Gi - -"));
        return cases.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resources(Case c) {
        ResourceRequirements r = SidecarResourcesPolicy.resources(c.pod(), "sidecar", c.policy(), c.sidecars());
        String actual = value(r.getLimits(), "cpu") + " " + value(r.getLimits(), "memory") + " "
                + value(r.getRequests(), "cpu") + " " + value(r.getRequests(), "memory");
        assertEquals(c.expected(), actual);
    }

    static String value(Map<String, Quantity> m, String key) {
        return m == null || !m.containsKey(key) ? "-" : m.get(key).toString();
    }

    @Test
    void noTargetContainerRefusesThePod() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                SidecarResourcesPolicy.resources(pod(List.of(), List.of(c("app1", "200m/-", null))), "log",
                        policy("sum", "^nonexistent$", "cpu*50%|", null), Set.of()));
        assertEquals("resourcesPolicy of sidecar log: no containers match the regex pattern \"^nonexistent$\"",
                e.getMessage());
    }

    @Test
    void onlySidecarsMatchingIsNoTarget() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                SidecarResourcesPolicy.resources(pod(List.of(), List.of(c("log", "1/-", null))), "log",
                        policy("sum", ".*", "cpu|", null), Set.of("log")));
        assertTrue(e.getMessage().contains("no containers match"), e.getMessage());
    }

    @Test
    void anExpressionThatFailsAtInjectionNamesItself() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                SidecarResourcesPolicy.resources(TWO_APPS, "log", policy("sum", ".*", "cpu*cpu|", null), Set.of()));
        assertEquals("resourcesPolicy of sidecar log: failed to evaluate cpu limits expression \"cpu*cpu\": "
                + "multiplication of two quantities", e.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () ->
                SidecarResourcesPolicy.resources(TWO_APPS, "log", policy("sum", ".*", null, "cpu - 1|"), Set.of()));
        assertTrue(negative.getMessage().endsWith("calculation result is negative: -850m"), negative.getMessage());
    }
}
