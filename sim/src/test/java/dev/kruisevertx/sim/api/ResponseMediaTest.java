package dev.kruisevertx.sim.api;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Accept negotiation as kube-apiserver's: order, q weights, wildcards, shapes, and 406. */
class ResponseMediaTest {
    private static final String PROTO = KubeProtobuf.MEDIA_TYPE;

    @Test
    void firstWritableClauseByWeightWins() {
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate(null, true));
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate("  ", true));
        assertEquals(ResponseMedia.PROTOBUF, ResponseMedia.negotiate(PROTO + ",application/json", true));
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate(PROTO + ",application/json", false), "custom kinds");
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate("application/json, " + PROTO, true));
        assertEquals(ResponseMedia.PROTOBUF, ResponseMedia.negotiate("application/json;q=0.9, " + PROTO, true));
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate(PROTO + ";q=0, */*", true), "q=0 refuses");
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate("text/html, application/xhtml+xml, */*;q=0.8", true));
        assertEquals(ResponseMedia.YAML, ResponseMedia.negotiate("APPLICATION/YAML", true));
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate(PROTO + ";as=Table;g=meta.k8s.io;v=v1,application/json", true));
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate("application/json;as=Table;v=v1;g=meta.k8s.io", true));
        assertEquals(ResponseMedia.JSON, ResponseMedia.negotiate(PROTO + ";q=x, application/json", true),
                "an unreadable q counts as 0");
    }

    @Test
    void nothingWritableIs406() {
        ApiException e = assertThrows(ApiException.class, () -> ResponseMedia.negotiate("text/html", true));
        assertEquals(406, e.code());
        assertEquals("NotAcceptable", e.toStatus().path("reason").asText());
        assertEquals(406, assertThrows(ApiException.class, () -> ResponseMedia.negotiate(PROTO, false)).code());
        assertEquals(406, assertThrows(ApiException.class, () -> ResponseMedia.negotiate(",;,", true)).code());
        assertEquals(406, assertThrows(ApiException.class,
                () -> ResponseMedia.negotiate("x/y;" + "a=b;".repeat(10_000), true)).code());
    }
}
