package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podunavailablebudget.PodUnavailableBudgetController;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.invariants.InvariantChecker;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise's pubcontrol inside the CloneSet (gate PodUnavailableBudgetUpdateGate): an in-place rollout that the
 * CloneSet alone would run on every pod at once (maxUnavailable 100%) never has more pods unavailable than its
 * PodUnavailableBudget allows, checked on every pod event; the plan names the budget while it holds pods back.
 */
class CloneSetPubEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(150);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .controllers(() -> List.of(new dev.kruisevertx.podreadiness.PodReadinessController(),
                    new CloneSetController(), new PodUnavailableBudgetController()))
            .flags("--feature-gates=PodUnavailableBudgetUpdateGate=true")
            .build();

    @Test
    void inPlaceRolloutNeverBreaksTheBudget() throws Exception {
        String name = "web";
        PodUnavailableBudget pub = new PodUnavailableBudget();
        pub.setMetadata(new ObjectMetaBuilder().withName("web-pub").withNamespace(product.namespace()).build());
        PodUnavailableBudgetSpec spec = new PodUnavailableBudgetSpec();
        spec.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", name));
        spec.setMaxUnavailable(new IntOrString(1));
        pub.setSpec(spec);
        product.client().resource(pub).create();

        CloneSet cs = CloneSetEndToEndTest.cloneSet(product.namespace(), name, 4, "nginx:1");
        cs.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        cs.getSpec().getUpdateStrategy().setMaxUnavailable(new IntOrString("100%"));
        product.client().resource(cs).create();
        // The invariant checker's PodUnavailableBudget promise watches the same rollout from the budget's side.
        InvariantChecker checker = new InvariantChecker().withPubInvariants();
        try (ClusterWatch watch = new ClusterWatch(product.client(), product.namespace(), name);
             AutoCloseable invariants = checker.watch(product.client(), product.namespace(), List.of(),
                     InvariantChecker.PUB_OBJECTS)) {
            Await.waitFor("4 ready pods and the budget allowing 1", WAIT, () -> List.of(
                    livePods(name).stream().filter(Pods::isReady).count(),
                    (long) budget().status().getUnavailableAllowed()), List.of(4L, 1L)::equals);
            Map<String, String> uids = livePods(name).stream()
                    .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));

            watch.arm(3, 4);
            // The controller writes the CloneSet's status while pods turn ready: a 409 on this read-then-write is the
            // product's own write, so read again and retry.
            for (int attempt = 1; ; attempt++) {
                try {
                    product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(name).edit(c -> {
                        c.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("nginx:2");
                        return c;
                    });
                    break;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409 || attempt >= 30) {
                        throw e;
                    }
                }
            }
            Await.waitFor("all 4 pods updated in place and ready", WAIT, () -> livePods(name).stream()
                    .filter(p -> Pods.isReady(p) && "nginx:2".equals(p.getSpec().getContainers().get(0).getImage()))
                    .count(), c -> c == 4);
            assertEquals(List.of(), watch.violations(), watch.describe());
            for (Pod p : livePods(name)) {
                assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(), "updated in place");
            }
            assertTrue(watch.minReady() >= 3, "min ready " + watch.minReady());
            invariants.close();
            assertEquals(List.of(), checker.violations());
            assertTrue(checker.podEvents() > 0, "the checker saw the rollout");
        }
    }

    private static PodUnavailableBudget budget() {
        return product.client().resources(PodUnavailableBudget.class).inNamespace(product.namespace())
                .withName("web-pub").get();
    }

    private static List<Pod> livePods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(p -> !Pods.isTerminating(p)).toList();
    }
}
