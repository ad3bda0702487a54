package dev.kruisevertx.webhook.certs;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Issues the webhook's self-signed CA (CN {@code webhook-cert-ca}, RSA-2048) and serving certificates for a
 * DNS name plus {@code localhost}, with BouncyCastle. Key generation costs tens to hundreds of milliseconds:
 * call it from a worker thread.
 */
public final class CertIssuer {
    public static final String CA_COMMON_NAME = "webhook-cert-ca";
    private static final int KEY_BITS = 2048;
    /** Tolerates clocks of other nodes running slightly behind. */
    private static final Duration BACKDATE = Duration.ofMinutes(5);

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public CertIssuer(Clock clock) {
        this.clock = clock;
    }

    public CertIssuer() {
        this(Clock.systemUTC());
    }

    /** A new CA and a serving certificate signed by it. */
    public CertBundle issueAll(String dnsName, Duration caValidity, Duration certValidity) {
        KeyPair ca = newKeyPair();
        X509Certificate caCert = selfSignedCa(ca, caValidity);
        return issueServing(Pem.write(ca.getPrivate()), Pem.write(caCert), ca.getPrivate(), caCert, dnsName, certValidity);
    }

    /** A new serving certificate signed by an existing CA, which is kept. */
    public CertBundle issueServing(CertBundle existingCa, String dnsName, Duration certValidity) {
        return issueServing(existingCa.caKeyPem(), existingCa.caCertPem(), existingCa.caKey(),
                existingCa.caCertificate(), dnsName, certValidity);
    }

    private CertBundle issueServing(String caKeyPem, String caCertPem, PrivateKey caKey, X509Certificate caCert,
                                    String dnsName, Duration certValidity) {
        if (dnsName == null || dnsName.isBlank()) {
            throw new CertificateException("the DNS name of the serving certificate must not be empty");
        }
        KeyPair serving = newKeyPair();
        X509Certificate cert = servingCertificate(caKey, caCert, serving.getPublic(), dnsName, certValidity);
        return new CertBundle(caKeyPem, caCertPem, Pem.write(serving.getPrivate()), Pem.write(cert));
    }

    KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(KEY_BITS, random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new CertificateException("cannot generate an RSA-" + KEY_BITS + " key: " + e.getMessage(), e);
        }
    }

    X509Certificate selfSignedCa(KeyPair ca, Duration validity) {
        Instant now = clock.instant();
        X500Name subject = new X500Name("CN=" + CA_COMMON_NAME);
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
                Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), subject, ca.getPublic());
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            builder.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(ca.getPublic()));
        } catch (CertIOException | GeneralSecurityException e) {
            throw new CertificateException("cannot build the CA certificate: " + e.getMessage(), e);
        }
        return sign(builder, ca.getPrivate());
    }

    X509Certificate servingCertificate(PrivateKey caKey, X509Certificate caCert, PublicKey key, String dnsName,
                                       Duration validity) {
        Instant now = clock.instant();
        Instant notAfter = now.plus(validity);
        // A serving certificate never outlives the CA that signed it.
        if (notAfter.isAfter(caCert.getNotAfter().toInstant())) {
            notAfter = caCert.getNotAfter().toInstant();
        }
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded()), serial(),
                Date.from(now.minus(BACKDATE)), Date.from(notAfter), new X500Name("CN=" + dnsName), key);
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            builder.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert));
            GeneralNames names = new GeneralNames(new GeneralName[]{
                    new GeneralName(GeneralName.dNSName, dnsName),
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
            });
            builder.addExtension(Extension.subjectAlternativeName, false, names);
        } catch (CertIOException | GeneralSecurityException e) {
            throw new CertificateException("cannot build the serving certificate: " + e.getMessage(), e);
        }
        return sign(builder, caKey);
    }

    private X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer) {
        try {
            ContentSigner contentSigner = new JcaContentSignerBuilder("SHA256withRSA").build(signer);
            return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
        } catch (OperatorCreationException | java.security.cert.CertificateException e) {
            throw new CertificateException("cannot sign a certificate: " + e.getMessage(), e);
        }
    }

    private BigInteger serial() {
        return new BigInteger(127, random).add(BigInteger.ONE);
    }
}
