package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The injection output for a pod and a set of SidecarSets (OpenKruise v1.9's pod-creation injection) as a table. */
class SidecarInjectionTest {
    static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
    static final String POD = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'web-0','namespace':'ns',"
            + "'labels':{'app':'web','version':'v1'},'annotations':{'owner':'me'}},"
            + "'spec':{'containers':[{'name':'app','image':'nginx','env':[{'name':'TZ','value':'UTC'},"
            + "{'name':'LANG','value':'C'}],'volumeMounts':[{'name':'data','mountPath':'/data'}]},"
            + "{'name':'app2','image':'redis','env':[{'name':'TZ','value':'Asia/Shanghai'}]}],"
            + "'initContainers':[{'name':'prep','image':'busybox'}],"
            + "'volumes':[{'name':'data','emptyDir':{}}]}}";

    static Pod pod(String json) {
        return ApiJson.serialization().unmarshal(json.replace('\'', '"'), Pod.class);
    }

    /** A SidecarSet selecting app=web with the given extra spec fields and containers. */
    static SidecarSet set(String name, String spec) {
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'" + name + "',"
                + "'annotations':{'kruise.io/sidecarset-hash':'h-" + name + "','kruise.io/sidecarset-hash-without-image':'w-"
                + name + "'}},'spec':{'selector':{'matchLabels':{'app':'web'}}," + spec + "},"
                + "'status':{'latestRevision':'" + name + "-rev'}}").replace('\'', '"');
        return ApiJson.serialization().unmarshal(json, SidecarSet.class);
    }

    static SidecarSet sel(SidecarSet s, String selectorJson) {
        s.getSpec().setSelector(ApiJson.serialization().unmarshal(selectorJson.replace('\'', '"'),
                io.fabric8.kubernetes.api.model.LabelSelector.class));
        return s;
    }

    static String c(String name, String extra) {
        return "{'name':'" + name + "','image':'" + name + ":1','podInjectPolicy':'BeforeAppContainer',"
                + "'shareVolumePolicy':{'type':'disabled'},'upgradeStrategy':{'upgradeType':'ColdUpgrade'}"
                + (extra.isEmpty() ? "" : "," + extra) + "}";
    }

    static List<String> names(List<Container> cs) {
        return cs == null ? List.of() : cs.stream().map(Container::getName).toList();
    }

    static Container container(SidecarInjection.Plan p, String name) {
        List<Container> all = new ArrayList<>(p.pod().getSpec().getContainers());
        if (p.pod().getSpec().getInitContainers() != null) {
            all.addAll(p.pod().getSpec().getInitContainers());
        }
        return all.stream().filter(x -> x.getName().equals(name)).findFirst().orElseThrow(() ->
                new AssertionError("no container " + name));
    }

    static String env(Container c, String name) {
        return c.getEnv() == null ? null : c.getEnv().stream().filter(e -> e.getName().equals(name))
                .map(EnvVar::getValue).findFirst().orElse(null);
    }

    static JsonNode annotationJson(SidecarInjection.Plan p, String key) {
        return ApiJson.serialization().unmarshal(p.pod().getMetadata().getAnnotations().get(key), JsonNode.class);
    }

    record Case(String name, String pod, List<SidecarSet> sets, Map<String, String> nsLabels, boolean sortByName,
                Consumer<SidecarInjection.Plan> check) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case of(String name, List<SidecarSet> sets, Consumer<SidecarInjection.Plan> check) {
        return new Case(name, POD, sets, Map.of("kubernetes.io/metadata.name", "ns", "team", "a"), false, check);
    }

    static Consumer<SidecarInjection.Plan> unchanged(String reasonPart) {
        return p -> {
            assertFalse(p.changed());
            assertTrue(p.reason().contains(reasonPart), p.reason());
        };
    }

    static Stream<Arguments> cases() {
        List<Case> cases = new ArrayList<>();
        // Matching
        cases.add(of("no SidecarSets", List.of(), unchanged("no SidecarSet matches")));
        cases.add(of("selector does not match", List.of(sel(set("s", "'containers':[" + c("log", "") + "]"), "{'matchLabels':{'app':'other'}}")), unchanged("no SidecarSet matches")));
        cases.add(of("selector matches", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> assertEquals(List.of("log", "app", "app2"), names(p.pod().getSpec().getContainers()))));
        cases.add(of("matchExpressions In", List.of(sel(set("s", "'containers':[" + c("log", "") + "]"), "{'matchExpressions':[{'key':'version','operator':'In','values':['v1','v2']}]}")),
                p -> assertTrue(p.changed())));
        cases.add(of("matchExpressions NotIn excludes", List.of(sel(set("s", "'containers':[" + c("log", "") + "]"), "{'matchExpressions':[{'key':'version','operator':'NotIn','values':['v1']}]}")),
                unchanged("no SidecarSet matches")));
        cases.add(of("empty selector never matches", List.of(sel(set("s", "'containers':[" + c("log", "") + "]"), "{}")), unchanged("no SidecarSet matches")));
        cases.add(of("namespaceSelector matches the namespace labels", List.of(set("s",
                "'namespaceSelector':{'matchLabels':{'team':'a'}},'containers':[" + c("log", "") + "]")),
                p -> assertTrue(p.changed())));
        cases.add(of("namespaceSelector of another namespace", List.of(set("s",
                "'namespaceSelector':{'matchLabels':{'kubernetes.io/metadata.name':'other'}},'containers':["
                        + c("log", "") + "]")), unchanged("no SidecarSet matches")));
        cases.add(of("injection paused", List.of(set("s", "'injectionStrategy':{'paused':true},'containers':["
                + c("log", "") + "]")), p -> {
            assertFalse(p.changed());
            assertEquals(List.of("s (injection paused)"), p.skipped());
        }));
        cases.add(new Case("terminating pod is left alone", POD.replace("'name':'web-0',",
                "'name':'web-0','deletionTimestamp':'2026-01-01T00:00:00Z',"), List.of(set("s", "'containers':["
                + c("log", "") + "]")), Map.of(), false, unchanged("not active")));
        cases.add(new Case("succeeded pod is left alone", POD.replace("'volumes'", "'restartPolicy':'Never','volumes'")
                .substring(0, POD.length() + "'restartPolicy':'Never',".length() - 1) + ",'status':{'phase':'Succeeded'}}", List.of(set("s", "'containers':["
                + c("log", "") + "]")), Map.of(), false, unchanged("not active")));
        cases.add(of("two SidecarSets both injected, list sorted", List.of(set("zeta", "'containers':[" + c("z", "") + "]"),
                set("alpha", "'containers':[" + c("a", "") + "]")), p -> {
            assertEquals(List.of("alpha", "zeta"), p.injected());
            assertEquals("alpha,zeta", p.pod().getMetadata().getAnnotations().get(SidecarInjection.INJECTED_LIST_ANNOTATION));
        }));
        cases.add(of("one of two matches", List.of(set("a", "'containers':[" + c("a", "") + "]"),
                sel(set("b", "'containers':[" + c("b", "") + "]"), "{'matchLabels':{'app':'other'}}")),
                p -> assertEquals(List.of("a"), p.injected())));
        // Containers
        cases.add(of("BeforeAppContainer goes first", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> assertEquals(List.of("log", "app", "app2"), names(p.pod().getSpec().getContainers()))));
        cases.add(of("AfterAppContainer goes last", List.of(set("s", "'containers':["
                + c("log", "").replace("BeforeAppContainer", "AfterAppContainer") + "]")),
                p -> assertEquals(List.of("app", "app2", "log"), names(p.pod().getSpec().getContainers()))));
        cases.add(of("before and after in SidecarSet order", List.of(set("s", "'containers':[" + c("b2", "") + ","
                + c("a1", "").replace("BeforeAppContainer", "AfterAppContainer") + "," + c("b1", "") + "]")),
                p -> assertEquals(List.of("b2", "b1", "app", "app2", "a1"), names(p.pod().getSpec().getContainers()))));
        cases.add(new Case("gate EnableSortSidecarContainerByName sorts sidecars", POD, List.of(set("s", "'containers':["
                + c("b2", "") + "," + c("b1", "") + "]")), Map.of(), true,
                p -> assertEquals(List.of("b1", "b2", "app", "app2"), names(p.pod().getSpec().getContainers()))));
        cases.add(of("a sidecar named like a pod container replaces it in place", List.of(set("s", "'containers':["
                + c("app2", "") + "]")), p -> {
            assertEquals(List.of("app", "app2"), names(p.pod().getSpec().getContainers()));
            assertEquals("app2:1", container(p, "app2").getImage());
        }));
        cases.add(of("sidecar fields are not in the pod", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> {
                    JsonNode tree = ApiJson.serialization().convertValue(container(p, "log"), JsonNode.class);
                    assertFalse(tree.has("podInjectPolicy") || tree.has("shareVolumePolicy") || tree.has("upgradeStrategy"),
                            tree.toString());
                }));
        cases.add(of("containers of several SidecarSets", List.of(set("a", "'containers':[" + c("x", "") + "]"),
                set("b", "'containers':[" + c("y", "").replace("BeforeAppContainer", "AfterAppContainer") + "]")),
                p -> assertEquals(List.of("x", "app", "app2", "y"), names(p.pod().getSpec().getContainers()))));
        // Init containers
        cases.add(of("init containers after the pod's own, sorted by name", List.of(set("s", "'initContainers':["
                + "{'name':'z-init','image':'i'},{'name':'a-init','image':'i'}]")),
                p -> assertEquals(List.of("prep", "a-init", "z-init"), names(p.pod().getSpec().getInitContainers()))));
        cases.add(of("init containers of two SidecarSets sorted together", List.of(set("a", "'initContainers':["
                + "{'name':'m','image':'i'}]"), set("b", "'initContainers':[{'name':'c','image':'i'}]")),
                p -> assertEquals(List.of("prep", "c", "m"), names(p.pod().getSpec().getInitContainers()))));
        cases.add(of("init container gets IS_INJECTED", List.of(set("s", "'initContainers':[{'name':'i','image':'i'}]")),
                p -> assertEquals("true", env(container(p, "i"), "IS_INJECTED"))));
        cases.add(of("native sidecar init container is in the sidecar list", List.of(set("s", "'initContainers':["
                + "{'name':'n','image':'i','restartPolicy':'Always'},{'name':'plain','image':'i'}]")),
                p -> assertEquals("[\"n\"]", annotationJson(p, SidecarSetHash.HASH_ANNOTATION).at("/s/sidecarList").toString())));
        // Volumes and sharing
        cases.add(of("mounted SidecarSet volumes are injected", List.of(set("s", "'volumes':[{'name':'logs','emptyDir':{}},"
                + "{'name':'unused','emptyDir':{}}],'containers':[" + c("log", "'volumeMounts':[{'name':'logs','mountPath':'/logs'}]") + "]")),
                p -> assertEquals(List.of("data", "logs"), p.pod().getSpec().getVolumes().stream().map(v -> v.getName()).toList())));
        cases.add(of("a pod volume of the same name wins", List.of(set("s", "'volumes':[{'name':'data','hostPath':"
                + "{'path':'/x'}}],'containers':[" + c("log", "'volumeMounts':[{'name':'data','mountPath':'/d'}]") + "]")),
                p -> {
                    assertEquals(1, p.pod().getSpec().getVolumes().size());
                    assertTrue(p.pod().getSpec().getVolumes().get(0).getEmptyDir() != null);
                }));
        cases.add(of("shareVolumePolicy enabled mounts the app's volumes", List.of(set("s", "'containers':["
                + c("log", "").replace("disabled", "enabled") + "]")),
                p -> assertEquals(List.of("/data"), container(p, "log").getVolumeMounts().stream().map(m -> m.getMountPath()).toList())));
        cases.add(of("shareVolumePolicy disabled mounts nothing", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> assertTrue(container(p, "log").getVolumeMounts() == null || container(p, "log").getVolumeMounts().isEmpty())));
        cases.add(of("own mount path wins over a shared one", List.of(set("s", "'volumes':[{'name':'mine','emptyDir':{}}],"
                + "'containers':[" + c("log", "'volumeMounts':[{'name':'mine','mountPath':'/data'}]").replace("disabled", "enabled") + "]")),
                p -> assertEquals(List.of("mine"), container(p, "log").getVolumeMounts().stream().map(m -> m.getName()).toList())));
        cases.add(of("volumes of init containers are injected", List.of(set("s", "'volumes':[{'name':'cfg','configMap':"
                + "{'name':'c'}}],'initContainers':[{'name':'i','image':'i','volumeMounts':[{'name':'cfg','mountPath':'/c'}]}]")),
                p -> assertTrue(p.pod().getSpec().getVolumes().stream().anyMatch(v -> v.getName().equals("cfg")))));
        // Env
        cases.add(of("IS_INJECTED on every sidecar", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> assertEquals("true", env(container(p, "log"), "IS_INJECTED"))));
        cases.add(of("transferEnv by sourceContainerName and envName", List.of(set("s", "'containers':[" + c("log",
                "'transferEnv':[{'sourceContainerName':'app2','envName':'TZ'}]") + "]")),
                p -> assertEquals("Asia/Shanghai", env(container(p, "log"), "TZ"))));
        cases.add(of("transferEnv envNames", List.of(set("s", "'containers':[" + c("log",
                "'transferEnv':[{'sourceContainerName':'app','envNames':['TZ','LANG']}]") + "]")), p -> {
            assertEquals("UTC", env(container(p, "log"), "TZ"));
            assertEquals("C", env(container(p, "log"), "LANG"));
        }));
        cases.add(of("transferEnv of a missing env is skipped", List.of(set("s", "'containers':[" + c("log",
                "'transferEnv':[{'sourceContainerName':'app','envName':'NOPE'}]") + "]")),
                p -> assertNull(env(container(p, "log"), "NOPE"))));
        cases.add(new Case("transferEnv source named by a pod label", POD.replace("'version':'v1'",
                "'version':'v1','src':'app2'"), List.of(set("s", "'containers':[" + c("log",
                "'transferEnv':[{'sourceContainerNameFrom':{'fieldRef':{'apiVersion':'v1','fieldPath':"
                        + "'metadata.labels[\\u0027src\\u0027]'}},'envName':'TZ'}]") + "]")), Map.of(), false,
                p -> assertEquals("Asia/Shanghai", env(container(p, "log"), "TZ"))));
        cases.add(of("the sidecar's own env wins over a transferred one", List.of(set("s", "'containers':[" + c("log",
                "'env':[{'name':'TZ','value':'mine'}],'transferEnv':[{'sourceContainerName':'app','envName':'TZ'}]") + "]")),
                p -> assertEquals("mine", env(container(p, "log"), "TZ"))));
        // imagePullSecrets
        cases.add(of("imagePullSecrets added", List.of(set("s", "'imagePullSecrets':[{'name':'reg'}],'containers':["
                + c("log", "") + "]")), p -> assertEquals("reg", p.pod().getSpec().getImagePullSecrets().get(0).getName())));
        cases.add(of("imagePullSecrets deduplicated across SidecarSets", List.of(set("a", "'imagePullSecrets':[{'name':'reg'}],"
                + "'containers':[" + c("x", "") + "]"), set("b", "'imagePullSecrets':[{'name':'reg'},{'name':'other'}],"
                + "'containers':[" + c("y", "") + "]")), p -> assertEquals(List.of("reg", "other"),
                p.pod().getSpec().getImagePullSecrets().stream().map(s -> s.getName()).toList())));
        // Annotations
        cases.add(of("hash annotation per SidecarSet", List.of(set("s", "'containers':[" + c("log", "") + "]")), p -> {
            JsonNode h = annotationJson(p, SidecarSetHash.HASH_ANNOTATION).get("s");
            assertEquals("h-s", h.get("hash").asText());
            assertEquals("s", h.get("sidecarSetName").asText());
            assertEquals("[\"log\"]", h.get("sidecarList").toString());
            assertEquals("s-rev", h.get("controllerRevision").asText());
            assertEquals("2026-01-02T03:04:05Z", h.get("updateTimestamp").asText());
        }));
        cases.add(of("hash-without-image annotation per SidecarSet", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> {
                    JsonNode h = annotationJson(p, SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION).get("s");
                    assertEquals("w-s", h.get("hash").asText());
                    assertFalse(h.has("controllerRevision"));
                }));
        cases.add(of("the pod's other annotations are kept", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> assertEquals("me", p.pod().getMetadata().getAnnotations().get("owner"))));
        cases.add(new Case("an older name->hash annotation is read and extended", POD.replace("'owner':'me'",
                "'owner':'me','kruise.io/sidecarset-hash':'{\\\"old\\\":\\\"abc\\\"}','kruise.io/sidecarset-injected-list':'old'"),
                List.of(set("s", "'containers':[" + c("log", "") + "]")), Map.of(), false, p -> {
            JsonNode h = annotationJson(p, SidecarSetHash.HASH_ANNOTATION);
            assertEquals("abc", h.at("/old/hash").asText());
            assertEquals("h-s", h.at("/s/hash").asText());
            assertEquals("old,s", p.pod().getMetadata().getAnnotations().get(SidecarInjection.INJECTED_LIST_ANNOTATION));
        }));
        // Hot upgrade
        String hot = c("envoy", "'upgradeStrategy':{'upgradeType':'HotUpgrade','hotUpgradeEmptyImage':'empty:1'}")
                .replace(",'upgradeStrategy':{'upgradeType':'ColdUpgrade'}", "");
        // resourcesPolicy (creation only; targets are the pod's own containers, never another SidecarSet's)
        String resourcesPod = POD.replace("'image':'nginx',", "'image':'nginx','resources':{'limits':{'cpu':'400m',"
                + "'memory':'1Gi'},'requests':{'cpu':'200m'}},").replace("'image':'redis',", "'image':'redis',"
                + "'resources':{'limits':{'cpu':'600m','memory':'1Gi'},'requests':{'cpu':'100m','memory':'256Mi'}},");
        String policy = "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'^app',"
                + "'resourcesExpr':{'limits':{'cpu':'max(cpu*50%, 50m)','memory':'memory*25%'},"
                + "'requests':{'cpu':'cpu*10%','memory':'memory*50%'}}}";
        cases.add(new Case("resourcesPolicy sums the target containers", resourcesPod, List.of(set("s",
                "'containers':[" + c("log", policy) + "]")), Map.of(), false, p -> {
            Container log = container(p, "log");
            assertEquals("500m", log.getResources().getLimits().get("cpu").toString());
            assertEquals("512Mi", log.getResources().getLimits().get("memory").toString());
            assertEquals("30m", log.getResources().getRequests().get("cpu").toString());
            assertEquals("128Mi", log.getResources().getRequests().get("memory").toString());
        }));
        cases.add(new Case("resourcesPolicy: other SidecarSets' containers never count, both hot-upgrade containers "
                + "get the result", resourcesPod, List.of(set("a", "'containers':[" + c("app-proxy",
                "'resources':{'limits':{'cpu':'8'}}") + "]"), set("s", "'containers':[" + hot.replace("}}",
                "}," + policy.replace("'^app'", "'.*'") + "}") + "]")), Map.of(), false, p -> {
            assertEquals("500m", container(p, "envoy-1").getResources().getLimits().get("cpu").toString());
            assertEquals("500m", container(p, "envoy-2").getResources().getLimits().get("cpu").toString());
            assertEquals("8", container(p, "app-proxy").getResources().getLimits().get("cpu").toString());
        }));
        cases.add(new Case("resourcesPolicy of a native-sidecar init container", resourcesPod, List.of(set("s",
                "'initContainers':[{'name':'agent','image':'agent:1','restartPolicy':'Always'," + policy + "}]")),
                Map.of(), false, p -> assertEquals("500m",
                container(p, "agent").getResources().getLimits().get("cpu").toString())));
        cases.add(of("hot upgrade injects the pair", List.of(set("s", "'containers':[" + hot + "]")),
                p -> assertEquals(List.of("envoy-1", "envoy-2", "app", "app2"), names(p.pod().getSpec().getContainers()))));
        cases.add(of("hot upgrade: the second runs the empty image", List.of(set("s", "'containers':[" + hot + "]")), p -> {
            assertEquals("envoy:1", container(p, "envoy-1").getImage());
            assertEquals("empty:1", container(p, "envoy-2").getImage());
        }));
        cases.add(of("hot upgrade version env and annotations", List.of(set("s", "'containers':[" + hot + "]")), p -> {
            EnvVar v = container(p, "envoy-2").getEnv().stream().filter(e -> e.getName().equals("SIDECARSET_VERSION"))
                    .findFirst().orElseThrow();
            assertEquals("metadata.annotations['version.sidecarset.kruise.io/envoy-2']", v.getValueFrom().getFieldRef().getFieldPath());
            assertTrue(container(p, "envoy-1").getEnv().stream().anyMatch(e -> e.getName().equals("SIDECARSET_VERSION_ALT")));
            Map<String, String> a = p.pod().getMetadata().getAnnotations();
            assertEquals("1", a.get("version.sidecarset.kruise.io/envoy-1"));
            assertEquals("0", a.get("versionalt.sidecarset.kruise.io/envoy-1"));
            assertEquals("0", a.get("version.sidecarset.kruise.io/envoy-2"));
            assertEquals("1", a.get("versionalt.sidecarset.kruise.io/envoy-2"));
        }));
        cases.add(of("hot upgrade working-container annotation", List.of(set("s", "'containers':[" + hot + "]")),
                p -> assertEquals("{\"envoy\":\"envoy-1\"}", p.pod().getMetadata().getAnnotations()
                        .get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION))));
        cases.add(of("hot upgrade sidecar list names the SidecarSet container", List.of(set("s", "'containers':[" + hot + "]")),
                p -> assertEquals("[\"envoy\"]", annotationJson(p, SidecarSetHash.HASH_ANNOTATION).at("/s/sidecarList").toString())));
        cases.add(of("the input pod is not modified", List.of(set("s", "'containers':[" + c("log", "") + "]")),
                p -> assertEquals(2, pod(POD).getSpec().getContainers().size())));
        cases.add(of("debug summary names SidecarSets only", List.of(set("s", "'containers':[" + c("log", "'env':[{'name':'SECRET','value':'hunter2'}]") + "]")),
                p -> {
                    assertTrue(p.debugSummary().contains("injected=1 [s]"), p.debugSummary());
                    assertFalse(p.debugSummary().contains("hunter2"));
                }));
        return cases.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void injection(Case c) {
        SidecarInjection.Plan plan = SidecarInjection.forCreate(pod(c.pod()), c.sets(), c.nsLabels(), c.sortByName(), NOW);
        c.check().accept(plan);
    }

    @org.junit.jupiter.api.Test
    void theTableHasAtLeastFortyCases() {
        assertTrue(cases().count() >= 40);
    }
}
