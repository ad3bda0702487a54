package dev.kruisevertx.sidecarset;

import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SidecarSet injection through the embedded cluster's real admission path: the API server calls the manager's
 * {@code /mutate-pod}, which reads SidecarSets, namespaces and revisions from the manager's shared cache. Every
 * SidecarSet here selects a label unique to its test, since SidecarSets are cluster-scoped.
 */
class SidecarSetInjectionEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    static String unique(String suffix) {
        return "i" + Integer.toHexString(product.namespace().hashCode()) + "-" + suffix;
    }

    static GenericKubernetesResource sidecarSet(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        GenericKubernetesResource created = product.client().genericKubernetesResources(object.getApiVersion(),
                object.getKind()).resource(object).create();
        return created;
    }

    /** Creates pods until one gets the container {@code expected} injected (the manager's cache caught up). */
    static void awaitInjecting(String label, String expected) {
        KubernetesClient client = product.client();
        int[] n = {0};
        Await.waitFor("the webhook injects " + expected + " into pods labelled " + label, WAIT, () -> {
            Pod probe = client.pods().inNamespace(product.namespace()).resource(new PodBuilder().withNewMetadata()
                    .withName(label + "-probe-" + n[0]++).addToLabels("inject", label).endMetadata().withNewSpec()
                    .addNewContainer().withName("main").withImage("nginx:1.25").endContainer().endSpec().build()).create();
            client.pods().resource(probe).withGracePeriod(0).delete();
            return names(probe.getSpec().getContainers()).contains(expected);
        });
    }

    static Pod createPod(String name, String label) {
        return product.client().pods().inNamespace(product.namespace()).resource(new PodBuilder().withNewMetadata()
                .withName(name).addToLabels("inject", label).endMetadata().withNewSpec().addNewContainer()
                .withName("main").withImage("nginx:1.25").endContainer().endSpec().build()).create();
    }

    static List<String> names(List<Container> containers) {
        return containers == null ? List.of() : containers.stream().map(Container::getName).toList();
    }

    static Container container(Pod pod, String name) {
        return java.util.stream.Stream.concat(pod.getSpec().getContainers().stream(),
                        pod.getSpec().getInitContainers() == null ? java.util.stream.Stream.empty()
                                : pod.getSpec().getInitContainers().stream())
                .filter(c -> c.getName().equals(name)).findFirst().orElseThrow(() -> new AssertionError(
                        "no container " + name + " in " + names(pod.getSpec().getContainers())));
    }

    static String env(Container c, String name) {
        return c.getEnv() == null ? null : c.getEnv().stream().filter(e -> e.getName().equals(name))
                .map(EnvVar::getValue).findFirst().orElse(null);
    }

    @Test
    void theCloneSetsPodsGetTheSidecarsInjected() {
        String app = unique("web");
        String name = unique("log");
        GenericKubernetesResource set = sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"inject":"%s"}},
                   "namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"%s"}},
                   "initContainers":[{"name":"init-config","image":"busybox:1.36"}],
                   "containers":[{"name":"log-shipper","image":"fluent-bit:3.0","shareVolumePolicy":{"type":"enabled"},
                     "volumeMounts":[{"name":"shipper-state","mountPath":"/state"}],
                     "transferEnv":[{"sourceContainerName":"main","envName":"TZ"}]}],
                   "volumes":[{"name":"shipper-state","emptyDir":{}}]}}
                """.formatted(name, app, product.namespace()));
        String hash = set.getMetadata().getAnnotations().get("kruise.io/sidecarset-hash");
        awaitInjecting(app, "log-shipper");

        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: web, namespace: %s}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s, inject: %s}}
                    spec:
                      containers:
                      - name: main
                        image: nginx:1.25
                        env: [{name: TZ, value: Europe/Paris}]
                        volumeMounts: [{name: data, mountPath: /data}]
                      volumes: [{name: data, emptyDir: {}}]
                """.formatted(product.namespace(), app, app, app));
        Await.waitFor("the CloneSet's two pods exist", WAIT, () -> cloneSetPods(app).size() == 2);
        for (Pod pod : cloneSetPods(app)) {
            assertEquals(List.of("log-shipper", "main"), names(pod.getSpec().getContainers()), pod.getMetadata().getName());
            assertEquals(List.of("init-config"), names(pod.getSpec().getInitContainers()));
            Container shipper = container(pod, "log-shipper");
            assertEquals("true", env(shipper, "IS_INJECTED"));
            assertEquals("Europe/Paris", env(shipper, "TZ"));
            assertEquals(List.of("/state", "/data"), shipper.getVolumeMounts().stream()
                    .map(m -> m.getMountPath()).toList());
            assertTrue(pod.getSpec().getVolumes().stream().anyMatch(v -> v.getName().equals("shipper-state")));
            Map<String, String> a = pod.getMetadata().getAnnotations();
            assertEquals(name, a.get("kruise.io/sidecarset-injected-list"));
            assertTrue(a.get("kruise.io/sidecarset-hash").contains("\"hash\":\"" + hash + "\""), a.toString());
        }
        Await.waitFor("the CloneSet's injected pods become ready", WAIT, () -> {
            GenericKubernetesResource cs = product.client().genericKubernetesResources("apps.kruise.io/v1alpha1",
                    "CloneSet").inNamespace(product.namespace()).withName("web").get();
            Object ready = ((Map<?, ?>) cs.getAdditionalProperties().getOrDefault("status", Map.of())).get("readyReplicas");
            return ready instanceof Number r && r.intValue() == 2;
        });
    }

    static List<Pod> cloneSetPods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    @Test
    void namespaceMissPausedAndSeveralSidecarSets() {
        String label = unique("many");
        sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s-a"},
                 "spec":{"selector":{"matchLabels":{"inject":"%s"}},"containers":[{"name":"agent-a","image":"a:1"}]}}
                """.formatted(label, label));
        sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet","metadata":{"name":"%s-b"},
                 "spec":{"namespace":"%s","selector":{"matchLabels":{"inject":"%s"}},
                   "containers":[{"name":"agent-b","image":"b:1"}]}}
                """.formatted(label, product.namespace(), label));
        sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s-elsewhere"},
                 "spec":{"selector":{"matchLabels":{"inject":"%s"}},
                   "namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"some-other-namespace"}},
                   "containers":[{"name":"agent-elsewhere","image":"c:1"}]}}
                """.formatted(label, label));
        sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s-paused"},
                 "spec":{"selector":{"matchLabels":{"inject":"%s"}},"injectionStrategy":{"paused":true},
                   "containers":[{"name":"agent-paused","image":"d:1"}]}}
                """.formatted(label, label));
        awaitInjecting(label, "agent-b");
        awaitInjecting(label, "agent-a");
        Pod pod = createPod("many", label);
        // v1alpha1 spec.namespace (converted to a namespaceSelector on kubernetes.io/metadata.name) matches; the
        // other namespace's and the paused SidecarSet do not inject.
        assertEquals(List.of("agent-a", "agent-b", "main"), names(pod.getSpec().getContainers()));
        assertEquals(label + "-a," + label + "-b", pod.getMetadata().getAnnotations()
                .get("kruise.io/sidecarset-injected-list"));
    }

    @Test
    void partialRevisionInjectsThePinnedRevisionOutsideTheCanarySelector() {
        String label = unique("partial");
        String name = label + "-set";
        product.client().apps().controllerRevisions().inNamespace(EmbeddedProduct.MANAGER_NAMESPACE).resource(
                new ControllerRevisionBuilder().withNewMetadata().withName(name + "-r1")
                        .addToLabels("kruise.io/sidecarset-name", name)
                        .addToAnnotations("kruise.io/sidecarset-hash", "r1hash").endMetadata().withRevision(1L)
                        .withData(Serialization.unmarshal("{\"spec\":{\"$patch\":\"replace\",\"containers\":"
                                + "[{\"name\":\"proxy\",\"image\":\"envoy:1.29\"}]}}", Map.class)).build()).create();
        sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"inject":"%s"}},"containers":[{"name":"proxy","image":"envoy:1.30"}],
                   "updateStrategy":{"type":"RollingUpdate","selector":{"matchLabels":{"canary":"true"}}},
                   "injectionStrategy":{"revision":{"revisionName":"%s-r1","policy":"Partial"}}}}
                """.formatted(name, label, name));
        awaitInjecting(label, "proxy");
        Pod stable = createPod("stable", label);
        assertEquals("envoy:1.29", container(stable, "proxy").getImage());
        assertTrue(stable.getMetadata().getAnnotations().get("kruise.io/sidecarset-hash").contains("r1hash"));
        Pod canary = product.client().pods().inNamespace(product.namespace()).resource(new PodBuilder()
                .withNewMetadata().withName("canary").addToLabels("inject", label).addToLabels("canary", "true")
                .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("nginx").endContainer()
                .endSpec().build()).create();
        assertEquals("envoy:1.30", container(canary, "proxy").getImage());
    }

    @Test
    void hostileSidecarSetsNeverBreakPodCreation() {
        String label = unique("hostile");
        // Refused by validation, so nothing is stored that could break pod admission.
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s-bad"},
                 "spec":{"selector":{"matchExpressions":[{"key":"inject","operator":"Sometimes","values":["x"]}]},
                   "containers":[{"name":"bad","image":"b:1"}]}}
                """.formatted(label)));
        assertTrue(e.getCode() == 422 || e.getCode() == 400, e.getMessage());
        // A large but valid one (about 300 KB of env) is injected and the pod is still created.
        String big = "y".repeat(300_000);
        sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s-big"},
                 "spec":{"selector":{"matchLabels":{"inject":"%s"}},
                   "containers":[{"name":"big","image":"big:1","env":[{"name":"BIG","value":"%s"}]}]}}
                """.formatted(label, label, big));
        awaitInjecting(label, "big");
        Pod pod = createPod("big-pod", label);
        assertEquals(big.length(), env(container(pod, "big"), "BIG").length());
        Pod plain = product.client().pods().inNamespace(product.namespace()).resource(new PodBuilder()
                .withNewMetadata().withName("plain").endMetadata().withNewSpec().addNewContainer().withName("main")
                .withImage("nginx").endContainer().endSpec().build()).create();
        assertEquals(List.of("main"), names(plain.getSpec().getContainers()));
    }

    @Test
    void resourcesPolicyComputesTheSidecarsResourcesFromTheCloneSetsContainers() {
        String app = unique("res");
        String name = unique("res-proxy");
        sidecarSet("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"inject":"%s"}},
                   "containers":[{"name":"proxy","image":"envoy:1.30","resourcesPolicy":{"targetContainersMode":"sum",
                     "targetContainersNameRegex":"^main","resourcesExpr":{
                       "limits":{"cpu":"max(cpu*50%%, 50m)","memory":"memory*25%%"},
                       "requests":{"cpu":"cpu*50%%","memory":"max(memory*50%%, 64Mi)"}}}}]}}
                """.formatted(name, app));
        awaitInjecting(app, "proxy");
        ManifestApplier.apply(product.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: res, namespace: %s}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s, inject: %s}}
                    spec:
                      containers:
                      - name: main
                        image: nginx:1.25
                        resources: {limits: {cpu: 600m, memory: 512Mi}, requests: {cpu: 200m, memory: 256Mi}}
                      - name: main-helper
                        image: busybox:1.36
                        resources: {limits: {cpu: 400m, memory: 512Mi}, requests: {cpu: 100m, memory: 128Mi}}
                      - name: unrelated
                        image: busybox:1.36
                        resources: {limits: {cpu: 100m, memory: 64Mi}}
                """.formatted(product.namespace(), app, app, app));
        Await.waitFor("the CloneSet's two pods exist", WAIT, () -> cloneSetPods(app).size() == 2);
        for (Pod pod : cloneSetPods(app)) {
            Container proxy = container(pod, "proxy");
            assertEquals("500m", proxy.getResources().getLimits().get("cpu").toString(), pod.getMetadata().getName());
            assertEquals("256Mi", proxy.getResources().getLimits().get("memory").toString());
            assertEquals("150m", proxy.getResources().getRequests().get("cpu").toString());
            assertEquals("192Mi", proxy.getResources().getRequests().get("memory").toString());
        }
        Await.waitFor("the CloneSet's pods with computed sidecar resources become ready", WAIT, () -> {
            GenericKubernetesResource cs = product.client().genericKubernetesResources("apps.kruise.io/v1alpha1",
                    "CloneSet").inNamespace(product.namespace()).withName("res").get();
            Object ready = ((Map<?, ?>) cs.getAdditionalProperties().getOrDefault("status", Map.of())).get("readyReplicas");
            return ready instanceof Number r && r.intValue() == 2;
        });
        // A pod with no container the regex finds is refused, as OpenKruise refuses it.
        KubernetesClientException refused = assertThrows(KubernetesClientException.class, () -> product.client().pods()
                .inNamespace(product.namespace()).resource(new PodBuilder().withNewMetadata().withName("no-target")
                        .addToLabels("inject", app).endMetadata().withNewSpec().addNewContainer().withName("other")
                        .withImage("nginx").endContainer().endSpec().build()).create());
        assertTrue(refused.getMessage().contains("resourcesPolicy of sidecar proxy: no containers match the regex "
                + "pattern \"^main\""), refused.getMessage());
    }
}
