package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The subset patch applied to the target workload's pod template and the result checked, as OpenKruise's validation
 * does when the workload exists: each case a patch and the errors (field and type) it must give.
 */
class SubsetPatchCheckTest {
    static final String TEMPLATE = """
            {"metadata":{"labels":{"app":"demo"}},
             "spec":{"containers":[{"name":"main","image":"img:latest"}]}}
            """;

    record Case(String name, String patch, List<String> errors) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("metadata only", "{\"metadata\":{\"annotations\":{\"subset\":\"a\"}}}", List.of()),
                new Case("OpenKruise's resource patch merges into the main container",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"resources\":{\"limits\":{\"cpu\":\"2\","
                                + "\"memory\":\"8000Mi\"}}}]}}", List.of()),
                new Case("a sidecar with a valid name and image",
                        "{\"spec\":{\"containers\":[{\"name\":\"log\",\"image\":\"log:1\"}]}}", List.of()),
                new Case("a container name that is not a DNS label",
                        "{\"spec\":{\"containers\":[{\"name\":\"Bad_Name\",\"image\":\"x:1\"}]}}",
                        List.of("INVALID spec.subsets[0].patch.containers[1].name")),
                new Case("a container without an image",
                        "{\"spec\":{\"containers\":[{\"name\":\"log\"}]}}",
                        List.of("REQUIRED spec.subsets[0].patch.containers[1].image")),
                new Case("the main container deleted: no container left",
                        "{\"spec\":{\"containers\":[{\"$patch\":\"delete\",\"name\":\"main\"}]}}",
                        List.of("REQUIRED spec.subsets[0].patch.containers")),
                new Case("a resource quantity that does not parse",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"resources\":{\"limits\":{\"cpu\":\"lots\"}}}]}}",
                        List.of("INVALID spec.subsets[0].patch.containers[0].resources.limits[cpu]")),
                new Case("an unsupported restartPolicy", "{\"spec\":{\"restartPolicy\":\"Sometimes\"}}",
                        List.of("NOT_SUPPORTED spec.subsets[0].patch.restartPolicy")),
                new Case("a nodeSelector label key that is not valid", "{\"spec\":{\"nodeSelector\":{\"-bad-\":\"x\"}}}",
                        List.of("INVALID spec.subsets[0].patch.nodeSelector")),
                new Case("containers of the wrong type", "{\"spec\":{\"containers\":\"main\"}}",
                        List.of("INVALID spec.subsets[0].patch")),
                new Case("a number where a string belongs", "{\"spec\":{\"restartPolicy\":{\"a\":1}}}",
                        List.of("INVALID spec.subsets[0].patch")),
                new Case("a patch that is not an object", "\"just a string\"",
                        List.of("INVALID spec.subsets[0].patch")));
    }

    /** A patch and the one error it must give, rendered as the API server answers it. */
    record Refusal(String name, String patch, String error) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final String P = "spec.subsets[0].patch";

    /** Kubernetes' ValidatePodSpec rules beyond the container basics, each with its field path and message. */
    static Stream<Refusal> podSpecRefusals() {
        return Stream.of(
                new Refusal("an init container named like a container",
                        "{\"spec\":{\"initContainers\":[{\"name\":\"main\",\"image\":\"i:1\"}]}}",
                        P + ".initContainers[0].name: Duplicate value: \"main\""),
                new Refusal("a containerPort out of range",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"ports\":[{\"containerPort\":70000,"
                                + "\"protocol\":\"TCP\"}]}]}}",
                        P + ".containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, "
                                + "inclusive"),
                new Refusal("a negative hostPort",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"ports\":[{\"containerPort\":80,"
                                + "\"hostPort\":-1,\"protocol\":\"TCP\"}]}]}}",
                        P + ".containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"),
                new Refusal("a port without a protocol (nothing defaults a patch)",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"ports\":[{\"containerPort\":80}]}]}}",
                        P + ".containers[0].ports[0].protocol: Required value"),
                new Refusal("an unknown protocol",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"ports\":[{\"containerPort\":80,"
                                + "\"protocol\":\"HTTP\"}]}]}}",
                        P + ".containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: "
                                + "\"SCTP\", \"TCP\", \"UDP\""),
                new Refusal("a port name longer than 15 characters",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"ports\":[{\"name\":\"a-very-long-port-name\","
                                + "\"containerPort\":80,\"protocol\":\"TCP\"}]}]}}",
                        P + ".containers[0].ports[0].name: Invalid value: \"a-very-long-port-name\": must be no more "
                                + "than 15 characters"),
                new Refusal("an env name starting with a digit",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"env\":[{\"name\":\"1X\",\"value\":\"v\"}]}]}}",
                        P + ".containers[0].env[0].name: Invalid value: \"1X\": " + PodSpecRulesMessages.ENV_NAME),
                new Refusal("a mount of a volume that does not exist",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"volumeMounts\":[{\"name\":\"data\","
                                + "\"mountPath\":\"/data\"}]}]}}",
                        P + ".containers[0].volumeMounts[0].name: Not found: \"data\""),
                new Refusal("two mounts at one path",
                        "{\"spec\":{\"volumes\":[{\"name\":\"a\",\"emptyDir\":{}},{\"name\":\"b\",\"emptyDir\":{}}],"
                                + "\"containers\":[{\"name\":\"main\",\"volumeMounts\":[{\"name\":\"a\",\"mountPath\":\"/d\"},"
                                + "{\"name\":\"b\",\"mountPath\":\"/d\"}]}]}}",
                        P + ".containers[0].volumeMounts[1].mountPath: Invalid value: \"/d\": must be unique"),
                new Refusal("a volume without a source",
                        "{\"spec\":{\"volumes\":[{\"name\":\"empty\"}]}}",
                        P + ".volumes[0]: Required value: must specify a volume type"),
                new Refusal("a volume with two sources",
                        "{\"spec\":{\"volumes\":[{\"name\":\"two\",\"emptyDir\":{},\"hostPath\":{\"path\":\"/x\"}}]}}",
                        P + ".volumes[0]: Forbidden: may not specify more than 1 volume type"),
                new Refusal("an unknown imagePullPolicy",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"imagePullPolicy\":\"Sometimes\"}]}}",
                        P + ".containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: "
                                + "\"Always\", \"IfNotPresent\", \"Never\""),
                new Refusal("an unknown dnsPolicy", "{\"spec\":{\"dnsPolicy\":\"Google\"}}",
                        P + ".dnsPolicy: Unsupported value: \"Google\": supported values: \"ClusterFirst\", "
                                + "\"ClusterFirstWithHostNet\", \"Default\", \"None\""),
                new Refusal("dnsPolicy None without dnsConfig", "{\"spec\":{\"dnsPolicy\":\"None\"}}",
                        P + ".dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"),
                new Refusal("a negative terminationGracePeriodSeconds",
                        "{\"spec\":{\"terminationGracePeriodSeconds\":-5}}",
                        P + ".terminationGracePeriodSeconds: Invalid value: -5: must be greater than or equal to 0"),
                new Refusal("an activeDeadlineSeconds of 0", "{\"spec\":{\"activeDeadlineSeconds\":0}}",
                        P + ".activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"),
                new Refusal("an activeDeadlineSeconds past the int range",
                        "{\"spec\":{\"activeDeadlineSeconds\":9999999999}}",
                        P + ".activeDeadlineSeconds: Invalid value: 9999999999: must be between 1 and 2147483647, "
                                + "inclusive"),
                new Refusal("a hostname that is not a DNS label", "{\"spec\":{\"hostname\":\"Host_1\"}}",
                        P + ".hostname: Invalid value: \"Host_1\": " + PodSpecRulesMessages.LABEL_SYNTAX),
                new Refusal("a serviceAccountName that is not a DNS subdomain",
                        "{\"spec\":{\"serviceAccountName\":\"Bad Account\"}}",
                        P + ".serviceAccountName: Invalid value: \"Bad Account\": " + PodSpecRulesMessages.SUBDOMAIN_SYNTAX),
                new Refusal("a toleration with no key and operator Equal",
                        "{\"spec\":{\"tolerations\":[{\"operator\":\"Equal\",\"value\":\"x\"}]}}",
                        P + ".tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is "
                                + "empty, which means \"match all values and all keys\""),
                new Refusal("a null toleration", "{\"spec\":{\"tolerations\":[null]}}",
                        P + ".tolerations[0]: Required value"),
                new Refusal("a preferred node term with weight 0",
                        "{\"spec\":{\"affinity\":{\"nodeAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":"
                                + "[{\"weight\":0,\"preference\":{}}]}}}}",
                        P + ".affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
                                + "Invalid value: 0: must be in the range 1-100"),
                new Refusal("a required node affinity without terms",
                        "{\"spec\":{\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                                + "{\"nodeSelectorTerms\":[]}}}}}",
                        P + ".affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: "
                                + "Required value: must have at least one node selector term"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSpecRefusals")
    void refusesWhatValidatePodSpecRefusesWithItsMessage(Refusal r) {
        JsonNode template = ApiJson.serialization().unmarshal(TEMPLATE, JsonNode.class);
        List<FieldError> errors = WorkloadSpreadValidation.validate(ws(r.patch()), null, List.of(),
                () -> CustomWorkloadWhiteList.EMPTY, template);
        assertEquals(List.of(r.error()), errors.stream().map(FieldError::toString).toList());
    }

    @Test
    void aPatchValidatePodSpecAcceptsPasses() {
        JsonNode template = ApiJson.serialization().unmarshal(TEMPLATE, JsonNode.class);
        String patch = "{\"spec\":{\"volumes\":[{\"name\":\"data\",\"emptyDir\":{}}],\"dnsPolicy\":\"ClusterFirst\","
                + "\"terminationGracePeriodSeconds\":0,\"activeDeadlineSeconds\":2147483647,\"hostname\":\"web-1\","
                + "\"tolerations\":[{\"operator\":\"Exists\"}],\"containers\":[{\"name\":\"main\",\"imagePullPolicy\":"
                + "\"IfNotPresent\",\"env\":[{\"name\":\"my.env-NAME_1\",\"value\":\"v\"}],\"ports\":[{\"name\":\"http\","
                + "\"containerPort\":8080,\"protocol\":\"TCP\"}],\"volumeMounts\":[{\"name\":\"data\",\"mountPath\":"
                + "\"/data\"}]}]}}";
        assertEquals(List.of(), errors(patch, template));
    }

    static WorkloadSpread ws(String patch) {
        return ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"WorkloadSpread",
                 "metadata":{"name":"ws","namespace":"default"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"demo"},
                   "subsets":[{"name":"a","maxReplicas":1,"patch":%s},{"name":"b"}]}}
                """.formatted(patch), WorkloadSpread.class);
    }

    static List<String> errors(String patch, JsonNode template) {
        List<FieldError> errors = WorkloadSpreadValidation.validate(ws(patch), null, List.of(),
                () -> CustomWorkloadWhiteList.EMPTY, template);
        return errors.stream().map(e -> e.type() + " " + e.field()).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void checksThePatchedTemplate(Case c) {
        JsonNode template = ApiJson.serialization().unmarshal(TEMPLATE, JsonNode.class);
        assertEquals(c.errors(), errors(c.patch(), template));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void withoutTheWorkloadNothingIsCheckedAsOpenKruise(Case c) {
        assertEquals(List.of(), errors(c.patch(), null));
    }

    @Test
    void theMessagesSayWhatIsWrong() {
        JsonNode template = ApiJson.serialization().unmarshal(TEMPLATE, JsonNode.class);
        List<FieldError> errors = WorkloadSpreadValidation.validate(ws("{\"spec\":{\"containers\":\"main\"}}"), null,
                List.of(), () -> CustomWorkloadWhiteList.EMPTY, template);
        String message = FieldError.aggregate(errors);
        assertTrue(message.startsWith("spec.subsets[0].patch: Invalid value: "), message);
        assertTrue(message.contains("failed to "), message);
        assertTrue(!message.contains(" at [Source"), message);
    }

    @Test
    void claimTemplatesBecomeVolumesOfTheTemplate() {
        PodTemplateSpec t = ApiJson.serialization().unmarshal(TEMPLATE, PodTemplateSpec.class);
        JsonNode out = CachedTargetTemplates.template(t, List.of(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("data").endMetadata().build()));
        assertEquals("{\"name\":\"data\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}",
                out.path("spec").path("volumes").get(0).toString());
    }
}
