package dev.kruisevertx.webhook.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.crr.CrrWebhooks;
import dev.kruisevertx.webhook.pod.PodMutatingPipeline;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.sidecarset.SidecarSetWebhooks;
import dev.kruisevertx.webhook.statefulset.StatefulSetWebhooks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One webhook path with a valid object of the kind it judges, the seed of every hostile request sent to it.
 *
 * @param name       short name in reports
 * @param path       URL path
 * @param conversion whether the path takes ConversionReviews ({@code /convert}) rather than AdmissionReviews
 * @param group      group of the object's kind (AdmissionReview request.kind)
 * @param version    version of the object's kind
 * @param kind       kind of the object
 * @param resource   resource (plural)
 * @param sample     a valid object the webhook accepts
 */
public record HostileTarget(String name, String path, boolean conversion, String group, String version, String kind,
                            String resource, ObjectNode sample) {

    static final String POD = """
            {"apiVersion":"v1","kind":"Pod",
             "metadata":{"generateName":"sample-","namespace":"default","labels":{"app":"sample",
               "apps.kruise.io/cloneset-instance-id":"abcde"},
               "ownerReferences":[{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"sample",
                 "uid":"11111111-2222-3333-4444-555555555555","controller":true,"blockOwnerDeletion":true}]},
             "spec":{"containers":[{"name":"nginx","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],
               "resources":{"requests":{"cpu":"100m","memory":"128Mi"}},"readinessProbe":{"httpGet":{"path":"/","port":80}}}],
               "restartPolicy":"Always"}}
            """;
    static final String PROTECTED_NAMESPACE = """
            {"apiVersion":"v1","kind":"Namespace",
             "metadata":{"name":"team-a","labels":{"policy.kruise.io/delete-protection":"Cascading"}},
             "status":{"phase":"Active"}}
            """;
    static final String PROTECTED_DEPLOYMENT = """
            {"apiVersion":"apps/v1","kind":"Deployment",
             "metadata":{"name":"api","namespace":"default","labels":{"policy.kruise.io/delete-protection":"Cascading"}},
             "spec":{"replicas":0,"selector":{"matchLabels":{"app":"api"}},
               "template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}
            """;
    static final String CLONESET = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet",
             "metadata":{"name":"sample","namespace":"default","uid":"cs-uid","labels":{"app":"sample"},
               "annotations":{"apps.kruise.io/image-predownload-parallelism":"5"}},
             "spec":{"replicas":5,"revisionHistoryLimit":10,"minReadySeconds":3,
               "selector":{"matchLabels":{"app":"sample"}},
               "template":{"metadata":{"labels":{"app":"sample"}},
                 "spec":{"containers":[{"name":"nginx","image":"nginx:alpine","ports":[{"containerPort":80}],
                   "resources":{"limits":{"cpu":"500m"}},"volumeMounts":[{"name":"data","mountPath":"/data"}]}]}},
               "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                  "resources":{"requests":{"storage":"1Gi"}}}}],
               "scaleStrategy":{"maxUnavailable":"50%"},
               "updateStrategy":{"type":"InPlaceIfPossible","partition":"20%","maxUnavailable":"20%","maxSurge":1}}}
            """;
    static final String STATEFULSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet",
             "metadata":{"name":"web","namespace":"default","uid":"sts-uid"},
             "spec":{"replicas":4,"podManagementPolicy":"Parallel","serviceName":"web","revisionHistoryLimit":10,
               "reserveOrdinals":[1,"5-6"],"ordinals":{"start":2},
               "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete","whenScaled":"Retain"},
               "selector":{"matchLabels":{"app":"web"}},
               "template":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}]}],
                   "readinessGates":[{"conditionType":"InPlaceUpdateReady"}]}},
               "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                  "resources":{"requests":{"storage":"1Gi"}}}}],
               "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":1,"maxUnavailable":"25%",
                 "minReadySeconds":5,"podUpdatePolicy":"InPlaceIfPossible"}}}}
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
    static final String SIDECARSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet",
             "metadata":{"name":"log-shipper"},
             "spec":{"selector":{"matchLabels":{"app":"sample"}},
               "namespaceSelector":{"matchLabels":{"team":"a"}},"customVersion":"v1","revisionHistoryLimit":5,
               "containers":[{"name":"shipper","image":"busybox:1.36","podInjectPolicy":"AfterAppContainer",
                 "shareVolumePolicy":{"type":"enabled"},"upgradeStrategy":{"upgradeType":"ColdUpgrade"},
                 "transferEnv":[{"sourceContainerName":"nginx","envName":"TZ"}],
                 "volumeMounts":[{"name":"logs","mountPath":"/var/log/app"}]}],
               "initContainers":[{"name":"init-logs","image":"busybox:1.36","command":["sh","-c","true"]}],
               "volumes":[{"name":"logs","emptyDir":{}}],"imagePullSecrets":[{"name":"regcred"}],
               "updateStrategy":{"type":"RollingUpdate","partition":"20%","maxUnavailable":2},
               "patchPodMetadata":[{"annotations":{"example.com/logged":"true"},"patchPolicy":"Overwrite"}]}}
            """;
    static final String SIDECARSET_ALPHA = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
             "metadata":{"name":"log-shipper","labels":{"apps.kruise.io/sidecarset-custom-version":"v1"}},
             "spec":{"selector":{"matchLabels":{"app":"sample"}},"namespace":"default",
               "containers":[{"name":"shipper","image":"busybox:1.36","podInjectPolicy":"BeforeAppContainer",
                 "shareVolumePolicy":{"type":"disabled"},"upgradeStrategy":{"upgradeType":"ColdUpgrade"}}],
               "updateStrategy":{"type":"NotUpdate"}}}
            """;
    static final String DAEMONSET = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"DaemonSet",
             "metadata":{"name":"agent","namespace":"default"},
             "spec":{"selector":{"matchLabels":{"app":"agent"}},"burstReplicas":250,"minReadySeconds":5,
               "template":{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},
               "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"rollingUpdateType":"InPlaceIfPossible",
                 "maxUnavailable":"10%","partition":1,"paused":false}}}}
            """;
    static final String DAEMONSET_ALPHA = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"DaemonSet",
             "metadata":{"name":"agent","namespace":"default",
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
             "spec":{"parallelism":"50%","template":{"metadata":{"labels":{"app":"check"}},
                 "spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}},
               "completionPolicy":{"type":"Always","activeDeadlineSeconds":600,"ttlSecondsAfterFinished":60},
               "failurePolicy":{"type":"FailFast","restartLimit":2}}}
            """;
    static final String ADVANCEDCRONJOB = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"AdvancedCronJob",
             "metadata":{"name":"nightly","namespace":"default","resourceVersion":"7"},
             "spec":{"schedule":"*/5 * * * *","timeZone":"Europe/Berlin","startingDeadlineSeconds":30,
               "concurrencyPolicy":"Forbid","successfulJobsHistoryLimit":3,"failedJobsHistoryLimit":1,
               "template":{"jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure",
                 "containers":[{"name":"c","image":"busybox"}]}}}}}}}
            """;
    public static final String RESOURCEDISTRIBUTION = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"ResourceDistribution",
             "metadata":{"name":"shared-config"},
             "spec":{"resource":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo",
                 "labels":{"app":"game"}},"data":{"player_initial_lives":"3","ui":"color.good=purple"}},
               "targets":{"allNamespaces":false,"includedNamespaces":{"list":[{"name":"ns-1"},{"name":"ns-2"}]},
                 "excludedNamespaces":{"list":[{"name":"ns-3"}]},
                 "namespaceLabelSelector":{"matchLabels":{"environment":"develop"},
                   "matchExpressions":[{"key":"group","operator":"In","values":["one"]}]}}}}
            """;
    public static final String PERSISTENTPODSTATE = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"PersistentPodState",
             "metadata":{"name":"web","namespace":"default"},
             "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","name":"web"},
               "requiredPersistentTopology":{"nodeTopologyKeys":["topology.kubernetes.io/zone"]},
               "preferredPersistentTopology":[{"weight":100,"preference":{"nodeTopologyKeys":["kubernetes.io/hostname"]}}],
               "persistentPodAnnotations":[{"key":"cni.projectcalico.org/podIP"}],
               "persistentPodStateRetentionPolicy":"WhenScaled"}}
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

    static final String PODPROBEMARKER = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"PodProbeMarker",
             "metadata":{"name":"healthy","namespace":"default"},
             "spec":{"selector":{"matchLabels":{"app":"web"}},
               "probes":[{"name":"healthy","containerName":"main",
                 "probe":{"exec":{"command":["/bin/sh","-c","/healthy.sh"]},"initialDelaySeconds":1,
                   "timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},
                 "podConditionType":"game.kruise.io/healthy",
                 "markerPolicy":[{"state":"Succeeded","labels":{"healthy":"true"},
                   "annotations":{"controller.kubernetes.io/pod-deletion-cost":"10"}},
                   {"state":"Failed","labels":{"healthy":"false"}}]}]}}
            """;

    /**
     * A Running and Ready pod naming budget {@code web-pub} ({@link #PROTECTING_BUDGET}), which has it recorded
     * already: the valid DELETE, eviction and UPDATE are allowed however many hostile variants the budget admitted
     * before (each records its pod; past 2,000 records or the allowance they are refused with a 403).
     */
    public static final String PROTECTED_POD = """
            {"apiVersion":"v1","kind":"Pod",
             "metadata":{"name":"web-1","namespace":"default","uid":"protected-uid","labels":{"app":"web"},
               "annotations":{"kruise.io/related-pub":"web-pub","pub.kruise.io/related-pub":"web-pub"},
               "ownerReferences":[{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web",
                 "uid":"cs-uid","controller":true}]},
             "spec":{"nodeName":"node-a","containers":[{"name":"app","image":"nginx:1.27",
               "resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]},
             "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
               "containerStatuses":[{"name":"app","ready":true,"restartCount":0,"image":"nginx:1.27",
                 "imageID":"nginx@sha256:abc","containerID":"containerd://aaa"}]}}
            """;
    /** The budget {@link #PROTECTED_POD} names, with a large allowance and that pod recorded. */
    public static final String PROTECTING_BUDGET = """
            {"apiVersion":"policy.kruise.io/v1alpha1","kind":"PodUnavailableBudget",
             "metadata":{"name":"web-pub","namespace":"default","uid":"pub-uid","resourceVersion":"1",
               "annotations":{"kruise.io/pub-protect-operations":"DELETE,EVICT,UPDATE,RESIZE"}},
             "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"},
               "maxUnavailable":"100%"},
             "status":{"unavailableAllowed":1000000,"desiredAvailable":1,"currentAvailable":1000001,
               "totalReplicas":1000001,"disruptedPods":{"web-1":"2026-01-01T00:00:00Z"}}}
            """;

    public static final String PODUNAVAILABLEBUDGET = """
            {"apiVersion":"policy.kruise.io/v1alpha1","kind":"PodUnavailableBudget",
             "metadata":{"name":"web-pub","namespace":"default",
               "annotations":{"kruise.io/pub-protect-operations":"DELETE,EVICT",
                 "pub.kruise.io/protect-total-replicas":"5"}},
             "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"},
               "maxUnavailable":"25%"}}
            """;

    public static final String EPHEMERALJOB = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"EphemeralJob",
             "metadata":{"name":"debug","namespace":"default"},
             "spec":{"selector":{"matchLabels":{"app":"web"}},"replicas":2,"parallelism":1,
               "activeDeadlineSeconds":600,"ttlSecondsAfterFinished":60,
               "template":{"ephemeralContainers":[{"name":"debugger","image":"busybox:1.36",
                 "imagePullPolicy":"IfNotPresent","terminationMessagePolicy":"File",
                 "env":[{"name":"MODE","value":"trace"}],"targetContainerName":"app"}]}}}
            """;

    public static final String IMAGEPULLJOB = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"ImagePullJob",
             "metadata":{"name":"pull-nginx","namespace":"default"},
             "spec":{"image":"nginx:1.27","pullSecrets":["regcred"],"selector":{"names":["node-a","node-b"]},
               "parallelism":2,"pullPolicy":{"timeoutSeconds":300,"backoffLimit":2},
               "completionPolicy":{"type":"Always","activeDeadlineSeconds":1200,"ttlSecondsAfterFinished":300},
               "sandboxConfig":{"labels":{"team":"a"},"annotations":{"example.com/owner":"a"}},
               "imagePullPolicy":"IfNotPresent"}}
            """;
    public static final String IMAGEPULLJOB_ALPHA = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"ImagePullJob",
             "metadata":{"name":"pull-busybox","namespace":"default","finalizers":["apps.kruise.io/deletion-protection"]},
             "spec":{"image":"registry.example.com:5000/tools/busybox@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
               "podSelector":{"matchLabels":{"app":"web"},
                 "matchExpressions":[{"key":"tier","operator":"In","values":["front"]}]},
               "parallelism":"3","pullPolicy":{"timeoutSeconds":60,"backoffLimit":1},
               "completionPolicy":{"type":"Never"},"imagePullPolicy":"Always"}}
            """;
    public static final String IMAGELISTPULLJOB = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"ImageListPullJob",
             "metadata":{"name":"pull-list","namespace":"default"},
             "spec":{"images":["nginx:1.27","busybox:1.36"],"pullSecrets":["regcred"],
               "selector":{"matchLabels":{"pool":"a"},
                 "matchExpressions":[{"key":"zone","operator":"NotIn","values":["b"]}]},
               "parallelism":4,"pullPolicy":{"timeoutSeconds":120,"backoffLimit":3},
               "completionPolicy":{"type":"Always","activeDeadlineSeconds":600,"ttlSecondsAfterFinished":60}}}
            """;
    public static final String NODEIMAGE = """
            {"apiVersion":"apps.kruise.io/v1beta1","kind":"NodeImage",
             "metadata":{"name":"node-a","labels":{"kubernetes.io/hostname":"node-a"}},
             "spec":{"images":{"nginx":{"pullSecrets":[{"namespace":"default","name":"regcred"}],
                 "sandboxConfig":{"labels":{"team":"a"}},
                 "tags":[{"tag":"1.27","createdAt":"2026-01-01T00:00:00Z","version":1,"imagePullPolicy":"IfNotPresent",
                   "pullPolicy":{"timeoutSeconds":600,"backoffLimit":3,"ttlSecondsAfterFinished":300,
                     "activeDeadlineSeconds":1200},
                   "ownerReferences":[{"apiVersion":"apps.kruise.io/v1beta1","kind":"ImagePullJob",
                     "namespace":"default","name":"pull-nginx","uid":"ipj-uid"}]}]}}}}
            """;

    /**
     * Every path the webhook serves as {@link dev.kruisevertx.webhook.KruiseWebhooks#registerAll} registers it (the
     * chart's webhook configurations point at these), the StatefulSet paths once per served version, and
     * {@code /convert}. With {@code legacy}, also the {@code -v1alpha1-} spellings OpenKruise's chart still uses.
     */
    public static List<HostileTarget> all(boolean legacy) {
        List<HostileTarget> targets = new ArrayList<>();
        targets.add(new HostileTarget("pod", PodMutatingPipeline.PATH, false, "", "v1", "Pod", "pods", parse(POD)));
        for (String path : List.of(CloneSetWebhooks.MUTATE_PATH, CloneSetWebhooks.VALIDATE_PATH)) {
            targets.add(kruise("cloneset", path, "v1alpha1", "CloneSet", "clonesets", CLONESET));
        }
        for (String path : List.of(StatefulSetWebhooks.MUTATE_PATH, StatefulSetWebhooks.VALIDATE_PATH)) {
            targets.add(kruise("statefulset-v1beta1", path, "v1beta1", "StatefulSet", "statefulsets", STATEFULSET));
            targets.add(kruise("statefulset-v1alpha1", path, "v1alpha1", "StatefulSet", "statefulsets", STATEFULSET_ALPHA));
        }
        for (String path : List.of(SidecarSetWebhooks.MUTATE_PATH, SidecarSetWebhooks.VALIDATE_PATH)) {
            targets.add(kruise("sidecarset-v1beta1", path, "v1beta1", "SidecarSet", "sidecarsets", SIDECARSET));
            targets.add(kruise("sidecarset-v1alpha1", path, "v1alpha1", "SidecarSet", "sidecarsets", SIDECARSET_ALPHA));
        }
        for (String path : List.of(dev.kruisevertx.webhook.daemonset.DaemonSetWebhooks.MUTATE_PATH,
                dev.kruisevertx.webhook.daemonset.DaemonSetWebhooks.VALIDATE_PATH)) {
            targets.add(kruise("daemonset-v1beta1", path, "v1beta1", "DaemonSet", "daemonsets", DAEMONSET));
            targets.add(kruise("daemonset-v1alpha1", path, "v1alpha1", "DaemonSet", "daemonsets", DAEMONSET_ALPHA));
        }
        for (String path : List.of(dev.kruisevertx.webhook.broadcastjob.BroadcastJobWebhooks.MUTATE_PATH,
                dev.kruisevertx.webhook.broadcastjob.BroadcastJobWebhooks.VALIDATE_PATH)) {
            targets.add(kruise("broadcastjob", path, "v1beta1", "BroadcastJob", "broadcastjobs", BROADCASTJOB));
        }
        for (String path : List.of(dev.kruisevertx.webhook.uniteddeployment.UnitedDeploymentWebhooks.MUTATE_PATH,
                dev.kruisevertx.webhook.uniteddeployment.UnitedDeploymentWebhooks.VALIDATE_PATH)) {
            targets.add(kruise("uniteddeployment", path, "v1alpha1", "UnitedDeployment", "uniteddeployments",
                    UNITEDDEPLOYMENT));
        }
        for (String path : List.of(dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobWebhooks.MUTATE_PATH,
                dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobWebhooks.VALIDATE_PATH)) {
            targets.add(kruise("advancedcronjob", path, "v1beta1", "AdvancedCronJob", "advancedcronjobs", ADVANCEDCRONJOB));
        }
        targets.add(kruise("workloadspread", dev.kruisevertx.webhook.workloadspread.WorkloadSpreadWebhooks.VALIDATE_PATH,
                "v1alpha1", "WorkloadSpread", "workloadspreads", WORKLOADSPREAD));
        targets.add(kruise("resourcedistribution",
                dev.kruisevertx.webhook.resourcedistribution.ResourceDistributionWebhooks.VALIDATE_PATH, "v1alpha1",
                "ResourceDistribution", "resourcedistributions", RESOURCEDISTRIBUTION));
        targets.add(new HostileTarget("podunavailablebudget-validate",
                dev.kruisevertx.webhook.podunavailablebudget.PodUnavailableBudgetWebhooks.VALIDATE_PATH, false,
                "policy.kruise.io", "v1alpha1", "PodUnavailableBudget", "podunavailablebudgets",
                parse(PODUNAVAILABLEBUDGET)));
        // The budget check of pod DELETE, eviction and UPDATE over in-memory budgets (InMemoryBudgets).
        targets.add(new HostileTarget("pod-validate", dev.kruisevertx.webhook.pod.PodValidatingHandler.PATH, false, "",
                "v1", "Pod", "pods", parse(PROTECTED_POD)));
        targets.add(kruise("crr", CrrWebhooks.MUTATE_PATH, "v1alpha1", "ContainerRecreateRequest",
                "containerrecreaterequests", CRR));
        targets.add(kruise("podprobemarker",
                dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerWebhooks.VALIDATE_PATH, "v1alpha1",
                "PodProbeMarker", "podprobemarkers", PODPROBEMARKER));
        // Deletion protection judges the DELETE's old object: a protected namespace (its pods counted) and Deployment.
        targets.add(new HostileTarget("delete-protection-namespace",
                dev.kruisevertx.webhook.deletionprotection.DeletionProtectionWebhooks.NAMESPACE_PATH, false, "", "v1",
                "Namespace", "namespaces", parse(PROTECTED_NAMESPACE)));
        targets.add(new HostileTarget("delete-protection-deployment",
                dev.kruisevertx.webhook.deletionprotection.DeletionProtectionWebhooks.DEPLOYMENT_PATH, false, "apps",
                "v1", "Deployment", "deployments", parse(PROTECTED_DEPLOYMENT)));
        targets.add(new HostileTarget("convert-statefulset-v1alpha1", WebhookServerVerticle.CONVERT, true,
                "apps.kruise.io", "v1beta1", "StatefulSet", "statefulsets", parse(STATEFULSET_ALPHA)));
        targets.add(new HostileTarget("convert-statefulset-v1beta1", WebhookServerVerticle.CONVERT, true,
                "apps.kruise.io", "v1alpha1", "StatefulSet", "statefulsets", parse(STATEFULSET)));
        targets.add(new HostileTarget("convert-sidecarset-v1alpha1", WebhookServerVerticle.CONVERT, true,
                "apps.kruise.io", "v1beta1", "SidecarSet", "sidecarsets", parse(SIDECARSET_ALPHA)));
        targets.add(new HostileTarget("convert-sidecarset-v1beta1", WebhookServerVerticle.CONVERT, true,
                "apps.kruise.io", "v1alpha1", "SidecarSet", "sidecarsets", parse(SIDECARSET)));
        targets.add(new HostileTarget("convert-daemonset-v1alpha1", WebhookServerVerticle.CONVERT, true,
                "apps.kruise.io", "v1beta1", "DaemonSet", "daemonsets", parse(DAEMONSET_ALPHA)));
        targets.add(new HostileTarget("convert-daemonset-v1beta1", WebhookServerVerticle.CONVERT, true,
                "apps.kruise.io", "v1alpha1", "DaemonSet", "daemonsets", parse(DAEMONSET)));
        targets.add(kruise("ephemeraljob", dev.kruisevertx.webhook.ephemeraljob.EphemeralJobWebhooks.VALIDATE_PATH,
                "v1alpha1", "EphemeralJob", "ephemeraljobs", EPHEMERALJOB));
        targets.add(kruise("persistentpodstate",
                dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateWebhooks.VALIDATE_PATH, "v1alpha1",
                "PersistentPodState", "persistentpodstates", PERSISTENTPODSTATE));
        for (String path : List.of(dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.IPJ_MUTATE_PATH,
                dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.IPJ_VALIDATE_PATH)) {
            targets.add(kruise("imagepulljob-v1beta1", path, "v1beta1", "ImagePullJob", "imagepulljobs", IMAGEPULLJOB));
            targets.add(kruise("imagepulljob-v1alpha1", path, "v1alpha1", "ImagePullJob", "imagepulljobs",
                    IMAGEPULLJOB_ALPHA));
        }
        for (String path : List.of(dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.ILPJ_MUTATE_PATH,
                dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.ILPJ_VALIDATE_PATH)) {
            targets.add(kruise("imagelistpulljob", path, "v1beta1", "ImageListPullJob", "imagelistpulljobs",
                    IMAGELISTPULLJOB));
        }
        for (String path : List.of(dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.NODE_IMAGE_MUTATE_PATH,
                dev.kruisevertx.webhook.imagepulljob.ImagePullJobWebhooks.NODE_IMAGE_VALIDATE_PATH)) {
            targets.add(kruise("nodeimage", path, "v1beta1", "NodeImage", "nodeimages", NODEIMAGE));
        }
        targets.add(new HostileTarget("podunavailablebudget-v1beta1-validate",
                dev.kruisevertx.webhook.podunavailablebudget.PodUnavailableBudgetWebhooks.VALIDATE_PATH, false,
                "policy.kruise.io", "v1beta1", "PodUnavailableBudget", "podunavailablebudgets",
                parse(PODUNAVAILABLEBUDGET_BETA)));
        targets.add(new HostileTarget("convert-podunavailablebudget-v1alpha1", WebhookServerVerticle.CONVERT, true,
                "policy.kruise.io", "v1beta1", "PodUnavailableBudget", "podunavailablebudgets",
                parse(PODUNAVAILABLEBUDGET)));
        targets.add(new HostileTarget("convert-podunavailablebudget-v1beta1", WebhookServerVerticle.CONVERT, true,
                "policy.kruise.io", "v1alpha1", "PodUnavailableBudget", "podunavailablebudgets",
                parse(PODUNAVAILABLEBUDGET_BETA)));
        if (legacy) {
            for (HostileTarget t : List.copyOf(targets)) {
                String old = dev.kruisevertx.webhook.admission.AdmissionRegistry.legacyPath(t.path());
                if (!t.conversion() && !old.equals(t.path()) && !t.name().startsWith("statefulset-v1alpha1")
                        && !t.name().startsWith("sidecarset-v1alpha1")
                        && !t.name().startsWith("daemonset-v1alpha1")) {
                    targets.add(new HostileTarget(t.name() + "-legacy", old, false, t.group(), t.version(), t.kind(),
                            t.resource(), t.sample()));
                }
            }
        }
        return targets;
    }

    private static HostileTarget kruise(String name, String path, String version, String kind, String resource,
                                        String sample) {
        String verb = path.startsWith("/mutate") ? "mutate" : "validate";
        return new HostileTarget(name + "-" + verb, path, false, "apps.kruise.io", version, kind, resource, parse(sample));
    }

    /** The budget of {@link #PROTECTED_POD}, ready for {@link InMemoryBudgets#put}. */
    public static dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget protectingBudget() {
        return Json.toModel(parse(PROTECTING_BUDGET), dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget.class);
    }

    /** {@link #PROTECTED_POD} as the pod cache would hold it (the eviction lookup). */
    public static io.fabric8.kubernetes.api.model.Pod protectedPod() {
        return Json.toModel(parse(PROTECTED_POD), io.fabric8.kubernetes.api.model.Pod.class);
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("bad built-in sample", e);
        }
    }

    /** The object's apiVersion ({@code group/version}, or the version alone for the core group). */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** A v1beta1 budget: master's typed fields instead of the v1alpha1 annotations (issue 27). */
    public static final String PODUNAVAILABLEBUDGET_BETA = """
            {"apiVersion":"policy.kruise.io/v1beta1","kind":"PodUnavailableBudget",
             "metadata":{"name":"web-pub","namespace":"default"},
             "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"web"},
               "maxUnavailable":"25%","protectOperations":["DELETE","EVICT"],"protectTotalReplicas":5,
               "ignoredPodSelector":{"matchLabels":{"maintenance":"true"}}}}
            """;
}
