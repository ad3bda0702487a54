package dev.kruisevertx.api.common;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An enum of the API model whose constants stand for the exact strings OpenKruise writes in a field or label (a Go
 * {@code type X string} with its constants). The fields themselves stay strings: a value this project does not know
 * (written by a newer OpenKruise, or by hand) survives a read and a write unchanged, and the webhook can quote it
 * back in its error. Code that decides reads the field through a typed accessor built on {@link #parse}.
 */
public interface WireEnum {
    /**
     * The string as it stands in the object, exactly as OpenKruise spells it; also what Jackson writes for a constant
     * put into a patch body or map, so it can never go out as the Java constant name.
     */
    @JsonValue
    String value();

    /** The constant of {@code type} whose wire string is {@code value}; empty for null, empty or unknown values. */
    static <E extends Enum<E> & WireEnum> Optional<E> parse(Class<E> type, String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.value().equals(value)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }

    /** Every wire string of {@code type} in declaration order, e.g. for a "supported values" message. */
    static <E extends Enum<E> & WireEnum> List<String> values(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(WireEnum::value).toList();
    }
}
