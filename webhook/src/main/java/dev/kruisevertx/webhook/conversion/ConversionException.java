package dev.kruisevertx.webhook.conversion;

/** An object could not be converted; the message is returned to the API server. */
public class ConversionException extends RuntimeException {
    public ConversionException(String message) {
        super(message);
    }
}
