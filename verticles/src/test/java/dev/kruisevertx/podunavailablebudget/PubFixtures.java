package dev.kruisevertx.podunavailablebudget;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** The objects and waits the PodUnavailableBudget end-to-end classes share, in the test's namespace. */
final class PubFixtures {
    private PubFixtures() {
    }

    static CloneSet cloneSet(EmbeddedManagerExtension product, String name, int replicas) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("web:1").endContainer().endSpec().build());
        cs.setSpec(spec);
        return cs;
    }

    static PodUnavailableBudget createPub(EmbeddedManagerExtension product, String name,
                                          Consumer<PodUnavailableBudgetSpec> edit) {
        PodUnavailableBudget pub = new PodUnavailableBudget();
        pub.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        PodUnavailableBudgetSpec spec = new PodUnavailableBudgetSpec();
        edit.accept(spec);
        pub.setSpec(spec);
        return product.client().resource(pub).create();
    }

    static Resource<PodUnavailableBudget> pub(EmbeddedManagerExtension product, String name) {
        return product.client().resources(PodUnavailableBudget.class).inNamespace(product.namespace()).withName(name);
    }

    static void awaitStatus(EmbeddedManagerExtension product, Duration wait, String name, int desired, int current,
                            int allowed, int total) {
        List<Integer> want = List.of(desired, current, allowed, total);
        Await.waitFor("budget " + name + " status desired/current/allowed/total " + want, wait, () -> {
            PodUnavailableBudgetStatus s = pub(product, name).get().status();
            return List.of(s.getDesiredAvailable(), s.getCurrentAvailable(), s.getUnavailableAllowed(),
                    s.getTotalReplicas());
        }, want::equals);
    }
}
