package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code kruise.io/sidecarset-hash} and {@code -hash-without-image} must be the values OpenKruise v1.9 computes for
 * the same spec, or pods injected by one look out of date to the other. OpenKruise hashes Go's {@code json.Marshal}
 * of {@code map{"containers": ..., "initContainers": ...}}; each case gives the spec, the exact bytes Go writes for it
 * (derived by hand from Go's encoding rules, explained per case) and the SHA-256 hex of those bytes mapped onto
 * Kubernetes' safe alphabet ("bcdfghjklmnpqrstvwxz2456789"[byte % 27]).
 *
 * <p>The first three hashes are not derived here: they are the published expectations of OpenKruise v1.9's own
 * {@code pkg/control/sidecarcontrol/hash_test.go} for the same containers, so they pin the whole chain (encoding,
 * SHA-256, safe encoding) against OpenKruise itself. The others were computed by hashing the derived bytes.
 */
class SidecarSetHashGoCompatibilityTest {

    static SidecarSet set(String spec) {
        return ApiJson.serialization().unmarshal("{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"SidecarSet\","
                + "\"metadata\":{\"name\":\"s\"},\"spec\":" + spec + "}", SidecarSet.class);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // OpenKruise's "containers" case. Go writes Container's fields in declaration order; name has no
                // omitempty; resources (a struct value), upgradeStrategy and shareVolumePolicy (struct values in
                // SidecarContainer) are never omitted by omitempty, so they appear as {} even when unset.
                Arguments.of("openkruise containers",
                        "{\"containers\":[{\"name\":\"container1\",\"image\":\"test-image\"}]}",
                        "{\"containers\":[{\"name\":\"container1\",\"image\":\"test-image\",\"resources\":{},"
                                + "\"upgradeStrategy\":{},\"shareVolumePolicy\":{}}]}",
                        "w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78",
                        "8wzddb4dvv9c6x8zdc77z4z75987424f457dfv6724ddw6zbdx467wz5x24fc759"),
                // OpenKruise's "containers and initContainers": no init container is a native sidecar, so the init
                // containers are left out and the hash equals the previous one.
                Arguments.of("openkruise plain init container ignored",
                        "{\"containers\":[{\"name\":\"container1\",\"image\":\"test-image\"}],"
                                + "\"initContainers\":[{\"name\":\"container1\",\"image\":\"test-image\"}]}",
                        "{\"containers\":[{\"name\":\"container1\",\"image\":\"test-image\",\"resources\":{},"
                                + "\"upgradeStrategy\":{},\"shareVolumePolicy\":{}}]}",
                        "w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78",
                        "8wzddb4dvv9c6x8zdc77z4z75987424f457dfv6724ddw6zbdx467wz5x24fc759"),
                // OpenKruise's native sidecar case: map keys are sorted, so "initContainers" follows "containers";
                // restartPolicy (a pointer) comes after resources in Container's declaration order.
                Arguments.of("openkruise native sidecar init container",
                        "{\"containers\":[{\"name\":\"container1\",\"image\":\"test-image\"}],"
                                + "\"initContainers\":[{\"name\":\"container1\",\"image\":\"test-image\","
                                + "\"restartPolicy\":\"Always\"}]}",
                        "{\"containers\":[{\"name\":\"container1\",\"image\":\"test-image\",\"resources\":{},"
                                + "\"upgradeStrategy\":{},\"shareVolumePolicy\":{}}],\"initContainers\":[{\"name\":"
                                + "\"container1\",\"image\":\"test-image\",\"resources\":{},\"restartPolicy\":\"Always\","
                                + "\"upgradeStrategy\":{},\"shareVolumePolicy\":{}}]}",
                        "4xwx4d4844vd4v9x79wb4xbxf4xb29475cc4446v8cz2c2f2f5c5bw448vd42z8w",
                        "5725fw8bwbx249bw57v5892c847dzf48bww9zb7c86xb95264fdz26654847b2c8"),
                // A defaulted sidecar as the SidecarSet webhook leaves it: the JSON key order of the input does not
                // matter (Go writes struct order: ...terminationMessagePath, terminationMessagePolicy,
                // imagePullPolicy, then the SidecarSet fields); without the image the "image" key is gone (an empty
                // string with omitempty).
                Arguments.of("defaulted sidecar",
                        "{\"containers\":[{\"shareVolumePolicy\":{\"type\":\"disabled\"},\"imagePullPolicy\":"
                                + "\"IfNotPresent\",\"upgradeStrategy\":{\"upgradeType\":\"ColdUpgrade\"},\"podInjectPolicy\":"
                                + "\"BeforeAppContainer\",\"terminationMessagePolicy\":\"File\",\"terminationMessagePath\":"
                                + "\"/dev/termination-log\",\"image\":\"nginx:1.25\",\"name\":\"sidecar1\"}]}",
                        "{\"containers\":[{\"name\":\"sidecar1\",\"image\":\"nginx:1.25\",\"resources\":{},"
                                + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
                                + "\"imagePullPolicy\":\"IfNotPresent\",\"podInjectPolicy\":\"BeforeAppContainer\","
                                + "\"upgradeStrategy\":{\"upgradeType\":\"ColdUpgrade\"},\"shareVolumePolicy\":{\"type\":"
                                + "\"disabled\"}}]}",
                        "2cz4c9cdv4d95z842cdbbf272b7v2249xx76cbfx4x4v22x4c5v7v8zzz58424c4",
                        "w795w8x62v78dw4274x9974z7x4df7c4cc9cxwb5x84858c45zvd2db7f6vwcbvd"),
                // A nil containers slice is encoded as null (map values have no omitempty); an empty one as [].
                Arguments.of("no containers", "{}", "{\"containers\":null}",
                        "x5vwx9w6vv4dv72c9w4c2f6v74fbwx545b45bbfz6z2dvf8w887xw86fvcb4cf48",
                        "x5vwx9w6vv4dv72c9w4c2f6v74fbwx545b45bbfz6z2dvf8w887xw86fvcb4cf48"),
                Arguments.of("empty containers", "{\"containers\":[]}", "{\"containers\":[]}",
                        "5662x672v59974vdzvf4bdfwc4v526wx5w7884vx5c7fc2f246v484v5988xb9z7",
                        "5662x672v59974vdzvf4bdfwc4v526wx5w7884vx5c7fc2f246v484v5988xb9z7"),
                // Everything at once. Ports: name, containerPort, protocol (struct order, hostPort 0 omitted).
                // fieldRef: apiVersion before fieldPath. Go escapes <, & and > as \u003c, \u0026, \u003e.
                // Quantities are written in Go's canonical form: "1024Mi" is 2^30 -> "1Gi" (1024 is divisible
                // by 8, so the string is not kept), "0.5" -> "500m", "100m" and "64Mi" stay. Limits/requests keys
                // are sorted. volumeMounts: name, readOnly, mountPath. The probe's handler is inlined before the
                // timing fields. HotUpgrade fields in struct order; transferEnv keeps envNames' order.
                Arguments.of("rich sidecar",
                        "{\"containers\":[{\"name\":\"envoy\",\"image\":\"envoy:v1.30\",\"command\":[\"/bin/envoy\",\"-c\","
                                + "\"/etc/envoy.yaml\"],\"ports\":[{\"containerPort\":15000,\"protocol\":\"TCP\",\"name\":\"admin\"}],"
                                + "\"env\":[{\"name\":\"POD\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\","
                                + "\"apiVersion\":\"v1\"}}},{\"name\":\"HTML\",\"value\":\"a<b&c>d\"}],\"resources\":{\"limits\":"
                                + "{\"memory\":\"1024Mi\",\"cpu\":\"0.5\"},\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}},"
                                + "\"volumeMounts\":[{\"mountPath\":\"/etc/envoy\",\"name\":\"cfg\",\"readOnly\":true}],"
                                + "\"livenessProbe\":{\"httpGet\":{\"path\":\"/ready\",\"port\":15000,\"scheme\":\"HTTP\"},"
                                + "\"timeoutSeconds\":1,\"periodSeconds\":10,\"successThreshold\":1,\"failureThreshold\":3},"
                                + "\"imagePullPolicy\":\"IfNotPresent\",\"terminationMessagePath\":\"/dev/termination-log\","
                                + "\"terminationMessagePolicy\":\"File\",\"podInjectPolicy\":\"AfterAppContainer\","
                                + "\"upgradeStrategy\":{\"upgradeType\":\"HotUpgrade\",\"hotUpgradeEmptyImage\":\"envoy:empty\"},"
                                + "\"shareVolumePolicy\":{\"type\":\"enabled\"},\"transferEnv\":[{\"sourceContainerName\":\"main\","
                                + "\"envNames\":[\"TZ\",\"LANG\"]}]}]}",
                        "{\"containers\":[{\"name\":\"envoy\",\"image\":\"envoy:v1.30\",\"command\":[\"/bin/envoy\",\"-c\","
                                + "\"/etc/envoy.yaml\"],\"ports\":[{\"name\":\"admin\",\"containerPort\":15000,\"protocol\":\"TCP\"}],"
                                + "\"env\":[{\"name\":\"POD\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":"
                                + "\"metadata.name\"}}},{\"name\":\"HTML\",\"value\":\"a\\u003cb\\u0026c\\u003ed\"}],\"resources\":"
                                + "{\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"requests\":{\"cpu\":\"100m\",\"memory\":"
                                + "\"64Mi\"}},\"volumeMounts\":[{\"name\":\"cfg\",\"readOnly\":true,\"mountPath\":\"/etc/envoy\"}],"
                                + "\"livenessProbe\":{\"httpGet\":{\"path\":\"/ready\",\"port\":15000,\"scheme\":\"HTTP\"},"
                                + "\"timeoutSeconds\":1,\"periodSeconds\":10,\"successThreshold\":1,\"failureThreshold\":3},"
                                + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
                                + "\"imagePullPolicy\":\"IfNotPresent\",\"podInjectPolicy\":\"AfterAppContainer\","
                                + "\"upgradeStrategy\":{\"upgradeType\":\"HotUpgrade\",\"hotUpgradeEmptyImage\":\"envoy:empty\"},"
                                + "\"shareVolumePolicy\":{\"type\":\"enabled\"},\"transferEnv\":[{\"sourceContainerName\":\"main\","
                                + "\"envNames\":[\"TZ\",\"LANG\"]}]}]}",
                        "2v59w26vv55646576xzdbdvd7wd6fzvbbbv445c76w4f56b465cfd9zdb4d7v89c",
                        "vv6552v78dv7x2vv9w86vxcd28zbz48fvb2z84d6zc746v8459fx4b2v786fz49z"),
                // A native sidecar brings every init container in (the plain one too). shareVolumeDevicePolicy and
                // resourcesPolicy are pointers, present only when set. A resourceFieldRef's divisor is a Quantity
                // struct, never omitted: Go writes its zero value "0". Pointer fields keep zero values (privileged
                // false, runAsUser 0); stdin/tty false and an empty workingDir are omitted.
                Arguments.of("native sidecar with resourcesPolicy and a plain init container",
                        "{\"containers\":[{\"name\":\"a\",\"image\":\"a:1\"}],\"initContainers\":[{\"name\":\"init-log\","
                                + "\"image\":\"busybox\",\"restartPolicy\":\"Always\",\"shareVolumeDevicePolicy\":{\"type\":"
                                + "\"enabled\"},\"resourcesPolicy\":{\"targetContainersMode\":\"sum\",\"targetContainersNameRegex\":"
                                + "\".*\",\"resourcesExpr\":{\"limits\":{\"cpu\":\"max(cpu*0.5, 50m)\"},\"requests\":{\"memory\":"
                                + "\"memory\"}}}},{\"name\":\"plain\",\"image\":\"busybox\",\"command\":[\"sh\"],\"workingDir\":\"\","
                                + "\"stdin\":false,\"tty\":false,\"env\":[{\"name\":\"MEM\",\"valueFrom\":{\"resourceFieldRef\":"
                                + "{\"resource\":\"limits.memory\"}}}],\"securityContext\":{\"runAsUser\":0,\"privileged\":false}}]}",
                        "{\"containers\":[{\"name\":\"a\",\"image\":\"a:1\",\"resources\":{},\"upgradeStrategy\":{},"
                                + "\"shareVolumePolicy\":{}}],\"initContainers\":[{\"name\":\"init-log\",\"image\":\"busybox\","
                                + "\"resources\":{},\"restartPolicy\":\"Always\",\"upgradeStrategy\":{},\"shareVolumePolicy\":{},"
                                + "\"shareVolumeDevicePolicy\":{\"type\":\"enabled\"},\"resourcesPolicy\":{\"targetContainersMode\":"
                                + "\"sum\",\"targetContainersNameRegex\":\".*\",\"resourcesExpr\":{\"limits\":{\"cpu\":"
                                + "\"max(cpu*0.5, 50m)\"},\"requests\":{\"memory\":\"memory\"}}}},{\"name\":\"plain\",\"image\":"
                                + "\"busybox\",\"command\":[\"sh\"],\"env\":[{\"name\":\"MEM\",\"valueFrom\":{\"resourceFieldRef\":"
                                + "{\"resource\":\"limits.memory\",\"divisor\":\"0\"}}}],\"resources\":{},\"securityContext\":"
                                + "{\"privileged\":false,\"runAsUser\":0},\"upgradeStrategy\":{},\"shareVolumePolicy\":{}}]}",
                        "z549xbzv442v742657d29v925w6fw9c94v86z28xfc7v7v646997bd6d9b8bv68w", null),
                // Go's string escapes: \n, \b (short form since Go 1.22), U+2028 as backslash-u2028, other control characters
                // as backslash-u00XX in lower-case hex; non-ASCII letters are written as UTF-8.
                Arguments.of("string escapes",
                        "{\"containers\":[{\"name\":\"u\",\"env\":[{\"name\":\"S\",\"value\":\"line\\nbreak\\u2028\u00e9\\b\\u0001\"}]}]}",
                        "{\"containers\":[{\"name\":\"u\",\"env\":[{\"name\":\"S\",\"value\":\"line\\nbreak\\u2028\u00e9\\b"
                                + "\\u0001\"}],\"resources\":{},\"upgradeStrategy\":{},\"shareVolumePolicy\":{}}]}",
                        "9cw9wcz5bv5fx28xzx8vddvvvv2x45dz887x752dv45wx2f4c8fv4v679vwdzfwf", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void hashesAsOpenKruise(String name, String spec, String goJson, String hash, String hashWithoutImage) {
        SidecarSet s = set(spec);
        assertEquals(goJson, SidecarSetHash.encode(s, false), "Go's json.Marshal bytes");
        assertEquals(hash, SidecarSetHash.of(s));
        if (hashWithoutImage != null) {
            assertEquals(hashWithoutImage, SidecarSetHash.withoutImage(s));
        }
    }

    /** Go's resource.Quantity JSON form after reading a string (and after defaulting's milli round-up). */
    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource({
            // kept as written: canonical already
            "100m, false, 100m", "64Mi, false, 64Mi", "1Gi, false, 1Gi", "1500, false, 1500", "+100m, false, +100m",
            "1023Ki, false, 1023Ki", "0, false, 0", "1e3, false, 1e3",
            // rewritten: trailing 000, leading zero, scale not a multiple of 3, binary number divisible by 8
            "1000m, false, 1", "2000, false, 2k", "0.5, false, 500m", "1.0, false, 1", "1024Mi, false, 1Gi",
            "2048Ki, false, 2Mi", "8Ki, false, 8Ki", "1.5Gi, false, 1536Mi", "0.5Ki, false, 512", "1.5e3, false, 1500",
            // Go strips leading zeros before its canonical-form check, so it keeps this string as written
            "00100m, false, 00100m",
            // finer than nano rounds up to 1n; defaulting of resource lists rounds up to milli
            "0.1n, false, 1n", "1u, false, 1u", "1u, true, 1m", "1500u, true, 2m", "100m, true, 100m",
            // not a quantity: left as it is
            "abc, false, abc"})
    void quantities(String in, boolean roundUpMilli, String out) {
        assertEquals(out, GoQuantity.marshal(in, roundUpMilli));
    }
}
