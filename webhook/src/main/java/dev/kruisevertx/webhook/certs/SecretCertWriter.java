package dev.kruisevertx.webhook.certs;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Keeps generated certificates in a Secret, under OpenKruise's keys, so every replica serves the same ones. */
public final class SecretCertWriter extends GeneratingCertWriter {
    public static final String CA_KEY = "ca-key.pem";
    public static final String CA_CERT = "ca-cert.pem";
    public static final String SERVER_KEY = "key.pem";
    public static final String SERVER_CERT = "cert.pem";
    public static final String TLS_KEY = CertSecret.TLS_KEY;
    public static final String TLS_CERT = CertSecret.TLS_CERT;

    private final CertSecret secret;

    public SecretCertWriter(KubernetesClient client, String namespace, String name, CertPolicy policy) {
        super(policy);
        this.secret = new CertSecret(client, namespace, name);
    }

    @Override
    protected Stored read() {
        Secret stored;
        try {
            stored = secret.resource().get();
        } catch (KubernetesClientException e) {
            throw new CertificateException("cannot read Secret " + describe() + ": " + e.getMessage(), e);
        }
        if (stored == null) {
            return Stored.absent();
        }
        Map<String, String> data = CertSecret.data(stored);
        String caKey = CertSecret.decode(data.get(CA_KEY));
        String caCert = CertSecret.decode(data.get(CA_CERT));
        String key = CertSecret.decode(data.get(SERVER_KEY));
        String cert = CertSecret.decode(data.get(SERVER_CERT));
        CertBundle bundle = caKey == null || caCert == null || key == null || cert == null
                ? null : new CertBundle(caKey, caCert, key, cert);
        return new Stored(true, bundle, stored.getMetadata().getResourceVersion());
    }

    @Override
    protected void create(CertBundle bundle) {
        Secret created = new SecretBuilder()
                .withNewMetadata().withNamespace(secret.namespace()).withName(secret.name()).endMetadata()
                .withType("Opaque")
                .withData(encode(bundle))
                .build();
        try {
            secret.resource(created).create();
        } catch (KubernetesClientException e) {
            throw writeFailed("create", "already exists", e);
        }
    }

    @Override
    protected void overwrite(CertBundle bundle, String version) {
        try {
            Secret current = secret.resource().get();
            if (current == null || (version != null && !version.equals(current.getMetadata().getResourceVersion()))) {
                throw new ConflictException("Secret " + describe() + " changed");
            }
            // Keep labels and annotations (the chart manages them); replace only the data.
            Secret updated = new SecretBuilder(current).withData(encode(bundle)).withStringData(null).build();
            secret.resource(updated).update();
        } catch (KubernetesClientException e) {
            throw writeFailed("update", "changed", e);
        }
    }

    /** A 409 means another replica wrote first ({@code conflict} says how); anything else is a failure. */
    private RuntimeException writeFailed(String verb, String conflict, KubernetesClientException e) {
        if (ApiErrors.isConflict(e)) {
            return new ConflictException("Secret " + describe() + " " + conflict);
        }
        return new CertificateException("cannot " + verb + " Secret " + describe() + ": " + e.getMessage(), e);
    }

    @Override
    protected String describe() {
        return secret.toString();
    }

    static Map<String, String> encode(CertBundle bundle) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(CA_KEY, b64(bundle.caKeyPem()));
        data.put(CA_CERT, b64(bundle.caCertPem()));
        data.put(SERVER_KEY, b64(bundle.keyPem()));
        data.put(SERVER_CERT, b64(bundle.certPem()));
        data.put(TLS_KEY, b64(bundle.keyPem()));
        data.put(TLS_CERT, b64(bundle.certPem()));
        return data;
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
