package org.fabricscope.app.live.prom;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collection;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Credentials and trust for a Prometheus server: the Authorization header from a bearer-token file or a
 * user and a password file (each at most {@link PromLimits#MAX_SECRET_BYTES}, the file's one line, trailing
 * newline dropped), and an SSL context that trusts the JDK's CAs plus those of a PEM file. A secret's
 * content never appears in a message.
 */
final class PromAuth {
    private PromAuth() {
    }

    /** {@code Bearer <token>}, {@code Basic <base64>}, or null without auth. */
    static String header(PromTarget t) throws PromException {
        if (t.bearerTokenFile() != null) {
            return "Bearer " + secret("--prometheus-bearer-token-file", t.bearerTokenFile());
        }
        if (t.user() != null) {
            String pass = secret("--prometheus-password-file", t.passwordFile());
            return "Basic " + Base64.getEncoder().encodeToString((t.user() + ":" + pass).getBytes(StandardCharsets.UTF_8));
        }
        return null;
    }

    private static String secret(String option, Path file) throws PromException {
        byte[] b = read(option, file, PromLimits.MAX_SECRET_BYTES, "PromLimits.MAX_SECRET_BYTES");
        String s = new String(b, StandardCharsets.UTF_8).strip();
        if (s.isEmpty()) {
            throw new PromException(option + " " + file + " is empty");
        }
        if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0 || s.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new PromException(option + " " + file + " holds more than one line or control characters; "
                    + "it must hold the secret alone");
        }
        return s;
    }

    private static byte[] read(String option, Path file, int max, String limit) throws PromException {
        try {
            if (!Files.isRegularFile(file)) {
                throw new PromException(option + " " + file + " is not a readable file");
            }
            if (Files.size(file) > max) {
                throw new PromException(option + " " + file + " is larger than " + (max >> 10) + " KiB (" + limit + ")");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new PromException(option + " " + file + " cannot be read: " + PromHttp.oneLine(e.getMessage()));
        }
    }

    /** TLS that trusts the JDK's default CAs and the certificates of {@code caFile} (PEM). */
    static SSLContext trusting(Path caFile) throws PromException {
        byte[] pem = read("--prometheus-ca-file", caFile, PromLimits.MAX_CA_BYTES, "PromLimits.MAX_CA_BYTES");
        try {
            Collection<? extends Certificate> certs;
            try (InputStream in = new ByteArrayInputStream(pem)) {
                certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (certs.isEmpty()) {
                throw new PromException("--prometheus-ca-file " + caFile + " holds no PEM certificate");
            }
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            defaults.init((KeyStore) null);
            for (X509Certificate c : ((X509TrustManager) defaults.getTrustManagers()[0]).getAcceptedIssuers()) {
                ks.setCertificateEntry("jdk-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new PromException("--prometheus-ca-file " + caFile + " is not a PEM certificate file: "
                    + PromHttp.oneLine(e.getMessage()));
        }
    }
}
