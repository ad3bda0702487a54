package dev.kruisevertx.webhook.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Converts objects of one group/kind between its served versions. */
@FunctionalInterface
public interface Converter {
    /**
     * Returns {@code object} in {@code desiredApiVersion} (e.g. {@code apps.kruise.io/v1beta1}); the input
     * must not be modified.
     *
     * @throws ConversionException when the object cannot be represented in the desired version
     */
    ObjectNode convert(ObjectNode object, String desiredApiVersion);
}
