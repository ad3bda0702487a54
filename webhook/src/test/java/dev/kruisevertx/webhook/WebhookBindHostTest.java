package dev.kruisevertx.webhook;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Where the webhook's HTTPS server listens: loopback when it is advertised there, all interfaces otherwise. */
class WebhookBindHostTest {
    private static String bindHost(Map<String, String> env) {
        return WebhookConfig.fromEnv(env, false).bindHost();
    }

    @Test
    void inAClusterEveryInterface() {
        // The Service reaches the pod's IP.
        assertEquals("0.0.0.0", bindHost(Map.of()));
    }

    @Test
    void advertisedOnLoopbackListensOnLoopbackOnly() {
        assertEquals("127.0.0.1", bindHost(Map.of("WEBHOOK_HOST", "127.0.0.1")));
        assertEquals("127.0.0.2", bindHost(Map.of("WEBHOOK_HOST", "127.0.0.2")));
        assertEquals("::1", bindHost(Map.of("WEBHOOK_HOST", "::1")));
        assertEquals("localhost", bindHost(Map.of("WEBHOOK_HOST", "localhost")));
    }

    @Test
    void advertisedUnderAnotherNameOrAddressListensEverywhere() {
        // A manager outside the cluster: the name may stand for any of the machine's addresses (no DNS lookup here).
        assertEquals("0.0.0.0", bindHost(Map.of("WEBHOOK_HOST", "manager.example.com")));
        assertEquals("0.0.0.0", bindHost(Map.of("WEBHOOK_HOST", "10.0.0.5")));
    }
}
