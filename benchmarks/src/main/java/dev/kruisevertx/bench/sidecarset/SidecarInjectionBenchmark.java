package dev.kruisevertx.bench.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.bench.DecisionBenchmark;
import dev.kruisevertx.sidecarset.SidecarInjection;
import dev.kruisevertx.sidecarset.SidecarSetNamespaceIndex;
import io.fabric8.kubernetes.api.model.Pod;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SidecarSet part of one pod admission with many SidecarSets in the cache: look the pod's namespace and the
 * cluster scope up in the namespace index, check the candidates' selectors and inject the matching ones. All but
 * {@code clusterScoped} SidecarSets name one namespace each (as converted v1alpha1 {@code spec.namespace} do), so the
 * index leaves a handful of candidates; the cluster-scoped ones are always candidates. This is the pure step the
 * {@code /mutate-pod} SidecarSet step runs ({@code SidecarSetInjectionStep}); JSON decoding, the HTTPS round trip and the
 * patch are measured by {@code dev.kruisevertx.webhook.bench.SidecarSetAdmissionLoad}.
 */
public class SidecarInjectionBenchmark extends DecisionBenchmark {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Param({"50000"})
    int sidecarSets;

    @Param({"10"})
    int clusterScoped;

    private Map<String, List<SidecarSet>> index;
    private Pod pod;
    private Map<String, String> namespaceLabels;

    @Setup
    public void setUp() {
        index = new HashMap<>();
        for (int i = 0; i < sidecarSets; i++) {
            boolean cluster = i < clusterScoped;
            String ns = "ns-" + (i % 5000);
            String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'s" + i + "',"
                    + "'annotations':{'kruise.io/sidecarset-hash':'h','kruise.io/sidecarset-hash-without-image':'w'}},"
                    + "'spec':{'selector':{'matchLabels':{'app':'" + (i % 7 == 0 ? "web" : "other" + i) + "'}},"
                    + (cluster ? "" : "'namespaceSelector':{'matchLabels':{'kubernetes.io/metadata.name':'" + ns + "'}},")
                    + "'containers':[{'name':'c" + i + "','image':'log:1','podInjectPolicy':'AfterAppContainer',"
                    + "'shareVolumePolicy':{'type':'enabled'},'transferEnv':[{'sourceContainerName':'app','envName':'TZ'}],"
                    + "'volumeMounts':[{'name':'v" + i + "','mountPath':'/v" + i + "'}]}],"
                    + "'volumes':[{'name':'v" + i + "','emptyDir':{}}]}}").replace('\'', '"');
            SidecarSet set = ApiJson.serialization().unmarshal(json, SidecarSet.class);
            for (String key : SidecarSetNamespaceIndex.keys(set)) {
                index.computeIfAbsent(key, k -> new ArrayList<>()).add(set);
            }
        }
        pod = ApiJson.serialization().unmarshal(("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','namespace':'ns-7',"
                + "'labels':{'app':'web'}},'spec':{'containers':[{'name':'app','image':'nginx','env':[{'name':'TZ',"
                + "'value':'UTC'}],'volumeMounts':[{'name':'data','mountPath':'/data'}]}],"
                + "'volumes':[{'name':'data','emptyDir':{}}]}}").replace('\'', '"'), Pod.class);
        namespaceLabels = Map.of("kubernetes.io/metadata.name", "ns-7");
    }

    @Benchmark
    public SidecarInjection.Plan admitPod() {
        List<SidecarSet> candidates = new ArrayList<>();
        for (String key : SidecarSetNamespaceIndex.lookups(pod.getMetadata().getNamespace())) {
            candidates.addAll(index.getOrDefault(key, List.of()));
        }
        return SidecarInjection.forCreate(pod, candidates, namespaceLabels, false, NOW);
    }
}
