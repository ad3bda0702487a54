package dev.kruisevertx.pub;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which budget protects a pod (OpenKruise's GetPubForPod) and which name a pod carries, as tables. */
class PubForPodTest {
    static final PubForPod.Workload CLONESET = new PubForPod.Workload("apps.kruise.io/v1alpha1", "CloneSet", "web");

    static PodUnavailableBudget byRef(String name, String apiVersion, String kind, String target) {
        PodUnavailableBudget p = new PodUnavailableBudget();
        p.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        PodUnavailableBudgetSpec s = new PodUnavailableBudgetSpec();
        s.setTargetRef(new TargetReference(apiVersion, kind, target));
        p.setSpec(s);
        return p;
    }

    static PodUnavailableBudget bySelector(String name, LabelSelector selector) {
        PodUnavailableBudget p = new PodUnavailableBudget();
        p.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        PodUnavailableBudgetSpec s = new PodUnavailableBudgetSpec();
        s.setSelector(selector);
        p.setSpec(s);
        return p;
    }

    static Pod pod(Map<String, String> labels) {
        return new PodBuilder().withNewMetadata().withName("web-1").withNamespace("default").withLabels(labels)
                .endMetadata().build();
    }

    static Stream<Arguments> cases() {
        Map<String, String> web = Map.of("app", "web");
        return Stream.of(
                Arguments.of("targetRef names the workload", List.of(byRef("a", "apps.kruise.io/v1alpha1", "CloneSet", "web")), web, CLONESET, "a"),
                Arguments.of("another version of the same group", List.of(byRef("a", "apps.kruise.io/v1beta1", "CloneSet", "web")), web, CLONESET, "a"),
                Arguments.of("another group", List.of(byRef("a", "apps/v1", "CloneSet", "web")), web, CLONESET, null),
                Arguments.of("another kind", List.of(byRef("a", "apps.kruise.io/v1alpha1", "StatefulSet", "web")), web, CLONESET, null),
                Arguments.of("another name", List.of(byRef("a", "apps.kruise.io/v1alpha1", "CloneSet", "api")), web, CLONESET, null),
                Arguments.of("targetRef but the pod has no workload", List.of(byRef("a", "apps.kruise.io/v1alpha1", "CloneSet", "web")), web, null, null),
                Arguments.of("selector matches", List.of(bySelector("s", new LabelSelectorBuilder().addToMatchLabels("app", "web").build())), web, null, "s"),
                Arguments.of("selector does not match", List.of(bySelector("s", new LabelSelectorBuilder().addToMatchLabels("app", "api").build())), web, CLONESET, null),
                Arguments.of("empty selector matches nothing", List.of(bySelector("s", new LabelSelector())), web, null, null),
                Arguments.of("no selector, no targetRef", List.of(bySelector("s", null)), web, null, null),
                Arguments.of("invalid selector matches nothing", List.of(bySelector("s", new LabelSelectorBuilder()
                        .addNewMatchExpression().withKey("app").withOperator("Bogus").endMatchExpression().build())), web, null, null),
                Arguments.of("first match wins", List.of(bySelector("s", new LabelSelectorBuilder().addToMatchLabels("app", "web").build()),
                        byRef("a", "apps.kruise.io/v1alpha1", "CloneSet", "web")), web, CLONESET, "s"),
                Arguments.of("a targetRef budget never matches by labels", List.of(byRef("a", "apps.kruise.io/v1alpha1", "CloneSet", "api"),
                        bySelector("s", new LabelSelectorBuilder().addToMatchLabels("app", "web").build())), web, CLONESET, "s"),
                Arguments.of("no budgets", List.of(), web, CLONESET, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void findsTheBudget(String name, List<PodUnavailableBudget> budgets, Map<String, String> labels,
                        PubForPod.Workload workload, String want) {
        assertEquals(Optional.ofNullable(want), PubForPod.find(budgets, pod(labels), Optional.ofNullable(workload))
                .map(p -> p.getMetadata().getName()));
    }

    @org.junit.jupiter.api.Test
    void aNullOwnerReferenceEntryControlsNothing() {
        // Seen in the hostile input storm: {"ownerReferences":[null]} on a pod created through /mutate-pod.
        Pod p = pod(Map.of("app", "web"));
        List<io.fabric8.kubernetes.api.model.OwnerReference> refs = new java.util.ArrayList<>();
        refs.add(null);
        p.getMetadata().setOwnerReferences(refs);
        assertEquals(Optional.empty(), PubForPod.controllerOf(p));
        assertEquals(Optional.empty(), PubForPod.find(List.of(byRef("a", "apps.kruise.io/v1alpha1", "CloneSet", "web")),
                p, PubForPod.controllerOf(p)));
    }

    static Stream<Arguments> names() {
        return Stream.of(
                Arguments.of(Map.of("kruise.io/related-pub", "a"), "a"),
                Arguments.of(Map.of("pub.kruise.io/related-pub", "b"), "b"),
                Arguments.of(Map.of("kruise.io/related-pub", "a", "pub.kruise.io/related-pub", "b"), "a"),
                Arguments.of(Map.of("kruise.io/related-pub", "", "pub.kruise.io/related-pub", "b"), "b"),
                Arguments.of(Map.of("kruise.io/related-pub", ""), null),
                Arguments.of(Map.of(), null));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("names")
    void readsEitherKey(Map<String, String> annotations, String want) {
        Pod p = new PodBuilder().withNewMetadata().withName("p").withAnnotations(annotations).endMetadata().build();
        assertEquals(Optional.ofNullable(want), PubForPod.relatedName(p));
    }
}
