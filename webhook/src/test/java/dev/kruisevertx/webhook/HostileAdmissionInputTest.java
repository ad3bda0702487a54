package dev.kruisevertx.webhook;

import java.util.Map;
import dev.kruisevertx.features.FeatureGates;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.bench.HostileTarget;
import dev.kruisevertx.webhook.bench.InMemoryBudgets;
import dev.kruisevertx.webhook.bench.JsonTrees;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.crr.CrrWebhooks;
import dev.kruisevertx.webhook.daemonset.DaemonSetWebhooks;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;
import dev.kruisevertx.webhook.sidecarset.SidecarSetWebhooks;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;
import dev.kruisevertx.webhook.statefulset.StatefulSetWebhooks;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;

import java.util.LinkedHashSet;
import java.util.List;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile input for the workload webhooks, over HTTPS as the API server sends it (issue 13). Starting from a valid
 * object of each kind, every field in turn (and a few absent ones) gets each value of a bounded list of bad ones:
 * wrong JSON types, null, empty and very long strings, negative, huge and overflowing numbers, fractions, quoted
 * numbers, digits of another script, bad percentages. Each variant goes to the mutating and the validating webhook
 * as a CREATE and as an UPDATE of the valid object. Every answer must come within the timeout, must not be a 5xx
 * (neither as HTTP status nor as admission status), and a denial must say what is wrong without Java class names.
 */
