package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.sidecarset.SidecarSetNamespaceIndex;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import dev.kruisevertx.webhook.sidecarset.SidecarSetLookup;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PemTrustOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Load command for {@code /mutate-pod} with many SidecarSets in the cache: the SidecarSets sit in fabric8's informer
 * store ({@link CacheImpl}, what the shared watch cache uses) with the SidecarSet namespace index, and the webhook
 * is the one the manager registers ({@link KruiseWebhooks#registerAll}). All but {@code clusterScoped} SidecarSets
 * name one of 5,000 namespaces (as converted v1alpha1 {@code spec.namespace} do), so a pod meets 10 of them plus the
 * cluster-scoped ones; every 7th selects the pod's labels. Prints the latency percentiles of pod CREATE reviews
 * (send to full response, HTTPS on loopback, the pod injected with the matching sidecars).
 * Arguments: {@code [sidecarSets=50000] [clusterScoped=10] [ratePerSecond=200] [seconds=20] [warmupSeconds=20]}.
 */
public final class SidecarSetAdmissionLoad {
    private SidecarSetAdmissionLoad() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int clusterScoped = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        int warmup = args.length > 4 ? Integer.parseInt(args[4]) : 20;
        CacheImpl<SidecarSet> store = new CacheImpl<>(SidecarSetNamespaceIndex.NAME, SidecarSetNamespaceIndex.FUNCTION,
                CacheImpl::metaNamespaceKeyFunc);
        for (int i = 0; i < count; i++) {
            store.put(sidecarSet(i, i < clusterScoped));
        }
        SidecarSetLookup lookup = new SidecarSetLookup() {
            @Override
            public List<SidecarSet> sidecarSets() {
                return store.list();
            }

            @Override
            public List<SidecarSet> candidates(String namespace) {
                List<SidecarSet> out = new ArrayList<>();
                for (String key : SidecarSetNamespaceIndex.lookups(namespace)) {
                    out.addAll(store.byIndex(SidecarSetNamespaceIndex.NAME, key));
                }
                return out;
            }

            @Override
            public Optional<Map<String, String>> namespaceLabels(String namespace) {
                return Optional.of(Map.of("kubernetes.io/metadata.name", namespace));
            }

            @Override
            public boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision) {
                return false;
            }
        };
        Vertx vertx = Vertx.vertx();
        try {
            CertBundle certs = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
                    Duration.ofDays(1), Duration.ofDays(1));
            AdmissionRegistry registry = new AdmissionRegistry();
            KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.defaults()).withSidecarSets(lookup));
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
            long[] latencies = PodMutationLoad.run(vertx, client, server.actualPort(), rate, seconds, body);
            client.close();
            System.out.println(count + " SidecarSets (" + clusterScoped + " cluster-scoped) in the cache, "
                    + injectedCount(lookup) + " injected into each pod");
            System.out.println(PodMutationLoad.report(latencies, rate, seconds));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private static long injectedCount(SidecarSetLookup lookup) {
        return lookup.candidates("ns-7").stream().filter(s -> "web".equals(s.getSpec().getSelector().getMatchLabels()
                .get("app"))).count();
    }

    static SidecarSet sidecarSet(int i, boolean cluster) {
        String ns = "ns-" + (i % 5000);
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'s" + i + "',"
                + "'annotations':{'kruise.io/sidecarset-hash':'h','kruise.io/sidecarset-hash-without-image':'w'}},"
                + "'spec':{'selector':{'matchLabels':{'app':'" + (i % 7 == 0 ? "web" : "other" + i) + "'}},"
                + (cluster ? "" : "'namespaceSelector':{'matchLabels':{'kubernetes.io/metadata.name':'" + ns + "'}},")
                + "'containers':[{'name':'c" + i + "','image':'log:1','podInjectPolicy':'AfterAppContainer',"
                + "'shareVolumePolicy':{'type':'enabled'},'transferEnv':[{'sourceContainerName':'app','envName':'TZ'}],"
                + "'volumeMounts':[{'name':'v" + i + "','mountPath':'/v" + i + "'}]}],"
                + "'volumes':[{'name':'v" + i + "','emptyDir':{}}]}}").replace('\'', '"');
        return ApiJson.serialization().unmarshal(json, SidecarSet.class);
    }

    private static final String REVIEW = ("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','request':{"
            + "'uid':'bench','kind':{'group':'','version':'v1','kind':'Pod'},"
            + "'resource':{'group':'','version':'v1','resource':'pods'},'namespace':'ns-7','operation':'CREATE',"
            + "'object':{'apiVersion':'v1','kind':'Pod','metadata':{'generateName':'web-','namespace':'ns-7',"
            + "'labels':{'app':'web'}},'spec':{'containers':[{'name':'app','image':'nginx:1.27','env':[{'name':'TZ',"
            + "'value':'UTC'}],'volumeMounts':[{'name':'data','mountPath':'/data'}],'resources':{'requests':"
            + "{'cpu':'100m','memory':'128Mi'}}}],'volumes':[{'name':'data','emptyDir':{}}]}}}}").replace('\'', '"');
}
