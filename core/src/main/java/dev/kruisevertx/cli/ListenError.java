package dev.kruisevertx.cli;

import java.util.Locale;

/**
 * Turns a failed bind into an error that names the setting and address the operator has to change
 * ("--metrics-addr :8080: address already in use"). Netty reports the same errno as a {@code java.net.BindException} on
 * the JDK transport and as a native IOException on epoll, with no address in either.
 */
public final class ListenError {
    private ListenError() {
    }

    /**
     * @param setting the flag or variable and its value as the operator wrote it, e.g. {@code --metrics-addr :8080}
     * @param cause   what {@code listen} failed with
     */
    public static InvalidConfigurationException explain(String setting, Throwable cause) {
        String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        String lower = message.toLowerCase(Locale.ROOT);
        if (lower.contains("address already in use")) {
            return new InvalidConfigurationException(setting + ": address already in use", cause);
        }
        if (lower.contains("cannot assign requested address")) {
            return new InvalidConfigurationException(setting + ": no local interface has this address", cause);
        }
        if (lower.contains("permission denied")) {
            return new InvalidConfigurationException(setting + ": permission denied (ports below 1024 need privileges)",
                    cause);
        }
        // Anything else (an unresolvable host name, ...) is still the setting's fault, so it is still named.
        return new InvalidConfigurationException(setting + ": cannot listen: " + message, cause);
    }
}
