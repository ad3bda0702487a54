package dev.kruisevertx.resourcedistribution;

import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargetNamespaces;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargets;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The namespace targeting table: OpenKruise v1.9.0's listNamespacesForDistributor and matchViaTargets (ported as
 * facts), over the namespaces of OpenKruise's own webhook tests (ns-1..ns-4) plus the system namespaces.
 */
class NamespaceTargetingTest {
    static final List<Namespace> NAMESPACES = List.of(
            ns("ns-1", Map.of("group", "one", "environment", "develop")),
            ns("ns-2", Map.of("group", "one", "environment", "develop")),
            ns("ns-3", Map.of("group", "two", "environment", "develop")),
            ns("ns-4", Map.of("group", "two", "environment", "test")),
            ns("kube-system", Map.of()),
            ns("kube-public", Map.of()));

    static Namespace ns(String name, Map<String, String> labels) {
        return new NamespaceBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build();
    }

    static ResourceDistributionTargets targets(boolean all, List<String> included, List<String> excluded,
                                               LabelSelector selector) {
        ResourceDistributionTargets t = new ResourceDistributionTargets();
        t.setAllNamespaces(all ? Boolean.TRUE : null);
        if (included != null) {
            t.setIncludedNamespaces(ResourceDistributionTargetNamespaces.of(included.toArray(String[]::new)));
        }
        if (excluded != null) {
            t.setExcludedNamespaces(ResourceDistributionTargetNamespaces.of(excluded.toArray(String[]::new)));
        }
        t.setNamespaceLabelSelector(selector);
        return t;
    }

    static LabelSelector labels(String... kv) {
        LabelSelectorBuilder b = new LabelSelectorBuilder();
        for (int i = 0; i < kv.length; i += 2) {
            b.addToMatchLabels(kv[i], kv[i + 1]);
        }
        return b.build();
    }

    static List<String> l(String... s) {
        return Arrays.asList(s);
    }

    static final List<String> ALL = l("kube-public", "kube-system", "ns-1", "ns-2", "ns-3", "ns-4");

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("nothing set targets nothing", targets(false, null, null, null), l(), ALL),
                Arguments.of("allNamespaces takes every namespace, system ones too (v1.9.0 forbids none)",
                        targets(true, null, null, null), ALL, l()),
                Arguments.of("allNamespaces minus the excluded", targets(true, null, l("ns-3", "kube-system"), null),
                        l("kube-public", "ns-1", "ns-2", "ns-4"), l("kube-system", "ns-3")),
                Arguments.of("included names", targets(false, l("ns-1", "ns-2"), null, null), l("ns-1", "ns-2"),
                        l("kube-public", "kube-system", "ns-3", "ns-4")),
                Arguments.of("an included namespace that does not exist is still a target (NamespaceNotExists)",
                        targets(false, l("ns-1", "ghost"), null, null), l("ghost", "ns-1"),
                        l("kube-public", "kube-system", "ns-2", "ns-3", "ns-4")),
                Arguments.of("label selector", targets(false, null, null, labels("environment", "develop")),
                        l("ns-1", "ns-2", "ns-3"), l("kube-public", "kube-system", "ns-4")),
                Arguments.of("label selector and included names are a union",
                        targets(false, l("ns-4"), null, labels("group", "one")), l("ns-1", "ns-2", "ns-4"),
                        l("kube-public", "kube-system", "ns-3")),
                Arguments.of("excluded wins over the selector",
                        targets(false, null, l("ns-3"), labels("environment", "develop")), l("ns-1", "ns-2"),
                        l("kube-public", "kube-system", "ns-3", "ns-4")),
                Arguments.of("OpenKruise's webhook-test targets: included ns-1,ns-2, excluded ns-3, env=develop",
                        targets(false, l("ns-1", "ns-2"), l("ns-3"), labels("environment", "develop")),
                        l("ns-1", "ns-2"), l("kube-public", "kube-system", "ns-3", "ns-4")),
                Arguments.of("an empty selector selects nothing",
                        targets(false, null, null, new LabelSelector()), l(), ALL),
                Arguments.of("a selector nobody matches", targets(false, null, null, labels("environment", "prod")),
                        l(), ALL),
                Arguments.of("matchExpressions NotIn", targets(false, null, null, new LabelSelectorBuilder()
                                .addNewMatchExpression().withKey("group").withOperator("NotIn").withValues("one")
                                .endMatchExpression().build()),
                        l("kube-public", "kube-system", "ns-3", "ns-4"), l("ns-1", "ns-2")),
                Arguments.of("matchExpressions Exists", targets(false, null, null, new LabelSelectorBuilder()
                                .addNewMatchExpression().withKey("group").withOperator("Exists").endMatchExpression()
                                .build()),
                        l("ns-1", "ns-2", "ns-3", "ns-4"), l("kube-public", "kube-system")),
                Arguments.of("allNamespaces makes the selector and the list irrelevant",
                        targets(true, l("ghost"), null, labels("environment", "prod")), ALL, l()),
                Arguments.of("a namespace both included and excluded is excluded (the webhook refuses it)",
                        targets(false, l("ns-1", "ns-2"), l("ns-1"), null), l("ns-2"),
                        l("kube-public", "kube-system", "ns-1", "ns-3", "ns-4")),
                Arguments.of("excluding a namespace that does not exist changes nothing",
                        targets(false, l("ns-1"), l("ghost"), null), l("ns-1"),
                        l("kube-public", "kube-system", "ns-2", "ns-3", "ns-4")),
                Arguments.of("duplicates in the list count once", targets(false, l("ns-1", "ns-1"), null, null),
                        l("ns-1"), l("kube-public", "kube-system", "ns-2", "ns-3", "ns-4")),
                Arguments.of("kube-system can be included by name", targets(false, l("kube-system"), null, null),
                        l("kube-system"), l("kube-public", "ns-1", "ns-2", "ns-3", "ns-4")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void targets(String name, ResourceDistributionTargets targets, List<String> matched, List<String> unmatched) {
        NamespaceTargeting.Targets t = NamespaceTargeting.of(targets, NAMESPACES);
        assertEquals(matched, t.matched(), "matched");
        assertEquals(unmatched, t.unmatched(), "unmatched");
        // The per-namespace check the namespace event handler uses agrees with the list for existing namespaces.
        for (Namespace ns : NAMESPACES) {
            assertEquals(t.matched().contains(ns.getMetadata().getName()), NamespaceTargeting.matches(targets, ns),
                    ns.getMetadata().getName());
        }
    }

    @org.junit.jupiter.api.Test
    void anUnreadableSelectorIsAnErrorForTheListAndNoMatchForEvents() {
        ResourceDistributionTargets t = targets(false, null, null, new LabelSelectorBuilder().addNewMatchExpression()
                .withKey("group").withOperator("Near").withValues("one").endMatchExpression().build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NamespaceTargeting.of(t, NAMESPACES));
        assertTrue(e.getMessage().contains("Near"), e.getMessage());
        assertEquals(false, NamespaceTargeting.matches(t, NAMESPACES.get(0)));
    }
}
