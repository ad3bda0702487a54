package dev.kruisevertx.webhook.admission;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ReviewSizeTest {
    static byte[] bytes(String s) {
        return s.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void countsEveryValueAndFindsVersionAndUid() {
        ReviewSize size = ReviewSize.measure(bytes("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview',"
                + "'request':{'object':{'uid':'not-this','spec':{'containers':[{'name':'a'},{'name':'b'}]}},'uid':'u1'}}"),
                1000);
        // root, apiVersion, kind, request, object, uid, spec, containers, 2 containers, 2 names, request uid
        assertEquals(13, size.values());
        assertEquals("admission.k8s.io/v1", size.apiVersion());
        assertEquals("u1", size.uid(), "request.uid, not a nested uid");
    }

    @Test
    void stopsJustPastTheLimit() {
        StringBuilder array = new StringBuilder("[");
        for (int i = 0; i < 100_000; i++) {
            array.append(i == 0 ? "" : ",").append(i);
        }
        assertEquals(101, ReviewSize.measure(bytes(array.append("]").toString()), 100).values());
    }

    @Test
    void malformedJsonEndsTheCount() {
        ReviewSize size = ReviewSize.measure(bytes("{'apiVersion':'v',[[["), 1000);
        assertEquals(2, size.values());
        assertEquals("v", size.apiVersion());
        assertNull(size.uid());
        assertEquals(0, ReviewSize.measure(new byte[0], 10).values());
    }
}
