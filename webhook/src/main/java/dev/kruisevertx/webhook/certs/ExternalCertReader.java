package dev.kruisevertx.webhook.certs;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.Map;

/**
 * Certificates provided by someone else (gate EnableExternalCerts): read from the Secret's {@code ca.crt},
 * {@code tls.crt} and {@code tls.key}; never generated or renewed here.
 */
public final class ExternalCertReader implements CertWriter {
    public static final String CA_CERT = "ca.crt";
    public static final String CA_KEY = "ca.key";
    public static final String TLS_CERT = CertSecret.TLS_CERT;
    public static final String TLS_KEY = CertSecret.TLS_KEY;

    private final CertSecret secret;

    public ExternalCertReader(KubernetesClient client, String namespace, String name) {
        this.secret = new CertSecret(client, namespace, name);
    }

    @Override
    public CertBundle ensure(String dnsName) {
        Secret provided;
        try {
            provided = secret.resource().get();
        } catch (KubernetesClientException e) {
            throw new CertificateException("cannot read external certificate Secret " + secret + ": "
                    + e.getMessage(), e);
        }
        if (provided == null) {
            throw new CertificateException("external certificate Secret " + secret
                    + " not found: with EnableExternalCerts the certificates must be provided, they are never generated");
        }
        Map<String, String> data = CertSecret.data(provided);
        String caCert = require(data, CA_CERT);
        String cert = require(data, TLS_CERT);
        String key = require(data, TLS_KEY);
        CertBundle bundle = new CertBundle(CertSecret.decode(data.get(CA_KEY)), caCert, key, cert);
        if (!CertValidator.keyMatches(bundle.servingKey(), bundle.servingCertificate().getPublicKey())) {
            throw new CertificateException("external certificate Secret " + secret + ": "
                    + TLS_KEY + " does not belong to " + TLS_CERT);
        }
        try {
            bundle.servingCertificate().verify(bundle.caCertificate().getPublicKey());
        } catch (Exception e) {
            throw new CertificateException("external certificate Secret " + secret + ": "
                    + TLS_CERT + " is not signed by " + CA_CERT);
        }
        return bundle;
    }

    private String require(Map<String, String> data, String key) {
        String value = CertSecret.decode(data.get(key));
        if (value == null) {
            throw new CertificateException("external certificate Secret " + secret
                    + " has no key " + key + " (needs " + CA_CERT + ", " + TLS_CERT + ", " + TLS_KEY + ")");
        }
        return value;
    }

    @Override
    public boolean generates() {
        return false;
    }
}
