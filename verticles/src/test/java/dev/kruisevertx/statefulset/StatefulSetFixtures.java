package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategy;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Objects and client steps the Advanced StatefulSet end-to-end tests share, bound to one client and namespace. */
final class StatefulSetFixtures {
    /** The gates the end-to-end managers run with, so start ordinals and claim resizing are exercised. */
    static final String FEATURE_GATES = "--feature-gates=StatefulSetStartOrdinal=true,StatefulSetAutoResizePVCGate=true";

    private final KubernetesClient client;
    private final String namespace;
    private final Duration wait;

    StatefulSetFixtures(KubernetesClient client, String namespace, Duration wait) {
        this.client = client;
        this.namespace = namespace;
        this.wait = wait;
    }

    /** A set selecting {@code app=<name>} with one container {@code main} running {@code image}. */
    static StatefulSet statefulSet(String namespace, String name, int replicas, String image) {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setReplicas(replicas);
        spec.setServiceName(name);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer().endSpec().build());
        set.setSpec(spec);
        return set;
    }

    /** The spec's rolling-update strategy, created when absent. */
    static RollingUpdateStatefulSetStrategy rollingUpdate(StatefulSetSpec spec) {
        if (spec.getUpdateStrategy() == null) {
            spec.setUpdateStrategy(new StatefulSetUpdateStrategy());
        }
        if (spec.getUpdateStrategy().getRollingUpdate() == null) {
            spec.getUpdateStrategy().setRollingUpdate(new RollingUpdateStatefulSetStrategy());
        }
        return spec.getUpdateStrategy().getRollingUpdate();
    }

    /** Runs a write again while the API answers 409 (the product wrote the object meanwhile). */
    static void retryOnConflict(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 30) {
                    throw e;
                }
            }
        }
    }

    Resource<StatefulSet> resource(String name) {
        return client.resources(StatefulSet.class).inNamespace(namespace).withName(name);
    }

    void edit(String name, Consumer<StatefulSetSpec> change) {
        retryOnConflict(() -> resource(name).edit(s -> {
            change.accept(s.getSpec());
            return s;
        }));
    }

    /** Pods labelled {@code app=<app>} that are not terminating. */
    List<Pod> livePods(String app) {
        return client.pods().inNamespace(namespace).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }

    /** Waits until the controller has observed the set's generation and {@code done} holds. */
    StatefulSet waitStatus(String name, String what, Predicate<StatefulSet> done) {
        return Await.waitFor(what, wait, () -> resource(name).get(), s -> s != null && s.getStatus() != null
                && s.getMetadata().getGeneration() != null
                && s.getStatus().getObservedGeneration() == s.getMetadata().getGeneration() && done.test(s));
    }
}
