package dev.kruisevertx.image;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class ImageReferenceTest {
    @ParameterizedTest
    @CsvSource({
            "nginx, nginx, latest",
            "nginx:1.25, nginx, 1.25",
            "docker.io/library/nginx:1.25, nginx, 1.25",
            "library/nginx, nginx, latest",
            "foo/bar:v1, foo/bar, v1",
            "docker.io/foo/bar, foo/bar, latest",
            "index.docker.io/foo/bar:x, foo/bar, x",
            "localhost:5000/app:v2, localhost:5000/app, v2",
            "localhost/app, localhost/app, latest",
            "registry.example.com/team/app:1.0-rc.1, registry.example.com/team/app, 1.0-rc.1",
            "127.0.0.1:5000/a/b/c:t, 127.0.0.1:5000/a/b/c, t",
            "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, nginx, "
                    + "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "nginx:1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, nginx, "
                    + "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    })
    void splitsIntoFamiliarNameAndTag(String ref, String name, String tag) {
        ImageReference r = ImageReference.parse(ref).get();
        assertEquals(name, r.name());
        assertEquals(tag, r.tag());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Nginx|repository name must be lowercase",
            "foo/Bar|repository name must be lowercase",
            "nginx:|invalid reference format",
            ":1|invalid reference format",
            "nginx 1|invalid reference format",
            "nginx:-bad|invalid reference format",
            "a//b|invalid reference format",
            "nginx@sha256:abc|invalid reference format",
            "-nginx|invalid reference format",
    })
    void refusesWhatTheReferenceLibraryRefuses(String ref, String error) {
        ImageReference.Result r = ImageReference.parse(ref);
        assertFalse(r.valid());
        assertEquals(error, r.error());
    }

    @org.junit.jupiter.api.Test
    void emptyAndTooLong() {
        assertEquals("repository name must have at least one component", ImageReference.parse("").error());
        assertEquals("repository name must not be more than 255 characters",
                ImageReference.parse("a".repeat(256)).error());
        assertEquals("nginx:1.25", ImageReference.parse("nginx:1.25").get().pullRef());
    }
}
