package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.cri.v1.AuthConfig;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which credentials of which pull secrets an image is pulled with, and what a broken secret reports. */
class RegistryAuthsTest {

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static Secret configJson(String name, String json) {
        return new SecretBuilder().withNewMetadata().withNamespace("kruise-daemon-config").withName(name).endMetadata()
                .withType("kubernetes.io/dockerconfigjson").withData(Map.of(".dockerconfigjson", b64(json))).build();
    }

    static Secret dockercfg(String name, String json) {
        return new SecretBuilder().withNewMetadata().withNamespace("kruise-daemon-config").withName(name).endMetadata()
                .withType("kubernetes.io/dockercfg").withData(Map.of(".dockercfg", b64(json))).build();
    }

    static String auths(String key, String user, String password) {
        return "{\"auths\":{\"" + key + "\":{\"auth\":\"" + b64(user + ":" + password) + "\"}}}";
    }

    /** key in the secret | image | matches */
    @ParameterizedTest(name = "{0} for {1}: {2}")
    @CsvSource({
            "127.0.0.1:5000, 127.0.0.1:5000/test/busybox, true",
            "http://127.0.0.1:5000, 127.0.0.1:5000/test/busybox, true",
            "https://127.0.0.1:5000/, 127.0.0.1:5000/test/busybox, true",
            "127.0.0.1:5001, 127.0.0.1:5000/test/busybox, false",
            "127.0.0.1, 127.0.0.1:5000/test/busybox, false",
            "https://index.docker.io/v1/, busybox, true",
            "https://index.docker.io/v1/, library/busybox, true",
            "docker.io, nginx, true",
            "index.docker.io, docker.io/library/nginx, true",
            "registry-1.docker.io, myorg/app, true",
            "quay.io, busybox, false",
            "docker.io, quay.io/app, false",
            "registry.example.com/team, registry.example.com/team/app, true",
            "registry.example.com/team, registry.example.com/teamx/app, false",
            "registry.example.com/team/app, registry.example.com/team/app, true",
            "registry.example.com/other, registry.example.com/team/app, false",
            "*.example.com, registry.example.com/app, true",
            "*.example.com, example.com/app, false",
            "*.example.com, a.b.example.com/app, false",
            "REGISTRY.example.com, registry.example.com/app, true",
            "localhost:5000, localhost:5000/app, true",
            "localhost, localhost/app, true",
            "registry.example.com, registry.example.com/app@sha256:abc, true",
    })
    void keyMatching(String key, String image, boolean matches) {
        RegistryAuths.Result r = RegistryAuths.forImage(List.of(configJson("s", auths(key, "u", "p"))), image);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        assertEquals(matches ? List.of(AuthConfig.newBuilder().setUsername("u").setPassword("p").build()) : List.of(),
                r.auths());
    }

    /** secret payload | the problem reported (null: none) — never the payload itself */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not json at all s3cr3t                      | is not valid JSON in .dockerconfigjson",
            "{\"auths\": 5}                               | has no \"auths\" object in .dockerconfigjson",
            "{}                                          | has no \"auths\" object in .dockerconfigjson",
            "{\"auths\":{\"r.io\":5}}                       | entry for r.io is not an object",
            "{\"auths\":{\"r.io\":{\"auth\":\"%%%\"}}}          | entry for r.io has an \"auth\" that is not base64",
            "{\"auths\":{\"r.io\":{\"auth\":\"czNjcjN0\"}}}     | entry for r.io has an \"auth\" that is not user:password",
            "{\"auths\":{\"r.io\":{\"username\":7}}}          | has a non-string \"username\"",
    })
    void brokenSecretsAreNamedNotShown(String payload, String problem) {
        RegistryAuths.Result r = RegistryAuths.forImage(List.of(configJson("bad", payload)), "r.io/app");
        assertEquals(List.of("pull secret kruise-daemon-config/bad " + problem), r.problems());
        assertTrue(r.auths().isEmpty());
        assertFalse(r.problems().get(0).contains("s3cr3t"));
    }

    @org.junit.jupiter.api.Test
    void secretWithoutDockerKeysIsAProblem() {
        Secret opaque = new SecretBuilder().withNewMetadata().withNamespace("ns").withName("opaque").endMetadata()
                .withType("Opaque").withData(Map.of("password", b64("x"))).build();
        assertEquals(List.of("pull secret ns/opaque has neither .dockerconfigjson nor .dockercfg (type Opaque)"),
                RegistryAuths.forImage(List.of(opaque), "r.io/app").problems());
        Secret notBase64 = new SecretBuilder().withNewMetadata().withNamespace("ns").withName("raw").endMetadata()
                .withData(Map.of(".dockerconfigjson", "{not-base64}")).build();
        assertEquals(List.of("pull secret ns/raw has .dockerconfigjson that is not base64"),
                RegistryAuths.forImage(List.of(notBase64), "r.io/app").problems());
    }

    @org.junit.jupiter.api.Test
    void dockercfgUsernamePasswordAndOrderMostSpecificFirst() {
        Secret old = dockercfg("old", "{\"r.io\":{\"username\":\"wide\",\"password\":\"w\"}}");
        Secret path = configJson("path", auths("r.io/team", "narrow", "n"));
        Secret dup = configJson("dup", auths("https://r.io/", "wide", "w"));
        RegistryAuths.Result r = RegistryAuths.forImage(List.of(old, path, dup), "r.io/team/app");
        assertEquals(List.of("narrow", "wide"), r.auths().stream().map(AuthConfig::getUsername).toList());
        assertTrue(r.problems().isEmpty());
        // a good secret still counts next to a broken one
        RegistryAuths.Result mixed = RegistryAuths.forImage(List.of(configJson("bad", "nope"), old), "r.io/x");
        assertEquals(List.of("wide"), mixed.auths().stream().map(AuthConfig::getUsername).toList());
        assertEquals(1, mixed.problems().size());
    }

    @ParameterizedTest(name = "{0}:{1} -> {2}")
    @CsvSource({
            "busybox, 1, busybox:1, docker.io/library/busybox",
            "127.0.0.1:5000/test/busybox, 1, 127.0.0.1:5000/test/busybox:1, 127.0.0.1:5000/test/busybox",
            "r.io/app, sha256:abcd, r.io/app@sha256:abcd, r.io/app",
            "myorg/app, v2, myorg/app:v2, docker.io/myorg/app",
            "index.docker.io/library/nginx, latest, index.docker.io/library/nginx:latest, docker.io/library/nginx",
    })
    void references(String image, String tag, String ref, String repository) {
        assertEquals(ref, ImageRefs.ref(image, tag));
        assertEquals(repository, ImageRefs.repository(image));
    }
}
