package dev.kruisevertx.pub;

import io.fabric8.kubernetes.api.model.ContainerResizePolicy;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Whether a pod UPDATE may make the pod unavailable, and whether it is only an in-place resize, as a table. */
class PodUpdateKindTest {
    static Pod base() {
        return new PodBuilder().withNewMetadata().withName("p").withLabels(Map.of("app", "web")).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("web:1")
                .withResizePolicy(new ContainerResizePolicy("cpu", "NotRequired"),
                        new ContainerResizePolicy("memory", "RestartContainer")).withNewResources()
                .addToRequests("cpu", new Quantity("100m")).addToRequests("memory", new Quantity("64Mi"))
                .endResources().endContainer().endSpec().build();
    }

    static UnaryOperator<Pod> edit(UnaryOperator<PodBuilder> b) {
        return p -> b.apply(new PodBuilder(p)).build();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // description, change, unavailable-making, resize in place
                // OpenKruise's CanResizeInplace holds for a change that leaves the spec alone; it is only asked when the spec changed.
                Arguments.of("labels only", edit(b -> b.editMetadata().addToLabels("x", "y").endMetadata()), false, true),
                Arguments.of("annotation only", edit(b -> b.editMetadata().addToAnnotations("a", "b").endMetadata()), false, true),
                Arguments.of("unavailable label added", edit(b -> b.editMetadata()
                        .addToLabels("unavailable-pod.kruise.io/drain", "true").endMetadata()), true, false),
                Arguments.of("image", edit(b -> b.editSpec().editFirstContainer().withImage("web:2").endContainer().endSpec()), true, false),
                Arguments.of("cpu request", edit(b -> b.editSpec().editFirstContainer().editResources()
                        .addToRequests("cpu", new Quantity("200m")).endResources().endContainer().endSpec()), true, true),
                Arguments.of("same cpu written differently", edit(b -> b.editSpec().editFirstContainer().editResources()
                        .addToRequests("cpu", new Quantity("0.1")).endResources().endContainer().endSpec()), true, true),
                Arguments.of("memory with RestartContainer policy", edit(b -> b.editSpec().editFirstContainer().editResources()
                        .addToRequests("memory", new Quantity("128Mi")).endResources().endContainer().endSpec()), true, false),
                Arguments.of("resize policy changed", edit(b -> b.editSpec().editFirstContainer()
                        .withResizePolicy(new ContainerResizePolicy("cpu", "NotRequired")).endContainer().endSpec()), true, false),
                Arguments.of("cpu limit added", edit(b -> b.editSpec().editFirstContainer().editResources()
                        .addToLimits("cpu", new Quantity("300m")).endResources().endContainer().endSpec()), true, true),
                Arguments.of("ephemeral storage", edit(b -> b.editSpec().editFirstContainer().editResources()
                        .addToRequests("ephemeral-storage", new Quantity("1Gi")).endResources().endContainer().endSpec()), true, false),
                Arguments.of("QoS Burstable to Guaranteed", edit(b -> b.editSpec().editFirstContainer().editResources()
                        .addToLimits("cpu", new Quantity("100m")).addToLimits("memory", new Quantity("64Mi"))
                        .endResources().endContainer().endSpec()), true, false),
                Arguments.of("cpu and image", edit(b -> b.editSpec().editFirstContainer().withImage("web:2").editResources()
                        .addToRequests("cpu", new Quantity("200m")).endResources().endContainer().endSpec()), true, false),
                Arguments.of("static pod", edit(b -> b.editMetadata().addToAnnotations("kubernetes.io/config.source", "file")
                        .endMetadata().editSpec().editFirstContainer().editResources()
                        .addToRequests("cpu", new Quantity("200m")).endResources().endContainer().endSpec()), true, false),
                Arguments.of("container added", edit(b -> b.editSpec().addNewContainer().withName("side").withImage("s:1")
                        .endContainer().endSpec()), true, false),
                // Hostile input: a null entry in the containers (the webhook answered 500 before).
                Arguments.of("null container entry", (UnaryOperator<Pod>) p -> {
                    p.getSpec().getContainers().add(null);
                    return p;
                }, true, false),
                Arguments.of("null init container entry", (UnaryOperator<Pod>) p -> {
                    p.getSpec().setInitContainers(new java.util.ArrayList<>(java.util.Collections.singletonList(null)));
                    return p;
                }, true, false),
                // Hostile input: a quantity no parser reads ("null"): compared as text, a cpu change (Quantity.equals
                // threw NumberFormatException, answered as a failed check: hostile-input storm seed 63507754845015).
                Arguments.of("unparsable cpu request", edit(b -> b.editSpec().editFirstContainer().editResources()
                        .addToRequests("cpu", new Quantity("null")).endResources().endContainer().endSpec()), true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void classifiesTheUpdate(String name, UnaryOperator<Pod> change, boolean unavailable, boolean resize) {
        Pod before = base();
        Pod after = change.apply(base());
        assertEquals(List.of(unavailable, resize), List.of(PodUpdateKind.unavailableChanged(before, after),
                PodUpdateKind.canResizeInPlace(before, after)));
    }
}
