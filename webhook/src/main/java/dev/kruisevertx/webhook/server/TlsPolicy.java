package dev.kruisevertx.webhook.server;

import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The TLS the webhook offers: TLS 1.3, and TLS 1.2 with forward-secret (ECDHE) AEAD suites only, the set Go's
 * crypto/tls (and so controller-runtime's webhook server) prefers. Static-RSA key exchange, CBC and SHA-1 MAC suites
 * and older protocol versions are refused at the handshake. The same policy is applied when a renewed certificate is
 * swapped in, which replaces the server's whole SSL options.
 */
public final class TlsPolicy {
    public static final Set<String> PROTOCOLS = new LinkedHashSet<>(List.of("TLSv1.3", "TLSv1.2"));

    /** TLS 1.3 suites (all AEAD, always forward-secret), then the TLS 1.2 ones; ECDSA suites for external ECDSA keys. */
    public static final List<String> CIPHER_SUITES = List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    /** A client that has not finished the handshake by then is dropped (before it counts as a connection). */
    public static final long HANDSHAKE_TIMEOUT_SECONDS = 10;

    private TlsPolicy() {
    }

    static HttpServerOptions apply(HttpServerOptions options) {
        options.setSsl(true)
                .setEnabledSecureTransportProtocols(PROTOCOLS)
                .setSslHandshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS)
                .setSslHandshakeTimeoutUnit(TimeUnit.SECONDS);
        CIPHER_SUITES.forEach(options::addEnabledCipherSuite);
        return options;
    }

    static ServerSSLOptions sslOptions(KeyCertOptions keyCert) {
        ServerSSLOptions options = new ServerSSLOptions()
                .setKeyCertOptions(keyCert)
                .setEnabledSecureTransportProtocols(PROTOCOLS)
                .setSslHandshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS)
                .setSslHandshakeTimeoutUnit(TimeUnit.SECONDS);
        CIPHER_SUITES.forEach(options::addEnabledCipherSuite);
        return options;
    }
}
