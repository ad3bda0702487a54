package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadLookup;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodAdmission;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadPodRecorder;
import dev.kruisevertx.webhook.workloadspread.WorkloadSpreadStore;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import dev.kruisevertx.workloadspread.PodVersions;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PemTrustOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Load command for {@code /mutate-pod} with the WorkloadSpread step active: {@code spreads} WorkloadSpreads in the
 * pod's namespace (one targets the pods' CloneSet, the others other CloneSets), three subsets of which the first two
 * have limits, and every pod CREATE choosing a subset and recording itself in the status through the real recorder
 * (its lock, retries and status write) over an in-memory store. The store stands for the API server without its
 * latency: the figures are the webhook's own cost, with every pod of one workload serialized on one WorkloadSpread
 * (the worst case; OpenKruise serializes the same way). It keeps the newest 100 creation records per subset, as the
 * controller drops the records of pods it has seen. Prints the latency percentiles of pod CREATE reviews (send to
 * full response, HTTPS on loopback).
 * Arguments: {@code [spreads=50] [ratePerSecond=1000] [seconds=20] [warmupSeconds=20]}.
 */
public final class WorkloadSpreadAdmissionLoad {
    static final int KEPT_RECORDS = 100;

    private WorkloadSpreadAdmissionLoad() {
    }