class HostileAdmissionInputTest {
    static final String CLONESET = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet",
             "metadata":{"name":"sample","namespace":"default","uid":"cs-uid","labels":{"app":"sample"},
               "annotations":{"apps.kruise.io/image-predownload-parallelism":"5"}},
             "spec":{"replicas":5,"revisionHistoryLimit":10,"minReadySeconds":3,"progressDeadlineSeconds":600,
               "selector":{"matchLabels":{"app":"sample"},"matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]}]},
               "template":{"metadata":{"labels":{"app":"sample"}},
                 "spec":{"containers":[{"name":"nginx","image":"nginx:alpine","ports":[{"containerPort":80}],
                   "resources":{"limits":{"cpu":"500m"}},
                   "volumeMounts":[{"name":"data","mountPath":"/data"}]}],
                   "readinessGates":[{"conditionType":"InPlaceUpdateReady"}]}},
               "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                  "resources":{"requests":{"storage":"1Gi"}}}}],
               "scaleStrategy":{"maxUnavailable":"50%","podsToDelete":[]},
               "lifecycle":{"preDelete":{"finalizersHandler":["example.com/hook"]}},
               "updateStrategy":{"type":"InPlaceIfPossible","partition":"20%","maxUnavailable":"20%","maxSurge":1,
                 "priorityStrategy":{"weightPriority":[{"weight":50,"matchSelector":{"matchLabels":{"a":"b"}}}]},
                 "scatterStrategy":[{"key":"zone","value":"a"}]}}}
            """;
    static final String STATEFULSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet",
             "metadata":{"name":"web","namespace":"default","uid":"sts-uid"},
             "spec":{"replicas":4,"podManagementPolicy":"Parallel","serviceName":"web","revisionHistoryLimit":10,
               "reserveOrdinals":[1,"5-6"],"ordinals":{"start":2},
               "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete","whenScaled":"Retain"},
               "scaleStrategy":{"maxUnavailable":"50%"},
               "selector":{"matchLabels":{"app":"web"}},
               "template":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}]}],
                   "readinessGates":[{"conditionType":"InPlaceUpdateReady"}]}},
               "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                  "resources":{"requests":{"storage":"1Gi"}}}}],
               "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":1,"maxUnavailable":"25%",
                 "minReadySeconds":5,"podUpdatePolicy":"InPlaceIfPossible",
                 "unorderedUpdate":{"priorityStrategy":{"orderPriority":[{"orderedKey":"rank"}]}}}}}}
            """;
    static final String STATEFULSET_ALPHA = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"StatefulSet",
             "metadata":{"name":"web","namespace":"default","uid":"sts-uid",
               "annotations":{"apps.kruise.io/v1beta1-spec-fields":"{\\"reserveOrdinals\\":[1],\\"ordinals\\":{\\"start\\":1}}"}},
             "spec":{"replicas":2,"podManagementPolicy":"OrderedReady","serviceName":"web",
               "selector":{"matchLabels":{"app":"web"}},
               "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},
               "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0,"maxUnavailable":1,
                 "podUpdatePolicy":"ReCreate"}}}}
            """;
    static final String DAEMONSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"DaemonSet",
             "metadata":{"name":"agent","namespace":"default","uid":"ds-uid"},
             "spec":{"minReadySeconds":3,"burstReplicas":"50%","revisionHistoryLimit":5,
               "scaleStrategy":{"partitionedScaling":true},
               "lifecycle":{"preDelete":{"finalizersHandler":["example.com/hold"]}},
               "selector":{"matchLabels":{"app":"agent"}},
               "template":{"metadata":{"labels":{"app":"agent"}},
                 "spec":{"hostNetwork":true,"containers":[{"name":"c","image":"nginx"}],
                   "nodeSelector":{"pool":"a"}}},
               "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"rollingUpdateType":"InPlaceIfPossible",
                 "maxUnavailable":"20%","partition":2,"paused":false,"selector":{"matchLabels":{"tier":"x"}}}}}}
            """;
    static final String DAEMONSET_ALPHA = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"DaemonSet",
             "metadata":{"name":"agent","namespace":"default","uid":"ds-uid",
               "annotations":{"daemonset.kruise.io/progressive-create-pod":"true"}},
             "spec":{"selector":{"matchLabels":{"app":"agent"}},
               "template":{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},
               "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"rollingUpdateType":"Surging","maxSurge":1}}}}
            """;
    static final String UNITEDDEPLOYMENT = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"UnitedDeployment",
             "metadata":{"name":"web","namespace":"default","uid":"ud-uid"},
             "spec":{"replicas":6,"revisionHistoryLimit":5,
               "selector":{"matchLabels":{"app":"web"}},
               "template":{"cloneSetTemplate":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"selector":{"matchLabels":{"app":"web"}},
                   "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}},
               "topology":{"subsets":[
                 {"name":"zone-a","nodeSelectorTerm":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                   "operator":"In","values":["a"]}]},"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}],
                   "minReplicas":1,"maxReplicas":"50%","patch":{"metadata":{"labels":{"zone":"a"}}}},
                 {"name":"zone-b","minReplicas":0}],
                 "scheduleStrategy":{"type":"Adaptive","adaptive":{"rescheduleCriticalSeconds":10,
                   "unschedulableDuration":60,"reserveUnschedulablePods":true}}},
               "updateStrategy":{"type":"Manual","manualUpdate":{"partitions":{"zone-a":1}}}}}
            """;
    static final String BROADCASTJOB = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"BroadcastJob",
             "metadata":{"name":"node-check","namespace":"default"},
             "spec":{"parallelism":"50%","paused":false,
               "template":{"metadata":{"labels":{"app":"check"}},
                 "spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}},
               "completionPolicy":{"type":"Always","activeDeadlineSeconds":600,"ttlSecondsAfterFinished":60},
               "failurePolicy":{"type":"FailFast","restartLimit":2}}}
            """;
    static final String ADVANCEDCRONJOB = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"AdvancedCronJob",
             "metadata":{"name":"nightly","namespace":"default"},
             "spec":{"schedule":"*/5 * * * *","timeZone":"Europe/Berlin","startingDeadlineSeconds":30,
               "concurrencyPolicy":"Forbid","paused":false,"successfulJobsHistoryLimit":3,"failedJobsHistoryLimit":1,
               "template":{"jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure",
                 "containers":[{"name":"c","image":"busybox"}]}}}}}}}
            """;
    static final String WORKLOADSPREAD = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"WorkloadSpread",
             "metadata":{"name":"spread","namespace":"default"},
             "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"sample"},
               "targetFilter":{"selector":{"matchLabels":{"app":"sample"},
                 "matchExpressions":[{"key":"tier","operator":"In","values":["web"]}]},
                 "replicasPathList":["spec.replicas"]},
               "subsets":[{"name":"zone-a","maxReplicas":2,
                   "requiredNodeSelectorTerm":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",
                     "operator":"In","values":["zone-a"]}],"matchFields":[{"key":"metadata.name","operator":"NotIn",
                     "values":["node-9"]}]},
                   "preferredNodeSelectorTerms":[{"weight":10,"preference":{"matchExpressions":[{"key":"disk",
                     "operator":"Exists"}]}}],
                   "tolerations":[{"key":"dedicated","operator":"Equal","value":"spread","effect":"NoExecute",
                     "tolerationSeconds":30}],
                   "patch":{"metadata":{"labels":{"subset":"zone-a"}}}},
                 {"name":"zone-b"}],
               "scheduleStrategy":{"type":"Adaptive","adaptive":{"rescheduleCriticalSeconds":30,
                 "disableSimulationSchedule":true}}}}
            """;
    static final String CRR = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"ContainerRecreateRequest",
             "metadata":{"name":"r","namespace":"default"},
             "spec":{"podName":"web-0","containers":[{"name":"app"}],"activeDeadlineSeconds":300,
               "ttlSecondsAfterFinished":60,
               "strategy":{"failurePolicy":"Fail","orderedRecreate":true,"terminationGracePeriodSeconds":30,
                 "unreadyGracePeriodSeconds":3,"minStartedSeconds":10,"forceRecreate":false}}}
            """;
    static final String SIDECARSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet",
             "metadata":{"name":"log-shipper"},
             "spec":{"selector":{"matchLabels":{"app":"sample"}},
               "namespaceSelector":{"matchLabels":{"team":"a"}},"customVersion":"v1","revisionHistoryLimit":5,
               "containers":[{"name":"shipper","image":"busybox:1.36","podInjectPolicy":"AfterAppContainer",
                 "shareVolumePolicy":{"type":"enabled"},"upgradeStrategy":{"upgradeType":"ColdUpgrade"},
                 "transferEnv":[{"sourceContainerName":"nginx","envName":"TZ"}],
                 "volumeMounts":[{"name":"logs","mountPath":"/var/log/app"}]}],
               "initContainers":[{"name":"init-logs","image":"busybox:1.36","restartPolicy":"Always",
                 "resourcesPolicy":{"targetContainersMode":"sum","targetContainersNameRegex":".*",
                   "resourcesExpr":{"limits":{"cpu":"max(cpu*0.5, 100m)"}}}}],
               "volumes":[{"name":"logs","emptyDir":{}}],"imagePullSecrets":[{"name":"regcred"}],
               "updateStrategy":{"type":"NotUpdate","partition":"20%","maxUnavailable":2,
                 "priorityStrategy":{"weightPriority":[{"weight":50,"matchSelector":{"matchLabels":{"a":"b"}}}]},
                 "scatterStrategy":[{"key":"zone","value":"a"}]},
               "injectionStrategy":{"paused":false},
               "patchPodMetadata":[{"annotations":{"example.com/logged":"true"},"patchPolicy":"Overwrite"}]}}
            """;
    static final String SIDECARSET_ALPHA = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
             "metadata":{"name":"log-shipper","labels":{"apps.kruise.io/sidecarset-custom-version":"v1"}},
             "spec":{"selector":{"matchLabels":{"app":"sample"}},"namespace":"default",
               "containers":[{"name":"shipper","image":"busybox:1.36"}],
               "updateStrategy":{"type":"RollingUpdate","maxUnavailable":"10%"}}}
            """;
    static final Pod POD = new PodBuilder().withNewMetadata().withName("web-0").withNamespace("default")
            .withUid("pod-uid").endMetadata().withNewSpec().withNodeName("node-a").addNewContainer().withName("app")
            .withImage("nginx").endContainer().endSpec().withNewStatus().withPhase("Running").addNewContainerStatus()
            .withName("app").withContainerID("containerd://aaa").withRestartCount(1).endContainerStatus().endStatus()
            .build();

    /** A pod the SidecarSet below injects into: every field of it is hostile input of the injection step. */
    static final String INJECTED_POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"default",
              "labels":{"app":"web","src":"main"},"annotations":{"owner":"me"}},
             "spec":{"initContainers":[{"name":"prep","image":"busybox"}],
              "containers":[{"name":"main","image":"nginx","env":[{"name":"TZ","value":"UTC"},{"name":"LANG","value":"C"}],
                "volumeMounts":[{"name":"data","mountPath":"/data"}],"resources":{"limits":{"cpu":"1","memory":"1Gi"}}}],
              "volumes":[{"name":"data","emptyDir":{}}],"imagePullSecrets":[{"name":"pull"}]}}
            """;

    /** A SidecarSet using every injection feature, served to /mutate-pod as the cache's only candidate. */
    static final String INJECTING_SIDECARSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"everything",
              "annotations":{"kruise.io/sidecarset-hash":"h","kruise.io/sidecarset-hash-without-image":"w"}},
             "spec":{"selector":{"matchLabels":{"app":"web"}},"namespaceSelector":{"matchLabels":{"env":"prod"}},
              "initContainers":[{"name":"native","image":"n:1","restartPolicy":"Always",
                "upgradeStrategy":{"upgradeType":"HotUpgrade","hotUpgradeEmptyImage":"empty:1"}}],
              "containers":[{"name":"log","image":"log:1","podInjectPolicy":"AfterAppContainer",
                "shareVolumePolicy":{"type":"enabled"},"volumeMounts":[{"name":"logs","mountPath":"/logs"}],
                "transferEnv":[{"sourceContainerNameFrom":{"fieldRef":{"fieldPath":"metadata.labels['src']"}},
                  "envNames":["TZ"]},{"sourceContainerName":"main","envName":"LANG"}]},
               {"name":"proxy","image":"envoy:1","upgradeStrategy":{"upgradeType":"HotUpgrade",
                "hotUpgradeEmptyImage":"empty:1"}}],
              "volumes":[{"name":"logs","emptyDir":{}}],"imagePullSecrets":[{"name":"registry"}],
              "patchPodMetadata":[{"annotations":{"added":"yes"},"patchPolicy":"Retain"},
                {"annotations":{"cfg":"{\\\"a\\\":1}"},"patchPolicy":"MergePatchJson"}]}}
            """;

    /** Words of a Java stack that a user must never see in an answer. */
    static final List<String> LEAKS = List.of("java.", "javax.", "dev.kruisevertx", "com.fasterxml", "io.fabric8",
            "Exception", "reference chain", "NullPointer", "\tat ");

    static JsonNode readTree(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Vertx vertx;
    static final InMemoryBudgets BUDGETS = new InMemoryBudgets().put(HostileTarget.protectingBudget());
    static WebhookServerVerticle server;
    static WebClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        CertBundle certs = TestCerts.localhost();
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(
                "KruisePodReadinessGate=true,TemplateNoDefaults=false,KruiseDaemon=true,"
                        + "StatefulSetAutoDeletePVC=true,StatefulSetAutoResizePVCGate=true,"
                        + "PodUnavailableBudgetUpdateGate=true,ResourceDistributionGate=true"
                        + ",ImagePullJobGate=true", Map.of()))
                .withPods((ns, name) -> "web-0".equals(name) ? Optional.of(POD)
                        : "web-1".equals(name) ? Optional.of(HostileTarget.protectedPod()) : Optional.empty())
                // /validate-pod decides and records over in-memory budgets, as over the API server.
                .withPubGuard(BUDGETS.guard(vertx))
                .withSidecarSets(new SidecarSetLookup() {
                    final SidecarSet everything = Json.toModel((ObjectNode) readTree(INJECTING_SIDECARSET),
                            SidecarSet.class);

                    @Override
                    public List<SidecarSet> sidecarSets() {
                        // None for SidecarSet validation, so the SidecarSet cases judge their object alone.
                        return List.of();
                    }

                    @Override
                    public List<SidecarSet> candidates(String namespace) {
                        return List.of(everything);
                    }

                    @Override
                    public Optional<Map<String, String>> namespaceLabels(String namespace) {
                        return Optional.of(Map.of("env", "prod"));
                    }

                    @Override
                    public boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision) {
                        return false;
                    }
                }));
        server = new WebhookServerVerticle("localhost", 0, 3 << 20, registry,
                KruiseWebhooks.registerConversions(new ConversionRegistry()),
                new WebhookMetrics(new SimpleMeterRegistry()), certs);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        client = WebClient.create(vertx, new WebClientOptions().setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))));
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void cloneSet() throws Exception {
        assertNoFailures("CloneSet", "clonesets", CLONESET,
                List.of(CloneSetWebhooks.MUTATE_PATH, CloneSetWebhooks.VALIDATE_PATH),
                List.of("/spec/updateStrategy/paused", "/spec/scaleStrategy/disablePVCReuse",
                        "/metadata/generateName", "/spec/template/spec/activeDeadlineSeconds",
                        "/spec/updateStrategy/inPlaceUpdateStrategy/gracePeriodSeconds"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void advancedStatefulSet() throws Exception {
        assertNoFailures("StatefulSet", "statefulsets", STATEFULSET,
                List.of(StatefulSetWebhooks.MUTATE_PATH, StatefulSetWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/volumeClaimUpdateStrategy/type",
                        "/spec/lifecycle/preDelete/labelsHandler"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void advancedStatefulSetV1alpha1() throws Exception {
        assertNoFailures("StatefulSet", "statefulsets", STATEFULSET_ALPHA,
                List.of(StatefulSetWebhooks.MUTATE_PATH, StatefulSetWebhooks.VALIDATE_PATH), List.of());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void advancedDaemonSet() throws Exception {
        assertNoFailures("DaemonSet", "daemonsets", DAEMONSET,
                List.of(DaemonSetWebhooks.MUTATE_PATH, DaemonSetWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/updateStrategy/rollingUpdate/maxSurge",
                        "/spec/template/spec/activeDeadlineSeconds"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void podUnavailableBudget() throws Exception {
        assertNoFailures("PodUnavailableBudget", "podunavailablebudgets",
                dev.kruisevertx.webhook.bench.HostileTarget.PODUNAVAILABLEBUDGET,
                List.of(dev.kruisevertx.webhook.podunavailablebudget.PodUnavailableBudgetWebhooks.VALIDATE_PATH),
                List.of("/spec/selector", "/spec/minAvailable", "/metadata/generateName"));
    }

    /**
     * {@code /validate-pod} with a budget: hostile pods as the DELETE's old object, on either side of an UPDATE, and
     * hostile Evictions of the protected pod. Variants the budget admits are recorded (in memory, with conflict
     * checks), later ones are refused with OpenKruise's message; none may answer 5xx.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void podValidationWithABudget() throws Exception {
        String path = dev.kruisevertx.webhook.pod.PodValidatingHandler.PATH;
        ObjectNode valid = (ObjectNode) readTree(HostileTarget.PROTECTED_POD);
        ObjectNode eviction = (ObjectNode) readTree("""
                {"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"web-1","namespace":"default"},
                 "deleteOptions":{"gracePeriodSeconds":30,"dryRun":["All"]}}
                """);
        List<Request> requests = new ArrayList<>();
        for (ObjectNode pod : variants(valid, List.of("/metadata/deletionTimestamp", "/metadata/labels/unavailable-pod.kruise.io~1x",
                "/spec/containers/0/resizePolicy", "/metadata/annotations/pub.kruise.io~1no-protect"))) {
            requests.add(new Request(path, "DELETE", null, pod, "", "web-1"));
            requests.add(new Request(path, "UPDATE", pod, valid, "", "web-1"));
            requests.add(new Request(path, "UPDATE", valid, pod, "", "web-1"));
            requests.add(new Request(path, "DELETE", null, pod, "status", "web-1"));
        }
        for (ObjectNode e : variants(eviction, List.of())) {
            requests.add(new Request(path, "CREATE", e, null, "eviction", "web-1"));
            requests.add(new Request(path, "CREATE", e, null, "eviction", "absent"));
        }
        assertAnswered("Pod", "pods", requests);
        // The hostile variants that were admitted are recorded in the budget, which is still readable.
        var budget = BUDGETS.get("default", "web-pub");
        assertTrue(budget.status().getDisruptedPods().containsKey("web-1"), "the valid pod stays recorded");
        assertTrue(budget.status().getUnavailableAllowed() < 1_000_000, "some hostile variants were admitted and "
                + "recorded, so the write path was exercised");
        // The valid DELETE is still allowed (its pod is recorded), a new ready pod still decrements the budget.
        JsonNode answer = Json.MAPPER.readTree(send("Pod", "pods", new Request(path, "DELETE", null, valid, "", "web-1"))
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS).bodyAsString()).path("response");
        assertTrue(answer.path("allowed").asBoolean(), answer.toString());
    }

    /** Every pointer of {@code valid} (and {@code absent}) set to each hostile value. */
    static List<ObjectNode> variants(ObjectNode valid, List<String> absent) {
        List<String> found = new ArrayList<>();
        JsonTrees.collectPointers(valid, "", found);
        Set<String> pointers = new LinkedHashSet<>(found);
        pointers.addAll(absent);
        List<ObjectNode> out = new ArrayList<>();
        for (String pointer : pointers) {
            for (JsonNode value : hostileValues()) {
                out.add(with(valid, pointer, value));
            }
        }
        return out;
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void sidecarSet() throws Exception {
        assertNoFailures("SidecarSet", "sidecarsets", SIDECARSET,
                List.of(SidecarSetWebhooks.MUTATE_PATH, SidecarSetWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/injectionStrategy/revision/revisionName",
                        "/spec/containers/0/shareVolumeDevicePolicy/type",
                        "/spec/containers/0/transferEnv/0/sourceContainerNameFrom/fieldRef/fieldPath"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void advancedDaemonSetV1alpha1() throws Exception {
        assertNoFailures("DaemonSet", "daemonsets", DAEMONSET_ALPHA,
                List.of(DaemonSetWebhooks.MUTATE_PATH, DaemonSetWebhooks.VALIDATE_PATH), List.of());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void sidecarSetV1alpha1() throws Exception {
        assertNoFailures("SidecarSet", "sidecarsets", SIDECARSET_ALPHA,
                List.of(SidecarSetWebhooks.MUTATE_PATH, SidecarSetWebhooks.VALIDATE_PATH), List.of());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void broadcastJob() throws Exception {
        assertNoFailures("BroadcastJob", "broadcastjobs", BROADCASTJOB,
                List.of(dev.kruisevertx.webhook.broadcastjob.BroadcastJobWebhooks.MUTATE_PATH,
                        dev.kruisevertx.webhook.broadcastjob.BroadcastJobWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/completionPolicy/type"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void unitedDeployment() throws Exception {
        assertNoFailures("UnitedDeployment", "uniteddeployments", UNITEDDEPLOYMENT,
                List.of(dev.kruisevertx.webhook.uniteddeployment.UnitedDeploymentWebhooks.MUTATE_PATH,
                        dev.kruisevertx.webhook.uniteddeployment.UnitedDeploymentWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/topology/subsets/0/replicas",
                        "/spec/template/statefulSetTemplate", "/spec/template/deploymentTemplate"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void advancedCronJob() throws Exception {
        assertNoFailures("AdvancedCronJob", "advancedcronjobs", ADVANCEDCRONJOB,
                List.of(dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobWebhooks.MUTATE_PATH,
                        dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/template/broadcastJobTemplate"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void workloadSpread() throws Exception {
        assertNoFailures("WorkloadSpread", "workloadspreads", WORKLOADSPREAD,
                List.of(dev.kruisevertx.webhook.workloadspread.WorkloadSpreadWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/subsets/1/maxReplicas", "/spec/targetFilter/selector"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void resourceDistribution() throws Exception {
        assertNoFailures("ResourceDistribution", "resourcedistributions", HostileTarget.RESOURCEDISTRIBUTION,
                List.of(dev.kruisevertx.webhook.resourcedistribution.ResourceDistributionWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/resource/stringData", "/spec/targets/allNamespaces"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void persistentPodState() throws Exception {
        assertNoFailures("PersistentPodState", "persistentpodstates", HostileTarget.PERSISTENTPODSTATE,
                List.of(dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/status/observedGeneration",
                        "/spec/persistentPodAnnotations/0/value"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void containerRecreateRequest() throws Exception {
        assertNoFailures("ContainerRecreateRequest", "containerrecreaterequests", CRR,
                List.of(CrrWebhooks.MUTATE_PATH), List.of("/spec/containers/0/preStop"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void podInjectedBySidecarSet() throws Exception {
        // The pod carries no kruise.io/sidecarset-hash annotation and no "cfg" annotation: an unreadable one of those
        // is refused with 500 on purpose, as OpenKruise does (SidecarSetPodInjectionHttpsTest pins that).
        ObjectNode valid = (ObjectNode) readTree(INJECTED_POD);
        JsonNode answer = Json.MAPPER.readTree(send("Pod", "pods", new Request("/mutate-pod", "CREATE", valid, null))
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS).bodyAsString()).path("response");
        JsonNode injected = io.fabric8.zjsonpatch.JsonPatch.apply(
                dev.kruisevertx.webhook.admission.AdmissionReviews.decodePatch(answer), valid);
        assertTrue(injected.at("/spec/containers").toString().contains("\"proxy-1\"")
                && injected.at("/spec/initContainers").toString().contains("\"native-2\""),
                "the valid pod is injected, so the variants exercise the injection: " + injected);
        assertNoFailures("Pod", "pods", INJECTED_POD, List.of("/mutate-pod"),
                List.of("/metadata/generateName", "/spec/containers/0/env/0/valueFrom/fieldRef/fieldPath",
                        "/metadata/deletionTimestamp", "/status/phase"));
    }

    @Test
    void theCasesOfTheIssueAreDeniedWithAFieldMessage() throws Exception {
        ObjectNode sts = (ObjectNode) Json.MAPPER.readTree(STATEFULSET);
        ObjectNode cs = (ObjectNode) Json.MAPPER.readTree(CLONESET);
        Object[][] cases = {
                {"StatefulSet", "statefulsets", StatefulSetWebhooks.VALIDATE_PATH, sts,
                        "/spec/updateStrategy/rollingUpdate/maxUnavailable", "99999999999999999999%",
                        "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"99999999999999999999%\": "
                                + "must not be greater than 100%"},
                {"StatefulSet", "statefulsets", StatefulSetWebhooks.VALIDATE_PATH, sts, "/metadata/name",
                        "w".repeat(10_000), "metadata.name: Too long: may not be more than 52 characters"},
                {"CloneSet", "clonesets", CloneSetWebhooks.VALIDATE_PATH, cs, "/spec/revisionHistoryLimit", -5,
                        "spec.revisionHistoryLimit: Invalid value: -5: must be greater than or equal to 0"},
                {"CloneSet", "clonesets", CloneSetWebhooks.VALIDATE_PATH, cs, "/spec/minReadySeconds", -1,
                        "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"},
                {"CloneSet", "clonesets", CloneSetWebhooks.VALIDATE_PATH, cs, "/spec/updateStrategy/partition", "150%",
                        "spec.updateStrategy.partition: Invalid value: \"150%\": must not be greater than 100%"},
                {"CloneSet", "clonesets", CloneSetWebhooks.VALIDATE_PATH, cs, "/spec/scaleStrategy/maxUnavailable",
                        "150%", "spec.scaleStrategy.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%"},
                {"CloneSet", "clonesets", CloneSetWebhooks.VALIDATE_PATH, cs, "/spec/scaleStrategy/maxUnavailable",
                        -1, "spec.scaleStrategy.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"},
                {"CloneSet", "clonesets", CloneSetWebhooks.VALIDATE_PATH, cs, "/spec/replicas", "7",
                        "spec.replicas: Invalid value: \"7\": must be an integer"},
                {"CloneSet", "clonesets", CloneSetWebhooks.MUTATE_PATH, cs, "/spec/replicas", "\u0665",
                        "spec.replicas: Invalid value: \"\u0665\": must be an integer"},
                {"CloneSet", "clonesets", CloneSetWebhooks.VALIDATE_PATH, cs, "/spec/template/spec/containers/0/ports/0/containerPort",
                        "80", "spec.template.spec.containers[0].ports[0].containerPort: Invalid value: \"80\": must be an integer"},
        };
        for (Object[] c : cases) {
            ObjectNode object = with((ObjectNode) c[3], (String) c[4], Json.MAPPER.valueToTree(c[5]));
            for (Request r : List.of(new Request((String) c[2], "CREATE", object, null),
                    new Request((String) c[2], "UPDATE", object, (ObjectNode) c[3]))) {
                HttpResponse<Buffer> response = send((String) c[0], (String) c[1], r).toCompletionStage()
                        .toCompletableFuture().get(30, TimeUnit.SECONDS);
                JsonNode answer = Json.MAPPER.readTree(response.bodyAsString()).path("response");
                String message = answer.path("status").path("message").asText();
                assertTrue(!answer.path("allowed").asBoolean() && answer.path("status").path("code").asInt() == 422
                        && message.contains((String) c[6]), r.operation() + " " + c[4] + "=" + c[5] + ": " + answer);
            }
        }
    }

    /** The bad values every field gets in turn. */
    static List<JsonNode> hostileValues() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ArrayNode nullElement = f.arrayNode();
        nullElement.addNull();
        ObjectNode nested = f.objectNode();
        nested.putObject("a").putArray("b").addObject().put("c", 1);
        return List.of(f.nullNode(), f.objectNode(), nested, f.arrayNode(), nullElement, f.arrayNode().add(1),
                f.textNode(""), f.textNode("x".repeat(10_000)), f.textNode("Bad_Name!"), f.textNode("\u0000\uFFFF"),
                f.numberNode(-1), f.numberNode(0), f.numberNode(Integer.MAX_VALUE), f.numberNode(2147483648L),
                f.numberNode(new BigInteger("99999999999999999999")), f.numberNode(1.5),
                f.numberNode(new BigDecimal("1e400")), f.booleanNode(true),
                f.textNode("7"), f.textNode("\u0665"), f.textNode("-5%"), f.textNode("0%"), f.textNode("150%"),
                f.textNode("99999999999999999999%"), f.textNode("\u0665\u0660%"), f.textNode("1-99999999999"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void ephemeralJob() throws Exception {
        assertNoFailures("EphemeralJob", "ephemeraljobs", dev.kruisevertx.webhook.bench.HostileTarget.EPHEMERALJOB,
                List.of(dev.kruisevertx.webhook.ephemeraljob.EphemeralJobWebhooks.VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/template/ephemeralContainers/0/ports",
                        "/spec/template/ephemeralContainers/0/restartPolicy"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void imagePullJob() throws Exception {
        assertNoFailures("ImagePullJob", "imagepulljobs", "v1beta1", HostileTarget.IMAGEPULLJOB, IMAGE_PULL_PATHS,
                List.of("/metadata/generateName", "/spec/podSelector", "/spec/selector/matchLabels",
                        "/spec/completionPolicy/type"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void imagePullJobV1alpha1() throws Exception {
        assertNoFailures("ImagePullJob", "imagepulljobs", "v1alpha1", HostileTarget.IMAGEPULLJOB_ALPHA,
                IMAGE_PULL_PATHS, List.of("/spec/selector", "/spec/pullSecrets", "/spec/sandboxConfig"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void imageListPullJob() throws Exception {
        assertNoFailures("ImageListPullJob", "imagelistpulljobs", "v1beta1", HostileTarget.IMAGELISTPULLJOB,
                List.of(dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.ILPJ_MUTATE_PATH,
                        dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.ILPJ_VALIDATE_PATH),
                List.of("/metadata/generateName", "/spec/selector/names", "/spec/podSelector"));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void nodeImage() throws Exception {
        assertNoFailures("NodeImage", "nodeimages", "v1beta1", HostileTarget.NODEIMAGE,
                List.of(dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.NODE_IMAGE_MUTATE_PATH,
                        dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.NODE_IMAGE_VALIDATE_PATH),
                List.of("/spec/images/busybox", "/spec/images/nginx/tags/0/tag", "/metadata/generateName"));
    }

    static final List<String> IMAGE_PULL_PATHS = List.of(
            dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.IPJ_MUTATE_PATH,
            dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.IPJ_VALIDATE_PATH);

    void assertNoFailures(String kind, String resource, String validJson, List<String> paths, List<String> absent)
            throws Exception {
        assertNoFailures(kind, resource, "v1", validJson, paths, absent);
    }

    /** As above with the kind's version in request.kind (kinds that answer 400 to a version they do not serve). */
    void assertNoFailures(String kind, String resource, String version, String validJson, List<String> paths,
                          List<String> absent) throws Exception {
        ObjectNode valid = (ObjectNode) Json.MAPPER.readTree(validJson);
        List<String> found = new ArrayList<>();
        JsonTrees.collectPointers(valid, "", found);
        Set<String> pointers = new LinkedHashSet<>(found);
        pointers.addAll(absent);
        List<ObjectNode> variants = new ArrayList<>();
        for (String pointer : pointers) {
            for (JsonNode value : hostileValues()) {
                variants.add(with(valid, pointer, value));
            }
        }
        List<Request> requests = new ArrayList<>();
        for (ObjectNode variant : variants) {
            for (String path : paths) {
                requests.add(new Request(path, "CREATE", variant, null, "", "x", version));
                requests.add(new Request(path, "UPDATE", variant, valid, "", "x", version));
            }
        }
        assertAnswered(kind, resource, requests);
    }

    /** Sends the requests a few at a time; each gets a proper answer (no 5xx, no leak, a message on denial). */
    void assertAnswered(String kind, String resource, List<Request> requests) throws Exception {
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        // A few at a time: bounded load, yet the suite stays quick.
        int inFlight = 8;
        for (int i = 0; i < requests.size(); i += inFlight) {
            List<Future<Void>> batch = new ArrayList<>();
            for (Request r : requests.subList(i, Math.min(i + inFlight, requests.size()))) {
                batch.add(send(kind, resource, r).map(response -> {
                    check(r, response).ifPresent(problems::add);
                    return null;
                }));
            }
            Future.join(batch).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (Future<Void> f : batch) {
                if (f.failed()) {
                    problems.add("no answer: " + f.cause());
                }
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " of " + requests.size() + " requests went wrong, e.g. "
                + problems.subList(0, Math.min(10, problems.size())));
    }

    record Request(String path, String operation, ObjectNode object, ObjectNode old, String subResource,
                   String name, String version) {
        Request(String path, String operation, ObjectNode object, ObjectNode old) {
            this(path, operation, object, old, "", "x");
        }

        Request(String path, String operation, ObjectNode object, ObjectNode old, String subResource, String name) {
            this(path, operation, object, old, subResource, name, "v1");
        }

        String describe() {
            String body = String.valueOf(object != null ? object : old);
            return operation + " " + path + " " + (body.length() > 400 ? body.substring(0, 400) + "..." : body);
        }
    }

    Future<HttpResponse<Buffer>> send(String kind, String resource, Request r) {
        ObjectNode review = Json.MAPPER.createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode q = review.putObject("request");
        q.put("uid", "u").put("operation", r.operation()).put("namespace", "default").put("name", r.name());
        if (!r.subResource().isEmpty()) {
            q.put("subResource", r.subResource());
        }
        q.putObject("kind").put("group", "apps.kruise.io").put("version", r.version()).put("kind", kind);
        q.putObject("resource").put("group", "apps.kruise.io").put("version", r.version()).put("resource", resource);
        if (r.object() != null) {
            q.set("object", r.object());
        }
        if (r.old() != null) {
            q.set("oldObject", r.old());
        }
        return client.post(server.actualPort(), "localhost", r.path()).timeout(30_000)
                .sendBuffer(Buffer.buffer(review.toString()));
    }

    static Optional<String> check(Request r, HttpResponse<Buffer> response) {
        if (response.statusCode() >= 500) {
            return Optional.of("HTTP " + response.statusCode() + " for " + r.describe());
        }
        if (response.statusCode() != 200) {
            // A body the server could not read as an AdmissionReview (a 400) is fine, but must say why.
            String text = response.bodyAsString();
            return LEAKS.stream().anyMatch(text::contains) ? Optional.of("leaky 400 " + text + " for " + r.describe())
                    : Optional.empty();
        }
        JsonNode answer;
        try {
            answer = Json.MAPPER.readTree(response.bodyAsString()).path("response");
        } catch (Exception e) {
            return Optional.of("unreadable answer for " + r.describe());
        }
        if (answer.path("allowed").asBoolean(false)) {
            return Optional.empty();
        }
        int code = answer.path("status").path("code").asInt(0);
        String message = answer.path("status").path("message").asText("");
        if (code >= 500 || code == 0) {
            return Optional.of("status " + code + " (" + message + ") for " + r.describe());
        }
        if (message.isBlank() || LEAKS.stream().anyMatch(message::contains)) {
            return Optional.of("message '" + message + "' for " + r.describe());
        }
        return Optional.empty();
    }

    /** A copy of {@code valid} with {@code value} at {@code pointer}, creating missing parent objects. */
    static ObjectNode with(ObjectNode valid, String pointer, JsonNode value) {
        ObjectNode copy = valid.deepCopy();
        JsonPointer p = JsonPointer.compile(pointer);
        JsonNode parent = copy;
        for (JsonPointer head = p; head.tail() != null && !head.tail().matches(); head = head.tail()) {
            JsonNode next = parent.isArray() ? parent.get(head.getMatchingIndex()) : parent.get(head.getMatchingProperty());
            if (next == null || !next.isContainerNode()) {
                next = ((ObjectNode) parent).putObject(head.getMatchingProperty());
            }
            parent = next;
        }
        JsonPointer last = p.last();
        if (parent.isArray()) {
            ((ArrayNode) parent).set(last.getMatchingIndex(), value.deepCopy());
        } else {
            ((ObjectNode) parent).set(last.getMatchingProperty(), value.deepCopy());
        }
        return copy;
    }
}
