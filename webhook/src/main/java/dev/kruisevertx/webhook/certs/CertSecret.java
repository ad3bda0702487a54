package dev.kruisevertx.webhook.certs;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The Secret that holds the webhook certificates, as the Secret writer and the external-certificate reader both
 * address it: its namespace and name, and its data keys decoded. Blocking: call from a worker thread.
 */
record CertSecret(KubernetesClient client, String namespace, String name) {
    /** Keys of a {@code kubernetes.io/tls} Secret; OpenKruise writes them next to its own keys. */
    static final String TLS_CERT = "tls.crt";
    static final String TLS_KEY = "tls.key";

    Resource<Secret> resource() {
        return client.secrets().inNamespace(namespace).withName(name);
    }

    /** {@code secret} (which must carry this namespace and name) as a resource to create or update. */
    Resource<Secret> resource(Secret secret) {
        return client.secrets().inNamespace(namespace).resource(secret);
    }

    /** The data of {@code secret} (none when it has no data). */
    static Map<String, String> data(Secret secret) {
        return secret.getData() == null ? Map.of() : secret.getData();
    }

    /** A base64 data value as text, or null when it is absent or not base64. */
    static String decode(String base64) {
        if (base64 == null || base64.isEmpty()) {
            return null;
        }
        try {
            return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code namespace/name}, for messages. */
    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
