package dev.kruisevertx.cli;

import java.io.PrintStream;

/**
 * A start-up failure the operator fixes in the configuration (a flag, an environment variable, a file it names),
 * not by retrying: the entry points report its message and exit with code 2, as for a bad flag. The message names
 * the setting and its value.
 */
public class InvalidConfigurationException extends IllegalArgumentException {
    public InvalidConfigurationException(String message) {
        super(message);
    }

    public InvalidConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The first InvalidConfigurationException in a cause chain, or null (start-up failures arrive wrapped). */
    public static InvalidConfigurationException in(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InvalidConfigurationException found) {
                return found;
            }
        }
        return null;
    }

    /**
     * Reports a start-up failure on {@code err} and returns the entry point's exit code: 2 with the setting's
     * message when the operator has to change a setting, else 1 with {@code what} failed and why.
     */
    public static int report(Throwable failure, String what, PrintStream err) {
        InvalidConfigurationException setting = in(failure);
        if (setting != null) {
            err.println("error: " + setting.getMessage());
            return 2;
        }
        err.println("error: " + what + ": " + failure.getMessage());
        return 1;
    }
}
