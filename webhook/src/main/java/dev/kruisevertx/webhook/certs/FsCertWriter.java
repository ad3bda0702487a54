package dev.kruisevertx.webhook.certs;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * Keeps generated certificates as PEM files in a directory (WEBHOOK_CERT_DIR), under the same names as the
 * Secret keys. Used with {@code WEBHOOK_CERT_WRITER=fs} or when WEBHOOK_HOST is set (the manager runs
 * outside the cluster).
 */
public final class FsCertWriter extends GeneratingCertWriter {
    private final Path dir;

    public FsCertWriter(Path dir, CertPolicy policy) {
        super(policy);
        this.dir = dir;
    }

    @Override
    protected Stored read() {
        if (!Files.exists(dir.resolve(SecretCertWriter.CA_CERT))) {
            return Stored.absent();
        }
        String caKey = readOrNull(SecretCertWriter.CA_KEY);
        String caCert = readOrNull(SecretCertWriter.CA_CERT);
        String key = readOrNull(SecretCertWriter.SERVER_KEY);
        String cert = readOrNull(SecretCertWriter.SERVER_CERT);
        CertBundle bundle = caKey == null || caCert == null || key == null || cert == null
                ? null : new CertBundle(caKey, caCert, key, cert);
        return new Stored(true, bundle, null);
    }

    @Override
    protected void create(CertBundle bundle) {
        if (Files.exists(dir.resolve(SecretCertWriter.CA_CERT))) {
            throw new ConflictException("certificates already exist in " + dir);
        }
        writeAll(bundle);
    }

    @Override
    protected void overwrite(CertBundle bundle, String version) {
        writeAll(bundle);
    }

    @Override
    protected String describe() {
        return dir.toString();
    }

    private void writeAll(CertBundle bundle) {
        try {
            Files.createDirectories(dir);
            // The CA certificate is written last: its presence is what marks the directory as populated.
            Map<String, String> files = new java.util.LinkedHashMap<>();
            files.put(SecretCertWriter.CA_KEY, bundle.caKeyPem());
            files.put(SecretCertWriter.SERVER_KEY, bundle.keyPem());
            files.put(SecretCertWriter.SERVER_CERT, bundle.certPem());
            files.put(SecretCertWriter.TLS_KEY, bundle.keyPem());
            files.put(SecretCertWriter.TLS_CERT, bundle.certPem());
            files.put(SecretCertWriter.CA_CERT, bundle.caCertPem());
            for (Map.Entry<String, String> f : files.entrySet()) {
                writeAtomically(dir.resolve(f.getKey()), f.getValue());
            }
        } catch (IOException e) {
            throw new CertificateException("cannot write certificates to " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeAtomically(Path target, String content) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        Files.writeString(tmp, content);
        try {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private String readOrNull(String file) {
        try {
            return Files.readString(dir.resolve(file));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new CertificateException("cannot read " + dir.resolve(file) + ": " + e.getMessage(), e);
        }
    }
}
