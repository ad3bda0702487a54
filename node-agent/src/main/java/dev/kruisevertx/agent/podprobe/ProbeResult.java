package dev.kruisevertx.agent.podprobe;

/** The outcome of one probe run; {@code message} is short (bounded), never an object's contents. */
public record ProbeResult(boolean success, String message) {
    /** Longest message kept (OpenKruise records the probe's output). */
    static final int MAX_MESSAGE = 256;

    public ProbeResult {
        message = message == null ? "" : message.strip();
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE);
        }
    }

    public static ProbeResult success(String message) {
        return new ProbeResult(true, message);
    }

    public static ProbeResult failure(String message) {
        return new ProbeResult(false, message);
    }
}
