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
    public static final String TLS_KEY = "tls.key";
    public static final String TLS_CERT = "tls.crt";

    private final KubernetesClient client;
    private final String namespace;
    private final String name;

    public SecretCertWriter(KubernetesClient client, String namespace, String name, CertPolicy policy) {
        super(policy);
        this.client = client;
        this.namespace = namespace;
        this.name = name;
    }

    @Override
    protected Stored read() {
        Secret secret;
        try {
            secret = client.secrets().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new CertificateException("cannot read Secret " + describe() + ": " + e.getMessage(), e);
        }
        if (secret == null) {
            return Stored.absent();
        }
        Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
        String caKey = decode(data.get(CA_KEY));
        String caCert = decode(data.get(CA_CERT));
        String key = decode(data.get(SERVER_KEY));
        String cert = decode(data.get(SERVER_CERT));
        CertBundle bundle = caKey == null || caCert == null || key == null || cert == null
                ? null : new CertBundle(caKey, caCert, key, cert);
        return new Stored(true, bundle, secret.getMetadata().getResourceVersion());
    }

    @Override
    protected void create(CertBundle bundle) {
        Secret secret = new SecretBuilder()
                .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                .withType("Opaque")
                .withData(encode(bundle))
                .build();
        try {
            client.secrets().inNamespace(namespace).resource(secret).create();
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                throw new ConflictException("Secret " + describe() + " already exists");
            }
            throw new CertificateException("cannot create Secret " + describe() + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void overwrite(CertBundle bundle, String version) {
        try {
            Secret current = client.secrets().inNamespace(namespace).withName(name).get();
            if (current == null || (version != null && !version.equals(current.getMetadata().getResourceVersion()))) {
                throw new ConflictException("Secret " + describe() + " changed");
            }
            // Keep labels and annotations (the chart manages them); replace only the data.
            Secret updated = new SecretBuilder(current).withData(encode(bundle)).withStringData(null).build();
            client.secrets().inNamespace(namespace).resource(updated).update();
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                throw new ConflictException("Secret " + describe() + " changed");
            }
            throw new CertificateException("cannot update Secret " + describe() + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected String describe() {
        return namespace + "/" + name;
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
}
