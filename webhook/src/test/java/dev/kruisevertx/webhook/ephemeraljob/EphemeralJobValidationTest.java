package dev.kruisevertx.webhook.ephemeraljob;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9.0's EphemeralJob validation cases (pkg/webhook/ephemeraljob/validating: the 5 accepted lists and the
 * 20 refused ones of validation_test.go, each with the errors' type and field, and the 3 handler cases), ported as
 * facts, plus the answers over the admission handler.
 */
class EphemeralJobValidationTest {
    private static final String OK = "\"imagePullPolicy\": \"IfNotPresent\", \"terminationMessagePolicy\": \"File\"";

    static List<EphemeralContainer> containers(String json) {
        try {
            return List.of(Json.MAPPER.readValue(json, EphemeralContainer[].class));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of("Empty Ephemeral Containers", "[]"),
                Arguments.of("Single Container", "[{\"name\": \"debug\", \"image\": \"image\", " + OK + "}]"),
                Arguments.of("Multiple Containers", "[{\"name\": \"debug1\", \"image\": \"image\", " + OK + "}, "
                        + "{\"name\": \"debug2\", \"image\": \"image\", " + OK + "}]"),
                Arguments.of("Single Container with Target", "[{\"name\": \"debug\", \"image\": \"image\", " + OK
                        + ", \"targetContainerName\": \"ctr\"}]"),
                Arguments.of("All allowed fields", "[{\"name\": \"debug\", \"image\": \"image\", \"command\": [\"bash\"], "
                        + "\"args\": [\"bash\"], \"workingDir\": \"/\", \"envFrom\": [{\"configMapRef\": {\"name\": "
                        + "\"dummy\", \"optional\": true}}], \"env\": [{\"name\": \"TEST\", \"value\": \"TRUE\"}], "
                        + "\"volumeMounts\": [{\"name\": \"vol\", \"mountPath\": \"/vol\"}], \"volumeDevices\": "
                        + "[{\"name\": \"blk\", \"devicePath\": \"/dev/block\"}], \"terminationMessagePath\": "
                        + "\"/dev/termination-log\", " + OK + ", \"securityContext\": {\"capabilities\": {\"add\": "
                        + "[\"SYS_ADMIN\"]}}, \"stdin\": true, \"stdinOnce\": true, \"tty\": true}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void openKruisesAcceptedLists(String title, String json) {
        assertEquals(List.of(), EphemeralJobValidation.validateContainers(containers(json)), title);
    }

    private static String one(String name, String extra) {
        return "[{\"name\": \"" + name + "\", \"image\": \"image\", " + OK + (extra.isEmpty() ? "" : ", " + extra) + "}]";
    }

    private static final String PROBE = "{\"tcpSocket\": {\"port\": 80}, \"successThreshold\": 1}";

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("Name Collision with EphemeralContainers", "[{\"name\": \"debug1\", \"image\": \"image\", "
                        + OK + "}, {\"name\": \"debug1\", \"image\": \"image\", " + OK + "}]",
                        List.of("Duplicate value ephemeralContainers[1].name")),
                Arguments.of("empty Container", "[{}]", List.of("Required value ephemeralContainers[0].name",
                        "Required value ephemeralContainers[0].image",
                        "Required value ephemeralContainers[0].terminationMessagePolicy",
                        "Required value ephemeralContainers[0].imagePullPolicy")),
                Arguments.of("empty Container Name", one("", ""), List.of("Required value ephemeralContainers[0].name")),
                Arguments.of("whitespace padded image name", "[{\"name\": \"debug\", \"image\": \" image\", " + OK + "}]",
                        List.of("Invalid value ephemeralContainers[0].image")),
                Arguments.of("invalid image pull policy", "[{\"name\": \"debug\", \"image\": \"image\", "
                        + "\"imagePullPolicy\": \"PullThreeTimes\", \"terminationMessagePolicy\": \"File\"}]",
                        List.of("Unsupported value ephemeralContainers[0].imagePullPolicy")),
                Arguments.of("Container uses disallowed field: Lifecycle", one("debug",
                        "\"lifecycle\": {\"preStop\": {\"exec\": {\"command\": [\"ls\", \"-l\"]}}}"),
                        List.of("Forbidden ephemeralContainers[0].lifecycle")),
                Arguments.of("Container uses disallowed field: LivenessProbe", one("debug", "\"livenessProbe\": " + PROBE),
                        List.of("Forbidden ephemeralContainers[0].livenessProbe")),
                Arguments.of("Container uses disallowed field: Ports", one("debug",
                        "\"ports\": [{\"protocol\": \"TCP\", \"containerPort\": 80}]"),
                        List.of("Forbidden ephemeralContainers[0].ports")),
                Arguments.of("Container uses disallowed field: ReadinessProbe", one("debug",
                        "\"readinessProbe\": {\"tcpSocket\": {\"port\": 80}}"),
                        List.of("Forbidden ephemeralContainers[0].readinessProbe")),
                Arguments.of("Container uses disallowed field: StartupProbe", one("debug", "\"startupProbe\": " + PROBE),
                        List.of("Forbidden ephemeralContainers[0].startupProbe")),
                Arguments.of("Container uses disallowed field: Resources", one("debug",
                        "\"resources\": {\"limits\": {\"cpu\": \"10\"}}"),
                        List.of("Forbidden ephemeralContainers[0].resources")),
                Arguments.of("Container uses disallowed field: VolumeMount.SubPath", one("debug",
                        "\"volumeMounts\": [{\"name\": \"vol\", \"mountPath\": \"/vol\"}, {\"name\": \"vol\", "
                                + "\"mountPath\": \"/volsub\", \"subPath\": \"foo\"}]"),
                        List.of("Forbidden ephemeralContainers[0].volumeMounts[1].subPath")),
                Arguments.of("Container uses disallowed field: VolumeMount.SubPathExpr", one("debug",
                        "\"volumeMounts\": [{\"name\": \"vol\", \"mountPath\": \"/vol\"}, {\"name\": \"vol\", "
                                + "\"mountPath\": \"/volsub\", \"subPathExpr\": \"$(POD_NAME)\"}]"),
                        List.of("Forbidden ephemeralContainers[0].volumeMounts[1].subPathExpr")),
                Arguments.of("Disallowed field with other errors should only return a single Forbidden", one("debug",
                        "\"lifecycle\": {\"preStop\": {\"exec\": {\"command\": []}}}"),
                        List.of("Forbidden ephemeralContainers[0].lifecycle")),
                Arguments.of("Container uses disallowed field: ResizePolicy", one("resources-resize-policy",
                        "\"resizePolicy\": [{\"resourceName\": \"cpu\", \"restartPolicy\": \"NotRequired\"}]"),
                        List.of("Forbidden ephemeralContainers[0].resizePolicy")),
                Arguments.of("Forbidden RestartPolicy: Always", one("foo", "\"restartPolicy\": \"Always\""),
                        List.of("Forbidden ephemeralContainers[0].restartPolicy")),
                Arguments.of("Forbidden RestartPolicy: OnFailure", one("foo", "\"restartPolicy\": \"OnFailure\""),
                        List.of("Forbidden ephemeralContainers[0].restartPolicy")),
                Arguments.of("Forbidden RestartPolicy: Never", one("foo", "\"restartPolicy\": \"Never\""),
                        List.of("Forbidden ephemeralContainers[0].restartPolicy")),
                Arguments.of("Forbidden RestartPolicy: invalid", one("foo", "\"restartPolicy\": \"invalid\""),
                        List.of("Forbidden ephemeralContainers[0].restartPolicy")),
                Arguments.of("Forbidden RestartPolicy: empty", one("foo", "\"restartPolicy\": \"\""),
                        List.of("Forbidden ephemeralContainers[0].restartPolicy")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void openKruisesRefusedLists(String title, String json, List<String> expected) {
        List<FieldError> errors = EphemeralJobValidation.validateContainers(containers(json));
        assertEquals(expected, errors.stream().map(EphemeralJobValidationTest::text).toList(), title);
    }

    @Test
    void openKruisesCasesAreAllHere() {
        assertEquals(5, accepted().count());
        assertEquals(20, refused().count());
    }

    private static String text(FieldError e) {
        return switch (e.type()) {
            case REQUIRED -> "Required value";
            case INVALID -> "Invalid value";
            case FORBIDDEN -> "Forbidden";
            case NOT_SUPPORTED -> "Unsupported value";
            case DUPLICATE -> "Duplicate value";
            default -> e.type().name();
        } + " " + e.field();
    }

    // ---- the handler, as OpenKruise's ephemeraljob_create_update_handler_test.go

    static ObjectNode job(String template) {
        try {
            return (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\": \"apps.kruise.io/v1alpha1\", \"kind\": "
                    + "\"EphemeralJob\", \"metadata\": {\"name\": \"ephermeraljob-sample\", \"namespace\": \"test\"}, "
                    + "\"spec\": {\"parallelism\": 1, \"replicas\": 1, \"selector\": {\"matchLabels\": {\"app\": "
                    + "\"test-2\"}}, \"template\": " + template + ", \"ttlSecondsAfterFinished\": 1800}}");
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static AdmissionResponse handle(String operation, ObjectNode object, ObjectNode old) {
        return EphemeralJobWebhooks.validating().handle(new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io",
                "v1alpha1", "EphemeralJob", "ephemeraljobs", "", "ephermeraljob-sample", "test", operation, object, old,
                false, null)).result();
    }

    private static final String DEBUGGER = "{\"image\": \"busybox\", \"imagePullPolicy\": \"IfNotPresent\", \"name\": "
            + "\"debugger\", \"securityContext\": {\"capabilities\": {\"add\": [\"SYS_ADMIN\", \"NET_ADMIN\"]}}, "
            + "\"terminationMessagePolicy\": \"File\"";

    @Test
    void failedCaseEphemeralContainersAsAnObjectIsRefused() {
        AdmissionResponse r = handle("CREATE", job("{\"ephemeralContainers\": {\"ephemeralContainerCommon\": "
                + DEBUGGER + "}, \"targetContainerName\": \"test\"}}"), null);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("ephemeralContainers"), r.message());
    }

    @Test
    void okCaseWithEmptyTargetContainerName() {
        assertTrue(handle("CREATE", job("{\"ephemeralContainers\": [" + DEBUGGER + ", \"targetContainerName\": \"\"}]}"),
                null).allowed());
    }

    @Test
    void okCaseWithTargetContainerName() {
        assertTrue(handle("CREATE", job("{\"ephemeralContainers\": [" + DEBUGGER + ", \"targetContainerName\": \"test\"}]}"),
                null).allowed());
    }

    @Test
    void refusalsAre422ListingEveryError() {
        AdmissionResponse r = handle("UPDATE", job("{\"ephemeralContainers\": [{\"name\": \"Debug\", \"image\": \"x\", "
                + "\"ports\": [{\"containerPort\": 80}]}]}"), job("{\"ephemeralContainers\": []}"));
        assertFalse(r.allowed());
        assertEquals(422, r.code());
        assertEquals("[ephemeralContainers[0].name: Invalid value: \"Debug\": a lowercase RFC 1123 label must consist "
                + "of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character, "
                + "ephemeralContainers[0].terminationMessagePolicy: Required value, "
                + "ephemeralContainers[0].imagePullPolicy: Required value, "
                + "ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container]", r.message());
    }

    @Test
    void hostileValuesGetClearErrors() {
        String huge = "a".repeat(100_000);
        List<FieldError> errors = EphemeralJobValidation.validateContainers(containers("[{\"name\": \"" + huge
                + "\", \"image\": \"i\", " + OK + ", \"env\": [{\"name\": \"A=B\", \"value\": \"1\"}, {\"name\": \"\"}, "
                + "{\"name\": \"X\", \"value\": \"v\", \"valueFrom\": {\"fieldRef\": {\"fieldPath\": \"metadata.name\"}}}], "
                + "\"envFrom\": [{}], \"terminationMessagePolicy\": \"Sometimes\"}]"));
        assertEquals(List.of("Invalid value ephemeralContainers[0].name",
                "Unsupported value ephemeralContainers[0].terminationMessagePolicy",
                "Invalid value ephemeralContainers[0].env[0].name", "Required value ephemeralContainers[0].env[1].name",
                "Invalid value ephemeralContainers[0].env[2].valueFrom", "Invalid value ephemeralContainers[0].envFrom[0]"),
                errors.stream().map(EphemeralJobValidationTest::text).toList());
        assertTrue(errors.get(0).toString().length() < 1_000, "a huge value is not repeated whole");
        AdmissionResponse wrongType = handle("CREATE", job("{\"ephemeralContainers\": [{\"name\": \"d\", \"image\": 5, "
                + "\"stdin\": \"yes\"}]}"), null);
        assertFalse(wrongType.allowed());
        ObjectNode noSpec = job("{\"ephemeralContainers\": []}");
        noSpec.remove("spec");
        assertTrue(handle("CREATE", noSpec, null).allowed(),
                "a job without a spec has no containers to refuse (the CRD requires the fields)");
    }
}
