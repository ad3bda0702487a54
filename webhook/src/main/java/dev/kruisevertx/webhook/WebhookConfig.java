package dev.kruisevertx.webhook;

import dev.kruisevertx.cli.GoDuration;
import dev.kruisevertx.webhook.certs.RenewBefore;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.TemporalAmount;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything the webhook needs to know about its environment, with OpenKruise's environment variable
 * names and defaults. Built once by the manager from {@code System.getenv()} and its flags; tests build
 * it directly and shorten the certificate lifetimes so rotation happens in seconds.
 *
 * @param namespace          POD_NAMESPACE: where the Secret lives and the Service is referenced
 * @param serviceName        SERVICE_NAME: the webhook Service written into the configurations
 * @param secretName         SECRET_NAME: the certificate Secret
 * @param host               WEBHOOK_HOST, or null: when set, configurations get {@code url: https://HOST:PORT/PATH}
 * @param port               WEBHOOK_PORT: the HTTPS port of this process
 * @param certDir            WEBHOOK_CERT_DIR: where the filesystem writer keeps the PEM files
 * @param certWriter         which writer maintains the certificates
 * @param renewBefore        CERTS_RENEW_BEFORE: renew certificates that expire within this
 * @param certValidity       lifetime of a generated serving certificate (OpenKruise: 10 years)
 * @param caValidity         lifetime of a generated CA (OpenKruise: 10 years)
 * @param caMinRemaining     a CA is reused for a new serving certificate only if it stays valid this long
 * @param initializeTimeout  --webhook-initialize-timeout: startup fails if the webhook is not ready by then
 * @param maxBodyBytes       largest accepted request body
 * @param resyncPeriod       how often certificates and configurations are re-checked without any event
 * @param kruisePodReadinessGate feature gate KruisePodReadinessGate: readiness gate on every pod
 */
public record WebhookConfig(
        String namespace,
        String serviceName,
        String secretName,
        String host,
        int port,
        Path certDir,
        CertWriterType certWriter,
        TemporalAmount renewBefore,
        Duration certValidity,
        Duration caValidity,
        Duration caMinRemaining,
        Duration initializeTimeout,
        long maxBodyBytes,
        Duration resyncPeriod,
        boolean kruisePodReadinessGate) {

    public static final int DEFAULT_PORT = 9876;
    public static final Duration DEFAULT_INITIALIZE_TIMEOUT = Duration.ofSeconds(60);
    /** Twice kube-apiserver's 3 MiB object limit plus room: see {@link dev.kruisevertx.webhook.server.ServerLimits}. */
    public static final long DEFAULT_MAX_BODY_BYTES = dev.kruisevertx.webhook.server.ServerLimits.DEFAULT_MAX_BODY_BYTES;
    public static final Duration TEN_YEARS = Duration.ofDays(3650);

    /** How the certificates are obtained: generated into a Secret, generated into a directory, or provided. */
    public enum CertWriterType { SECRET, FS, EXTERNAL }

    /** The environment variables read as plain text, each with OpenKruise's default for an unset or blank value. */
    private enum TextSetting {
        POD_NAMESPACE("kruise-system"),
        SERVICE_NAME("kruise-webhook-service"),
        SECRET_NAME("kruise-webhook-certs"),
        WEBHOOK_CERT_DIR("/tmp/kruise-webhook-certs");

        private final String fallback;

        TextSetting(String fallback) {
            this.fallback = fallback;
        }

        String read(Map<String, String> env) {
            String value = env.get(name());
            return value == null || value.isBlank() ? fallback : value.trim();
        }
    }

    public WebhookConfig {
        require(namespace, "namespace");
        require(serviceName, "serviceName");
        require(secretName, "secretName");
        if (host != null && host.isBlank()) {
            host = null;
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("WEBHOOK_PORT must be between 1 and 65535 (0 picks a free port), got " + port);
        }
        if (certWriter == null || certDir == null || renewBefore == null || certValidity == null
                || caValidity == null || caMinRemaining == null || initializeTimeout == null || resyncPeriod == null) {
            throw new IllegalArgumentException("webhook configuration is missing a value");
        }
        if (maxBodyBytes <= 0) {
            throw new IllegalArgumentException("maximum body size must be positive, got " + maxBodyBytes);
        }
    }

    private static void require(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("webhook configuration: " + name + " must not be empty");
        }
    }

    /** OpenKruise's defaults with no environment at all. */
    public static WebhookConfig defaults() {
        return fromEnv(Map.of(), false);
    }

    /**
     * Reads POD_NAMESPACE, SERVICE_NAME, SECRET_NAME, WEBHOOK_HOST, WEBHOOK_PORT, WEBHOOK_CERT_DIR,
     * WEBHOOK_CERT_WRITER and CERTS_RENEW_BEFORE. The writer is chosen as OpenKruise does: external certs
     * (gate EnableExternalCerts) win; then {@code WEBHOOK_CERT_WRITER=fs}, or WEBHOOK_HOST set with no
     * explicit writer, selects the filesystem; otherwise the Secret.
     *
     * @throws IllegalArgumentException with the variable name when a value cannot be parsed
     */
    public static WebhookConfig fromEnv(Map<String, String> env, boolean enableExternalCerts) {
        String host = env.get("WEBHOOK_HOST");
        String writer = env.getOrDefault("WEBHOOK_CERT_WRITER", "").trim().toLowerCase(Locale.ROOT);
        CertWriterType type;
        if (enableExternalCerts) {
            type = CertWriterType.EXTERNAL;
        } else if (writer.equals("fs") || (writer.isEmpty() && host != null && !host.isBlank())) {
            type = CertWriterType.FS;
        } else if (writer.isEmpty() || writer.equals("secret")) {
            type = CertWriterType.SECRET;
        } else {
            throw new IllegalArgumentException("WEBHOOK_CERT_WRITER must be 'secret' or 'fs', got '" + writer + "'");
        }
        int port;
        String portText = env.getOrDefault("WEBHOOK_PORT", "").trim();
        try {
            port = portText.isEmpty() ? DEFAULT_PORT : Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("WEBHOOK_PORT must be a number, got '" + portText + "'");
        }
        String renew = env.getOrDefault("CERTS_RENEW_BEFORE", "").trim();
        TemporalAmount renewBefore = renew.isEmpty() ? RenewBefore.DEFAULT : RenewBefore.parse(renew);
        return new WebhookConfig(
                TextSetting.POD_NAMESPACE.read(env),
                TextSetting.SERVICE_NAME.read(env),
                TextSetting.SECRET_NAME.read(env),
                host,
                port,
                Path.of(TextSetting.WEBHOOK_CERT_DIR.read(env)),
                type,
                renewBefore,
                TEN_YEARS,
                TEN_YEARS,
                Duration.ofDays(365),
                DEFAULT_INITIALIZE_TIMEOUT,
                DEFAULT_MAX_BODY_BYTES,
                Duration.ofMinutes(1),
                false);
    }

    /**
     * Applies the manager flags this module understands ({@code --webhook-initialize-timeout=60s} or
     * {@code --webhook-initialize-timeout 60s}); other arguments are left to the manager.
     */
    public WebhookConfig withFlags(List<String> args) {
        WebhookConfig result = this;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String flag = "--webhook-initialize-timeout";
            if (arg.equals(flag) || arg.equals("-webhook-initialize-timeout")) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(flag + " needs a value such as 60s");
                }
                result = result.withInitializeTimeout(parseGoDuration(args.get(++i), flag));
            } else if (arg.startsWith(flag + "=")) {
                result = result.withInitializeTimeout(parseGoDuration(arg.substring(flag.length() + 1), flag));
            }
        }
        return result;
    }

    /** Parses a Go-style duration such as {@code 60s}, {@code 1m30s} or {@code 500ms}; errors name {@code what}. */
    public static Duration parseGoDuration(String text, String what) {
        try {
            return GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
        }
    }

    /** The DNS name the serving certificate is issued for: WEBHOOK_HOST, else {@code <service>.<namespace>.svc}. */
    public String dnsName() {
        return host != null ? host : serviceName + "." + namespace + ".svc";
    }

    /**
     * The interface the HTTPS server binds: WEBHOOK_HOST when it is a loopback address (a webhook advertised on
     * loopback is reachable there only, as in {@code demo}), else all interfaces (in a cluster the Service reaches
     * the pod's IP; outside, WEBHOOK_HOST may be a name for any of the machine's addresses).
     */
    public String bindHost() {
        return host != null && isLoopback(host) ? host : "0.0.0.0";
    }

    private static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        // Literals only: a host name would need a DNS lookup, and names are not bound to loopback here.
        if (!host.matches("[0-9.]+") && !host.contains(":")) {
            return false;
        }
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    public WebhookConfig withInitializeTimeout(Duration timeout) {
        return new WebhookConfig(namespace, serviceName, secretName, host, port, certDir, certWriter, renewBefore,
                certValidity, caValidity, caMinRemaining, timeout, maxBodyBytes, resyncPeriod, kruisePodReadinessGate);
    }

    public WebhookConfig withPort(int newPort) {
        return new WebhookConfig(namespace, serviceName, secretName, host, newPort, certDir, certWriter, renewBefore,
                certValidity, caValidity, caMinRemaining, initializeTimeout, maxBodyBytes, resyncPeriod, kruisePodReadinessGate);
    }

    public WebhookConfig withHost(String newHost) {
        return new WebhookConfig(namespace, serviceName, secretName, newHost, port, certDir, certWriter, renewBefore,
                certValidity, caValidity, caMinRemaining, initializeTimeout, maxBodyBytes, resyncPeriod, kruisePodReadinessGate);
    }

    public WebhookConfig withCertWriter(CertWriterType type, Path dir) {
        return new WebhookConfig(namespace, serviceName, secretName, host, port, dir, type, renewBefore,
                certValidity, caValidity, caMinRemaining, initializeTimeout, maxBodyBytes, resyncPeriod, kruisePodReadinessGate);
    }

    /** Certificate lifetimes; tests use seconds here to see rotation. */
    public WebhookConfig withCertLifetimes(Duration newCertValidity, Duration newCaValidity, Duration newCaMinRemaining,
                                           TemporalAmount newRenewBefore) {
        return new WebhookConfig(namespace, serviceName, secretName, host, port, certDir, certWriter, newRenewBefore,
                newCertValidity, newCaValidity, newCaMinRemaining, initializeTimeout, maxBodyBytes, resyncPeriod,
                kruisePodReadinessGate);
    }

    public WebhookConfig withMaxBodyBytes(long bytes) {
        return new WebhookConfig(namespace, serviceName, secretName, host, port, certDir, certWriter, renewBefore,
                certValidity, caValidity, caMinRemaining, initializeTimeout, bytes, resyncPeriod, kruisePodReadinessGate);
    }

    public WebhookConfig withResyncPeriod(Duration period) {
        return new WebhookConfig(namespace, serviceName, secretName, host, port, certDir, certWriter, renewBefore,
                certValidity, caValidity, caMinRemaining, initializeTimeout, maxBodyBytes, period, kruisePodReadinessGate);
    }

    public WebhookConfig withKruisePodReadinessGate(boolean enabled) {
        return new WebhookConfig(namespace, serviceName, secretName, host, port, certDir, certWriter, renewBefore,
                certValidity, caValidity, caMinRemaining, initializeTimeout, maxBodyBytes, resyncPeriod, enabled);
    }
}
