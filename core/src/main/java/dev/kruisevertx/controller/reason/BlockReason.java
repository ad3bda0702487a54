package dev.kruisevertx.controller.reason;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One rule that held a workload back, with its numbers and the objects it names. Names, counts and reasons only:
 * never a pod's spec, env values or anything else from inside an object. Build them with {@link Reasons}.
 *
 * @param code    which rule
 * @param message one line for humans, made from the numbers and names
 * @param numbers the numbers the rule was applied with ({@code partition}, {@code unavailable}, {@code waiting}, ...)
 * @param objects names of the objects concerned (pods, the object an expectation waits for), at most
 *                {@link #MAX_OBJECTS}
 */
public record BlockReason(ReasonCode code, String message, Map<String, Long> numbers, List<String> objects) {
    public static final int MAX_OBJECTS = 10;

    public BlockReason {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        numbers = Collections.unmodifiableMap(new LinkedHashMap<>(numbers));
        objects = List.copyOf(objects.size() > MAX_OBJECTS ? objects.subList(0, MAX_OBJECTS) : objects);
    }

    /** {@code Code: message}, as {@code kubectl kruise why} prints it. */
    public String text() {
        return code.wireName() + ": " + message;
    }
}
