package dev.kruisevertx.kubectl;

/** A problem the user can fix (bad arguments, missing object); its message is printed as {@code error: ...}. */
public final class CliException extends RuntimeException {
    public CliException(String message) {
        super(message);
    }
}