    public static void main(String[] args) throws Exception {
        int spreads = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        InMemorySpreads store = new InMemorySpreads();
        for (int i = 0; i < spreads; i++) {
            store.put(spread(i));
        }
        Vertx vertx = Vertx.vertx();
        try {
            CertBundle certs = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
                    Duration.ofDays(1), Duration.ofDays(1));
            WorkloadSpreadLookup lookup = WorkloadSpreadLookup.of(store::inNamespace);
            WorkloadSpreadPodRecorder recorder = new WorkloadSpreadPodRecorder(store, PodVersions.defaults(),
                    () -> CustomWorkloadWhiteList.EMPTY);
            AdmissionRegistry registry = new AdmissionRegistry();
            KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.defaults())
                    .withWorkloadSpreads(lookup)
                    .withWorkloadSpreadPods(new WorkloadSpreadPodAdmission(vertx, lookup, recorder)));
            WebhookServerVerticle server = new WebhookServerVerticle("127.0.0.1", 0, 3L << 20, registry,
                    new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), certs);
            vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient client = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(false)
                    .setKeepAlive(true).setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))),
                    new PoolOptions().setHttp1MaxSize(64));
            Buffer body = Buffer.buffer(REVIEW);
            if (warmup > 0) {
                PodMutationLoad.run(vertx, client, server.actualPort(), Math.max(1, rate / 2), warmup, body);
            }
            long writesBefore = store.writes;
            long[] latencies = PodMutationLoad.run(vertx, client, server.actualPort(), rate, seconds, body);
            client.close();
            // The response's patch is base64: the status writes show that the pods were placed and recorded.
            if (store.writes == writesBefore) {
                throw new IllegalStateException("no pod was recorded in a WorkloadSpread: the step did not run");
            }
            System.out.println(spreads + " WorkloadSpreads in the pod's namespace; " + (store.writes - writesBefore)
                    + " status writes, " + store.conflicts + " conflicts in all");
            System.out.println(PodMutationLoad.report("pod mutation with WorkloadSpread", latencies, rate, seconds));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    static WorkloadSpread spread(int i) {
        String json = ("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'WorkloadSpread','metadata':{'name':'ws" + i
                + "','namespace':'ns-7','uid':'ws-uid-" + i + "','resourceVersion':'1'},'spec':{'targetRef':"
                + "{'apiVersion':'apps.kruise.io/v1alpha1','kind':'CloneSet','name':'" + (i == 0 ? "web" : "other" + i)
                + "'},'subsets':["
                + "{'name':'zone-a','maxReplicas':1000000000,'requiredNodeSelectorTerm':{'matchExpressions':"
                + "[{'key':'topology.kubernetes.io/zone','operator':'In','values':['zone-a']}]},"
                + "'patch':{'metadata':{'labels':{'zone':'a'}}}},"
                + "{'name':'zone-b','maxReplicas':1000000000,'requiredNodeSelectorTerm':{'matchExpressions':"
                + "[{'key':'topology.kubernetes.io/zone','operator':'In','values':['zone-b']}]}},"
                + "{'name':'rest'}]}}").replace('\'', '"');
        return ApiJson.serialization().unmarshal(json, WorkloadSpread.class);
    }

    /** WorkloadSpreads in memory with the API server's resourceVersion rule; the targets have 10 replicas. */
    static final class InMemorySpreads implements WorkloadSpreadStore {
        private final Map<String, WorkloadSpread> stored = new ConcurrentHashMap<>();
        volatile long writes;
        volatile long conflicts;

        void put(WorkloadSpread ws) {
            stored.put(ws.getMetadata().getNamespace() + "/" + ws.getMetadata().getName(), ws);
        }

        List<WorkloadSpread> inNamespace(String namespace) {
            List<WorkloadSpread> out = new ArrayList<>();
            for (WorkloadSpread ws : stored.values()) {
                if (namespace.equals(ws.getMetadata().getNamespace())) {
                    out.add(ws);
                }
            }
            return out;
        }

        @Override
        public Optional<WorkloadSpread> cached(String namespace, String name) {
            return Optional.ofNullable(stored.get(namespace + "/" + name));
        }

        @Override
        public Optional<WorkloadSpread> latest(String namespace, String name) {
            return cached(namespace, name).map(ws -> ApiJson.serialization().clone(ws));
        }

        @Override
        public synchronized WorkloadSpread updateStatus(WorkloadSpread ws) {
            String key = ws.getMetadata().getNamespace() + "/" + ws.getMetadata().getName();
            WorkloadSpread current = stored.get(key);
            if (current == null) {
                throw new KubernetesClientException("not found", 404, null);
            }
            if (!current.getMetadata().getResourceVersion().equals(ws.getMetadata().getResourceVersion())) {
                conflicts++;
                throw new KubernetesClientException("conflict", 409, null);
            }
            WorkloadSpread next = ApiJson.serialization().clone(ws);
            next.getMetadata().setResourceVersion(String.valueOf(Long.parseLong(ws.getMetadata().getResourceVersion())
                    + 1));
            if (next.getStatus() != null && next.getStatus().getVersionedSubsetStatuses() != null) {
                next.getStatus().getVersionedSubsetStatuses().values().forEach(l -> l.forEach(InMemorySpreads::trim));
            }
            stored.put(key, next);
            writes++;
            return next;
        }

        /** The controller drops the records of pods it has seen: keep the newest ones. */
        private static void trim(WorkloadSpreadSubsetStatus s) {
            Map<String, String> creating = s.creatingPods();
            if (creating.size() > KEPT_RECORDS) {
                Map<String, String> kept = new LinkedHashMap<>();
                creating.entrySet().stream().skip(creating.size() - KEPT_RECORDS)
                        .forEach(e -> kept.put(e.getKey(), e.getValue()));
                s.setCreatingPods(kept);
            }
        }

        @Override
        public Optional<OwnerReference> controllerOf(String namespace, OwnerReference owner) {
            return Optional.empty();
        }

        @Override
        public int workloadReplicas(WorkloadSpread ws) {
            return 10;
        }
    }

    private static final String REVIEW = ("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','request':{"
            + "'uid':'bench','kind':{'group':'','version':'v1','kind':'Pod'},"
            + "'resource':{'group':'','version':'v1','resource':'pods'},'namespace':'ns-7','operation':'CREATE',"
            + "'object':{'apiVersion':'v1','kind':'Pod','metadata':{'generateName':'web-','namespace':'ns-7',"
            + "'labels':{'app':'web'},'ownerReferences':[{'apiVersion':'apps.kruise.io/v1alpha1','kind':'CloneSet',"
            + "'name':'web','uid':'web-uid','controller':true}]},'spec':{'containers':[{'name':'app',"
            + "'image':'nginx:1.27','resources':{'requests':{'cpu':'100m','memory':'128Mi'}}}]}}}}").replace('\'', '"');
}
