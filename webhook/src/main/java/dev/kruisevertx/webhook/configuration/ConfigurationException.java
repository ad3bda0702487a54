package dev.kruisevertx.webhook.configuration;

/** Webhook configurations or CRDs could not be brought in line; the message says which and why. */
public class ConfigurationException extends RuntimeException {
    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
