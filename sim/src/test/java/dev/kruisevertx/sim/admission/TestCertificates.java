package dev.kruisevertx.sim.admission;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.StringWriter;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;

/** A self-signed serving certificate for a test webhook, in PEM. */
record TestCertificates(String certPem, String keyPem) {
    static TestCertificates selfSigned(String... dnsNames) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair kp = gen.generateKeyPair();
        X500Name subject = new X500Name("CN=" + dnsNames[0]);
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minus(1, ChronoUnit.HOURS)), Date.from(now.plus(1, ChronoUnit.DAYS)), subject, kp.getPublic());
        GeneralName[] names = new GeneralName[dnsNames.length + 1];
        for (int i = 0; i < dnsNames.length; i++) {
            names[i] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
        }
        names[dnsNames.length] = new GeneralName(GeneralName.iPAddress, "127.0.0.1");
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        X509CertificateHolder holder = b.build(new JcaContentSignerBuilder("SHA256withRSA").build(kp.getPrivate()));
        return new TestCertificates(pem(new org.bouncycastle.cert.jcajce.JcaX509CertificateConverter().getCertificate(holder)), pem(kp.getPrivate()));
    }

    private static String pem(Object o) throws Exception {
        StringWriter sw = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(sw)) {
            w.writeObject(o);
        }
        return sw.toString();
    }
}
