package dev.kruisevertx.webhook.certs;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/** PEM encoding and decoding of keys and certificates through BouncyCastle. */
public final class Pem {
    private Pem() {
    }

    public static String write(Object keyOrCertificate) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(keyOrCertificate);
        } catch (IOException e) {
            throw new CertificateException("cannot PEM-encode " + keyOrCertificate.getClass().getSimpleName(), e);
        }
        return out.toString();
    }

    public static X509Certificate readCertificate(String pem, String what) {
        Object parsed = parse(pem, what);
        if (!(parsed instanceof X509CertificateHolder holder)) {
            throw new CertificateException(what + " is not a PEM certificate");
        }
        try {
            return new JcaX509CertificateConverter().getCertificate(holder);
        } catch (java.security.cert.CertificateException e) {
            throw new CertificateException(what + " cannot be decoded: " + e.getMessage(), e);
        }
    }

    /** Reads PKCS#1 ("RSA PRIVATE KEY") or PKCS#8 ("PRIVATE KEY") keys. */
    public static PrivateKey readPrivateKey(String pem, String what) {
        Object parsed = parse(pem, what);
        try {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            if (parsed instanceof PEMKeyPair pair) {
                return converter.getKeyPair(pair).getPrivate();
            }
            if (parsed instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            }
        } catch (IOException e) {
            throw new CertificateException(what + " cannot be decoded: " + e.getMessage(), e);
        }
        throw new CertificateException(what + " is not a PEM private key");
    }

    private static Object parse(String pem, String what) {
        if (pem == null || pem.isBlank()) {
            throw new CertificateException(what + " is empty");
        }
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object o = parser.readObject();
            if (o == null) {
                throw new CertificateException(what + " contains no PEM block");
            }
            return o;
        } catch (IOException e) {
            throw new CertificateException(what + " is not valid PEM: " + e.getMessage(), e);
        }
    }
}
