package dev.kruisevertx.e2e;

import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtectionWebhooks;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ResourcesDeletionProtection on the whole product: the embedded API server sends the DELETE of labelled namespaces,
 * CRDs, workloads and Services to the manager's webhook through the chart's configuration entries, and the answer
 * decides whether the object goes.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DeletionProtectionEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String ALWAYS = "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always";
    static final String CASCADING = "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading";
    static final ResourceDefinitionContext CLONESETS = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1alpha1").withKind("CloneSet").withPlural("clonesets")
            .withNamespaced(true).build();

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .flags("--feature-gates=ResourcesDeletionProtection=true,DeletionProtectionForCRDCascadingGate=true")
            .build();

    static KubernetesClient client() {
        return product.client();
    }

    static void assertRefused(String webhook, String message, Runnable delete) {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, delete::run);
        assertEquals(403, e.getCode(), e.getMessage());
        assertTrue(e.getMessage().contains("admission webhook \"" + webhook + "\" denied the request: " + message),
                e.getMessage());
    }

    /** Retries the delete until the webhook (reading the cache, which follows the cluster) lets it through. */
    static void awaitDeleted(String what, Runnable delete) {
        AtomicReference<String> last = new AtomicReference<>();
        try {
            Await.waitFor(what + " deleted", WAIT, () -> {
                try {
                    delete.run();
                    return true;
                } catch (KubernetesClientException e) {
                    last.set(e.getMessage());
                    return false;
                }
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last refusal: " + last.get(), e);
        }
    }

    GenericKubernetesResource cloneSet(String name, String protection, int replicas) {
        String ns = product.namespace();
        return ManifestApplier.apply(client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: %s, namespace: %s, labels: {policy.kruise.io/delete-protection: %s}}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec: {containers: [{name: main, image: nginx}]}
                """.formatted(name, ns, protection, replicas, name, name)).stream()
                .map(o -> (GenericKubernetesResource) client().genericKubernetesResources(CLONESETS).inNamespace(ns)
                        .withName(name).get()).findFirst().orElseThrow();
    }

    double workloadCount(String kind, String name) {
        Counter c = product.app().registry().find(DeletionProtectionWebhooks.WORKLOAD_METRIC)
                .tag("kind_namespace_name", kind + "_" + product.namespace() + "_" + name)
                .tag("username", "system:admin").counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void alwaysOnACloneSetRefusesDeleteAndDryRunDeleteUntilTheLabelIsRemoved() {
        String ns = product.namespace();
        cloneSet("web", "Always", 1);
        var cloneSets = client().genericKubernetesResources(CLONESETS).inNamespace(ns);
        assertRefused("vcloneset.kb.io", ALWAYS, () -> cloneSets.withName("web").delete());
        assertRefused("vcloneset.kb.io", ALWAYS, () -> cloneSets.withName("web").dryRun().delete());
        assertNotNull(cloneSets.withName("web").get());
        assertNull(cloneSets.withName("web").get().getMetadata().getDeletionTimestamp());
        assertEquals(2, workloadCount("CloneSet", "web"));

        // Merge patches carry no resourceVersion: the controller's own status writes cannot make them conflict.
        cloneSets.withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"policy.kruise.io/delete-protection\":null}}}");
        cloneSets.withName("web").delete();
        Await.waitFor("CloneSet gone", WAIT, () -> cloneSets.withName("web").get() == null);
    }

    @Test
    void aCascadingCloneSetIsDeletableOnceScaledToZero() {
        String ns = product.namespace();
        cloneSet("app", "Cascading", 2);
        var cloneSets = client().genericKubernetesResources(CLONESETS).inNamespace(ns);
        assertRefused("vcloneset.kb.io", CASCADING + " and replicas 2>0", () -> cloneSets.withName("app").delete());

        cloneSets.withName("app").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":0}}");
        // A dry run now passes and deletes nothing.
        cloneSets.withName("app").dryRun().delete();
        assertNotNull(cloneSets.withName("app").get());
        cloneSets.withName("app").delete();
        Await.waitFor("CloneSet gone", WAIT, () -> cloneSets.withName("app").get() == null);
    }

    @Test
    void aCascadingNamespaceCannotBeDeletedWhilePodsRunOrClaimsAreBound() {
        String ns = product.namespace();
        client().namespaces().withName(ns).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"policy.kruise.io/delete-protection\":\"Cascading\"}}}");
        ManifestApplier.apply(client(), """
                apiVersion: v1
                kind: Pod
                metadata: {name: runner, namespace: %s}
                spec: {containers: [{name: main, image: nginx}]}
                ---
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: data, namespace: %s}
                spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                """.formatted(ns, ns));
        Await.waitFor("pod running", WAIT, () -> {
            Pod p = client().pods().inNamespace(ns).withName("runner").get();
            return p != null && p.getStatus() != null && "Running".equals(p.getStatus().getPhase());
        });
        PersistentVolumeClaim claim = client().persistentVolumeClaims().inNamespace(ns).withName("data").get();
        claim.setStatus(new PersistentVolumeClaimStatusBuilder().withPhase("Bound").build());
        client().persistentVolumeClaims().inNamespace(ns).resource(claim).updateStatus();

        assertRefused("vnamespace.kb.io", CASCADING + " and active pods 1>0", () -> client().namespaces().withName(ns).delete());
        assertNull(client().namespaces().withName(ns).get().getMetadata().getDeletionTimestamp());
        Counter counted = product.app().registry().find(DeletionProtectionWebhooks.NAMESPACE_METRIC).tag("name", ns)
                .tag("username", "system:admin").counter();
        assertNotNull(counted);

        client().pods().inNamespace(ns).withName("runner").withGracePeriod(0).delete();
        Await.waitFor("pod gone", WAIT, () -> client().pods().inNamespace(ns).withName("runner").get() == null);
        Await.waitFor("the Bound claim named", WAIT, () -> {
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> client().namespaces().withName(ns).delete());
            return e.getMessage().contains(CASCADING + " and \"Bound\" status pvc 1>0");
        });

        client().persistentVolumeClaims().inNamespace(ns).withName("data").withGracePeriod(0).delete();
        awaitDeleted("namespace " + ns, () -> client().namespaces().withName(ns).delete());
        Await.waitFor("namespace terminating or gone", WAIT, () -> {
            var n = client().namespaces().withName(ns).get();
            return n == null || n.getMetadata().getDeletionTimestamp() != null;
        });
    }

    @Test
    void aCascadingCrdCannotBeDeletedWhileItsObjectsExist() {
        String ns = product.namespace();
        ManifestApplier.apply(client(), """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.protect.example.com, labels: {policy.kruise.io/delete-protection: Cascading}}
                spec:
                  group: protect.example.com
                  scope: Namespaced
                  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """);
        ResourceDefinitionContext widgets = new ResourceDefinitionContext.Builder().withGroup("protect.example.com")
                .withVersion("v1").withKind("Widget").withPlural("widgets").withNamespaced(true).build();
        Await.waitFor("widgets served", WAIT, () -> {
            try {
                client().genericKubernetesResources(widgets).inNamespace(ns).resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("protect.example.com/v1").withKind("Widget").withNewMetadata().withName("w1")
                        .withNamespace(ns).endMetadata().build()).create();
                return true;
            } catch (KubernetesClientException e) {
                return false;
            }
        });
        var crds = client().apiextensions().v1().customResourceDefinitions();
        assertRefused("vcustomresourcedefinition.kb.io", CASCADING + " and active CRs 1>0",
                () -> crds.withName("widgets.protect.example.com").delete());
        assertNotNull(crds.withName("widgets.protect.example.com").get());

        client().genericKubernetesResources(widgets).inNamespace(ns).withName("w1").delete();
        awaitDeleted("CRD", () -> crds.withName("widgets.protect.example.com").delete());
        Await.waitFor("CRD gone", WAIT, () -> crds.withName("widgets.protect.example.com").get() == null);
    }

    @Test
    void builtInKindsAreProtectedThroughTheChartsEntries() {
        String ns = product.namespace();
        ManifestApplier.apply(client(), """
                apiVersion: v1
                kind: Service
                metadata: {name: front, namespace: %s, labels: {policy.kruise.io/delete-protection: Always}}
                spec: {ports: [{port: 80}]}
                ---
                apiVersion: networking.k8s.io/v1
                kind: Ingress
                metadata: {name: front, namespace: %s, labels: {policy.kruise.io/delete-protection: Always}}
                spec: {defaultBackend: {service: {name: front, port: {number: 80}}}}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: api, namespace: %s, labels: {policy.kruise.io/delete-protection: Cascading}}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: api}}
                  template: {metadata: {labels: {app: api}}, spec: {containers: [{name: c, image: nginx}]}}
                ---
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: %s, labels: {policy.kruise.io/delete-protection: always}}
                spec:
                  replicas: 1
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: nginx}]}}
                """.formatted(ns, ns, ns, ns));
        assertRefused("vservice.kb.io", ALWAYS, () -> client().services().inNamespace(ns).withName("front").delete());
        assertRefused("vingress.kb.io", ALWAYS,
                () -> client().network().v1().ingresses().inNamespace(ns).withName("front").delete());
        assertRefused("vbuiltindeployment.kb.io", CASCADING + " and replicas 3>0",
                () -> client().apps().deployments().inNamespace(ns).withName("api").delete());
        assertEquals(1, workloadCount("Deployment", "api"));
        // A value that protects nothing: deleted, as in OpenKruise.
        client().apps().statefulSets().inNamespace(ns).withName("db").delete();
        assertNotNull(client().services().inNamespace(ns).withName("front").get());
    }
}
